import type { RunState } from '../../run/index.js';

/** The item the hook handed the session last, and where the event log ended at that moment. */
export interface PendingDispatch {
  item: number;
  /** Byte length of `.leopold/events.jsonl` when the block was written: reports come after it. */
  offset: number;
  /** This dispatch is the run's one rescue attempt. */
  rescue: boolean;
  /** For the rescue: how many rescue decisions (Fork: repeated-failure) DECISIONS.md held when it was handed out. */
  approaches?: number;
  /** Set when this block was the run's final review (item: the plan's last item): how many items the plan had then. */
  final?: number;
}

/**
 * The context window the hook is conducting (docs/hooks.md, "Context windows"): one Claude
 * Code session. It opens at the first Stop the hook sees from a session and closes when the
 * hook rolls it (the transcript passed `max_context_mb`) or when a Stop arrives from another
 * session.
 */
export interface WindowMemory {
  /** The session_id of the window's session; null while the host sends none. */
  session: string | null;
  /** Plan items done when the window opened: what it closed is counted from here. */
  done: number;
  /** The window was rolled: its session is no longer conducted; the next session opens the next window. */
  rolled: boolean;
}

/**
 * What the Stop hook remembers between turns, kept in state.json under `hook` (the state
 * schema keeps fields it does not know, so no other reader is disturbed).
 */
export interface HookMemory {
  pending: PendingDispatch | null;
  /** A plain checklist's waves (item indexes), frozen at the hook's first turn like a compiled plan's. */
  waves: number[][] | null;
  /** The open (or just rolled) context window; null before the hook's first turn of the run. */
  window: WindowMemory | null;
  /** The window's session was handed the run's protocol (docs/hooks.md, "The block reason"). */
  protocol: boolean;
  /** The transcript's size at the last block: a compaction after it is looked for from here. */
  transcript: number | null;
}

const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;

/** The hook's memory in `state`; anything malformed reads as nothing remembered. */
export function hookMemoryOf(state: RunState): HookMemory {
  const raw = (state as Record<string, unknown>).hook;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { pending: null, waves: null, window: null, protocol: false, transcript: null };
  const { pending, waves, window, protocol, transcript } = raw as Record<string, unknown>;
  let dispatch: PendingDispatch | null = null;
  if (pending !== null && typeof pending === 'object') {
    const p = pending as Record<string, unknown>;
    if (isIndex(p.item) && typeof p.offset === 'number' && p.offset >= 0) {
      dispatch = { item: p.item, offset: p.offset, rescue: p.rescue === true, ...(typeof p.approaches === 'number' ? { approaches: p.approaches } : {}), ...(typeof p.final === 'number' ? { final: p.final } : {}) };
    }
  }
  const frozen = Array.isArray(waves) && waves.every((w) => Array.isArray(w) && w.every(isIndex)) ? (waves as number[][]) : null;
  const size = typeof transcript === 'number' && Number.isInteger(transcript) && transcript >= 0 ? transcript : null;
  return { pending: dispatch, waves: frozen, window: windowOf(window), protocol: protocol === true, transcript: size };
}

function windowOf(raw: unknown): WindowMemory | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const w = raw as Record<string, unknown>;
  if (!(w.session === null || typeof w.session === 'string') || typeof w.done !== 'number' || !Number.isInteger(w.done) || w.done < 0) return null;
  return { session: w.session, done: w.done, rolled: w.rolled === true };
}

/** `state` with the hook's memory replaced. */
export function withHookMemory(state: RunState, memory: HookMemory): RunState {
  return { ...state, hook: memory } as RunState;
}

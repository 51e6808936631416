import type { PlanItem } from '../../plan/schema.js';
import { reduceAll, type RunEvent } from '../../run/index.js';
import { applyStep, decideNext, freezeWaves, type Completion, type Step } from '../../run/index.js';
import { finishedState, windowClosed } from '../../run/index.js';
import type { RunState } from '../../run/index.js';
import type { StopLimits, StopVerdict } from '../../run/index.js';
import type { CheckpointInput, WindowCloseCause } from './checkpoint.js';
import { hookMemoryOf, withHookMemory, type PendingDispatch, type WindowMemory } from './memory.js';
import { finalReviewEvents, reportedEvents, type LoggedEvent } from './outcome.js';
import type { Evidence } from '../../run/index.js';

/** Everything one Stop-hook turn decides from: plain values, no I/O. */
export interface TurnInput {
  /** The active session run. */
  state: RunState;
  items: readonly PlanItem[];
  /** Events logged since the last dispatch (the session's reports). */
  events: readonly LoggedEvent[];
  /** Byte length of events.jsonl now: the next dispatch's reports start after it. */
  eventsOffset: number;
  limits: StopLimits;
  autonomy: 'full' | 'ask';
  killSwitch: boolean;
  /** Size of the session transcript in bytes; null when unknown (no path, missing, unreadable): never a roll. */
  transcriptBytes: number | null;
  /** The hook input's session_id; null when the host sent none. */
  sessionId: string | null;
  /** The transcript holds a compaction since the last block (the session lost the protocol's text). */
  compacted: boolean;
  /** How many rescue decisions (Fork: repeated-failure) DECISIONS.md holds for this run; read only around the rescue. */
  approaches: () => number;
  now: Date;
}

/** A context window this turn closed: the hook records a `window` event for it. */
export interface WindowClose {
  /** Its number (1-based): `windows` after it closed. */
  window: number;
  cause: WindowCloseCause;
  /** Plan items it finished (the done count since it opened). */
  closedItems: number;
}

/**
 * The turn's verdict: stop (allow it, with why), hand the session its next item, roll the
 * context window (allow the stop; the run goes on in a fresh session), or let a session
 * whose window was rolled stop (it is no longer conducted).
 */
export type TurnAction =
  | { type: 'stop'; verdict: StopVerdict; done: number; total: number; completion: Completion | null }
  | {
      type: 'block';
      item: PlanItem;
      turn: number;
      rescue: { kind: string; failures: number } | null;
      /** Set on the first turn of a new window (its number): the session resumes from CHECKPOINT.md. */
      resume: number | null;
      /** The block carries the run's protocol: the window's first block, or the first after a compaction. */
      protocol: boolean;
      /** Why the item failed last time, and why a taken route sent it here. */
      evidence: Evidence[];
    }
  /** Open items wait on each other: the session is asked for the run's one deadlock repair (no item is dispatched). */
  | { type: 'repair'; waiting: PlanItem[]; left: number }
  /** Every item is done: the session is asked for the run's one final review of the whole change (no item is dispatched). */
  | { type: 'final-review'; left: number }
  | { type: 'roll'; verdict: StopVerdict; next: PlanItem | null; window: number; done: number; total: number }
  | { type: 'rolled'; window: number };

/** The state to write and what to do. */
export interface Turn {
  state: RunState;
  action: TurnAction;
  /** Windows this turn closed, in order (a new session's first Stop may close one and roll its own). */
  closed: WindowClose[];
  /** The handed-out work or @human item the session finished this turn (the hook logs `item-done` for it), or null. */
  finished: number | null;
  /** The resume note to write before the state, when a window closed and the run goes on (decisions come from the I/O edge). */
  checkpoint: Omit<CheckpointInput, 'decisions'> | null;
}

/**
 * One Stop-hook turn (docs/hooks.md), pure: open the context window when this Stop is the
 * first of a session, fold what the session reported about the item it was handed (ticks,
 * failures, verdicts, exits) into the run state, pick the next item with the workflow's own
 * routing, check the stop conditions in their one order (runtime/stop/conditions.ts: the
 * kill switch, a halt, nothing left to do, the budgets, `@human` under ask, no progress,
 * then the window stops), and either end the run,
 * roll the window (the transcript passed `max_context_mb`: close it and allow the stop, the
 * run stays active), or count one more turn and hand out the next item (or the rescue).
 */
export function stopTurn(input: TurnInput): Turn {
  const memory = hookMemoryOf(input.state);
  // What the hook's memory carries over unless a branch below changes it.
  const kept = { protocol: memory.protocol, transcript: memory.transcript };
  const waves = memory.waves ?? freezeWaves(input.items);
  const done = input.items.filter((item) => item.done).length;
  const total = input.items.length;
  let state = input.state;
  const closed: WindowClose[] = [];
  const close = (cause: WindowCloseCause, opened: WindowMemory) => {
    const closedItems = Math.max(0, done - opened.done);
    state = windowClosed(state, closedItems);
    closed.push({ window: state.windows, cause, closedItems });
  };

  // The window (docs/hooks.md, "Context windows"). A Stop from another session than the
  // window's opens the next one; the old one closes here unless the hook already rolled it.
  const session = input.sessionId;
  let window = memory.window;
  let resume = false;
  const sameSession = window !== null && session !== null && session === window.session;
  if (window === null) {
    window = { session, done, rolled: false };
  } else if (window.rolled ? !sameSession : session !== null && window.session !== null && !sameSession) {
    if (!window.rolled) close('new_session', window);
    window = { session, done, rolled: false };
    resume = true;
  } else if (window.session === null && session !== null) {
    window = { ...window, session };
  }
  // Still rolled: this Stop comes from the session whose window was rolled.
  const rolledSession = window.rolled;

  // The session's reports become run-model events; the one decision of what happens next is runtime/run's.
  const pending = memory.pending && memory.pending.final === undefined ? input.items.find((item) => item.index === memory.pending!.item) : undefined;
  if (memory.pending?.final !== undefined) state = reduceAll(state, finalReviewEvents(input.items, input.events, memory.pending.item, memory.pending.final), input.items);
  const finished = pending && pending.done && (pending.kind === 'work' || pending.kind === 'human') ? pending.index : null;
  if (pending) state = reduceAll(state, withRescueOutcome(reportedEvents(pending, input.events), pending, memory.pending!, input.approaches), input.items);
  const plan = { items: input.items, waves };
  const decide = (transcriptBytes: number | null): Step =>
    decideNext({
      model: state,
      plan,
      limits: input.limits,
      autonomy: input.autonomy,
      facts: { killSwitch: input.killSwitch, ...(transcriptBytes !== null ? { transcriptBytes } : {}) },
    });
  let step = decide(input.transcriptBytes);

  if (rolledSession && (step.effect.type !== 'stop' || step.effect.verdict.reason === 'context_budget')) {
    // Its window is closed and the checkpoint written: never block it, never roll it twice.
    return { state: input.state, action: { type: 'rolled', window: input.state.windows }, closed: [], finished: null, checkpoint: null };
  }

  if (step.effect.type === 'stop' && step.effect.verdict.reason === 'context_budget') {
    // A window roll, not a death: close the window, then the window ceilings decide.
    const roll = step.effect.verdict;
    state = applyStep(state, step, input.items);
    close('context_budget', window);
    step = decide(null);
    if (step.effect.type === 'dispatch') {
      // The next item is named in the resume note, but dispatched by the next window's first turn.
      state = withHookMemory(state, { ...kept, pending: null, waves, window: { ...window, rolled: true } });
      return {
        state,
        action: { type: 'roll', verdict: roll, next: step.effect.item, window: state.windows, done, total },
        closed,
        finished,
        checkpoint: { state, items: input.items, next: step.effect.item, limits: input.limits, cause: 'context_budget', closedItems: closed.at(-1)!.closedItems },
      };
    }
  }
  // The step's events (items seen ticked, the rescue bought, the dispatch counted, the repair asked) go in as they are.
  state = applyStep(state, step, input.items);
  const effect = step.effect;

  if (effect.type === 'stop') {
    const verdict = effect.verdict;
    const ended = finishedState(withHookMemory({ ...state, stop_reason: verdict.reason }, { ...kept, pending: null, waves, window }), input.now, verdict.reason);
    return { state: ended, action: { type: 'stop', verdict, done, total, completion: effect.completion }, closed, finished, checkpoint: null };
  }

  if (effect.type === 'repair') {
    // Asked once per run, as the workflow asks it; the next Stop re-reads PLAN.md and decides again.
    state = withHookMemory(state, { ...kept, pending: null, waves, window });
    const waiting = effect.waiting.map((index) => input.items.find((item) => item.index === index)!);
    return { state, action: { type: 'repair', waiting, left: effect.left }, closed, finished, checkpoint: null };
  }

  if (effect.type === 'final-review') {
    // Asked once per run, as the workflow asks it; the next Stop folds what the session recorded.
    const last = Math.max(...input.items.map((item) => item.index));
    state = withHookMemory(state, { ...kept, pending: { item: last, offset: input.eventsOffset, rescue: false, final: input.items.length }, waves, window });
    return { state, action: { type: 'final-review', left: effect.left }, closed, finished, checkpoint: null };
  }

  const item = effect.item;
  const rescue = effect.rescue;
  // The protocol goes once per window's session, and again once the session compacted it away.
  const protocol = resume || !memory.protocol || input.compacted;
  state = withHookMemory(state, {
    pending: { item: item.index, offset: input.eventsOffset, rescue: rescue !== null, ...(rescue !== null ? { approaches: input.approaches() } : {}) },
    waves,
    window,
    protocol: true,
    transcript: input.transcriptBytes,
  });
  // A window another session left without a roll gets its resume note now, before the block points at it.
  const superseded = closed.at(-1);
  return {
    state,
    action: { type: 'block', item, turn: effect.turn, rescue, resume: resume ? state.windows + 1 : null, protocol, evidence: effect.evidence },
    closed,
    finished,
    checkpoint: superseded ? { state, items: input.items, next: item, limits: input.limits, cause: 'new_session', closedItems: superseded.closedItems } : null,
  };
}

/**
 * The rescue is bought with an approach: a rescue turn that ends with the item not done,
 * no approach recorded (no new Fork: repeated-failure decision) and nothing else that stops
 * the run reported is the rescue finding none (`no-approach`: the run stops with
 * `repeated_failure`), as when the workflow's rescue persona answers no approach. Without
 * it the session would spend the rescue on nothing and drift into `no_progress`.
 */
function withRescueOutcome(events: RunEvent[], item: PlanItem, pending: PendingDispatch, approaches: () => number): RunEvent[] {
  if (!pending.rescue || pending.approaches === undefined || item.done) return events;
  if (events.some((event) => event.type === 'no-approach' || event.type === 'escalated' || event.type === 'needs-person')) return events;
  if (approaches() > pending.approaches) return events;
  // Without an approach the turn was no rescued attempt: its failure is not counted, as the workflow makes none.
  return [...events.filter((event) => event.type !== 'failed'), { type: 'no-approach', item: item.index }];
}

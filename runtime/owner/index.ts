import type { RunState } from '../run/index.js';

/**
 * runtime/owner: one owner per session run (docs/hooks.md, "One owner per run"). The Claude
 * Code session that starts a run conducts it; another session opened in the same project
 * must not drive it, or two Stop hooks would hand out items, count turns and roll windows
 * for one run. The owner lives in state.json under `owner` (the state schema keeps fields
 * it does not know). node:fs-free and zod-free: the Stop hook and the StopFailure hook
 * read it on every call.
 */

/** How a session came to own the run. */
export type OwnerVia = 'start' | 'claim' | 'takeover' | 'window';

/** The session that conducts a run, as state.json's `owner` holds it. */
export interface RunOwner {
  /** The Claude Code session id (the hooks' `session_id`, `CLAUDE_CODE_SESSION_ID` in its commands). */
  session: string;
  /** ISO-8601 UTC, when it became the owner. */
  since: string;
  /**
   * `start`: it ran `leopold run start`; `claim`: its turn was the first to end in a run
   * started outside Claude Code (or handed over by a takeover from a terminal); `takeover`:
   * `leopold run takeover` ran in it; `window`: the owner's context window was rolled and
   * this is the fresh session that continues the run.
   */
  via: OwnerVia;
}

const VIAS: readonly OwnerVia[] = ['start', 'claim', 'takeover', 'window'];

/** The run's owner, or null when none is recorded (or the record is malformed: nobody owns it yet). */
export function ownerOf(state: RunState): RunOwner | null {
  const raw = (state as Record<string, unknown>).owner;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const { session, since, via } = raw as Record<string, unknown>;
  if (typeof session !== 'string' || session === '' || typeof since !== 'string') return null;
  return { session, since, via: VIAS.includes(via as OwnerVia) ? (via as OwnerVia) : 'claim' };
}

/** `state` with `owner` recorded (null: nobody owns it; the next session whose turn ends claims it). */
export function withOwner(state: RunState, owner: RunOwner | null): RunState {
  return { ...state, owner } as RunState;
}

/** The owner a session id makes (null without one: the run stays unclaimed). */
export function ownerFor(session: string | null | undefined, via: OwnerVia, now: Date): RunOwner | null {
  return typeof session === 'string' && session.trim() !== '' ? { session: session.trim(), since: now.toISOString(), via } : null;
}

/** What a Stop (or StopFailure) of one session may do with the active run. */
export type OwnerVerdict =
  /** This session conducts the run; `claim` is the owner to record first (null: nothing changes). */
  | { type: 'conduct'; claim: RunOwner | null }
  /** Another session owns the run: leave it alone. */
  | { type: 'bystander'; owner: RunOwner };

/**
 * Whether `session` conducts the run in `state`. A session with no id cannot be told from
 * another (the host sent none): it conducts, as before ownership. An unowned run is claimed
 * by the first session whose turn ends. Ownership also passes when the owner's context
 * window was rolled (`rolledWindowOf`): the fresh session the user opened continues the
 * run, as the roll's message tells them to. Any other session is a bystander. Pure.
 */
export function ownerVerdict(state: RunState, session: string | null, now: Date, rolledWindowOf: string | null = null): OwnerVerdict {
  if (session === null) return { type: 'conduct', claim: null };
  const owner = ownerOf(state);
  if (owner === null) return { type: 'conduct', claim: ownerFor(session, 'claim', now) };
  if (owner.session === session) return { type: 'conduct', claim: null };
  if (rolledWindowOf !== null && rolledWindowOf === owner.session) return { type: 'conduct', claim: ownerFor(session, 'window', now) };
  return { type: 'bystander', owner };
}

/** `1a2b3c4d…`: a session id short enough for one line, long enough to tell two apart. */
export function shortSession(session: string): string {
  return session.length > 12 ? `${session.slice(0, 8)}…` : session;
}

/** One line naming the owner, for `leopold run status` and the doctor. */
export function ownerText(owner: RunOwner | null): string {
  if (owner === null) return 'none yet (the first Claude Code session whose turn ends claims it)';
  const how = { start: 'started the run', claim: 'claimed it', takeover: 'took it over', window: 'continues after a context window' }[owner.via];
  return `session ${owner.session} (${how}, ${owner.since})`;
}

import type { PlanItem } from '../../plan/schema.js';
import { rescueGranted, rescueVerdict } from '../../rescue/index.js';
import { failureRecorded, finishedState, successRecorded, turnTaken, windowClosed } from '../../state/transitions.js';
import type { RunState } from '../../state/schema.js';
import { evaluateStop, type StopFacts, type StopLimits, type StopVerdict } from '../../stop/evaluate.js';
import type { CheckpointInput, WindowCloseCause } from './checkpoint.js';
import { hookMemoryOf, withHookMemory, type WindowMemory } from './memory.js';
import { freezeWaves, nextStep, type Completion } from './next.js';
import { reportedOutcome, type LoggedEvent } from './outcome.js';

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
    }
  | { type: 'roll'; verdict: StopVerdict; next: PlanItem | null; window: number; done: number; total: number }
  | { type: 'rolled'; window: number };

/** The state to write and what to do. */
export interface Turn {
  state: RunState;
  action: TurnAction;
  /** Windows this turn closed, in order (a new session's first Stop may close one and roll its own). */
  closed: WindowClose[];
  /** The resume note to write before the state, when a window closed and the run goes on (decisions come from the I/O edge). */
  checkpoint: Omit<CheckpointInput, 'decisions'> | null;
}

/**
 * One Stop-hook turn (SPEC-RUNTIME §6), pure: open the context window when this Stop is the
 * first of a session, fold what the session reported about the item it was handed (ticks,
 * failures, verdicts, exits) into the run state, pick the next item with the workflow's own
 * routing, check the stop conditions in order (kill switch, iteration budget, failure
 * ceiling, plan complete, `@human` under ask, no progress, then the window stops:
 * `max_windows`, `no_progress_across_windows`, `context_budget`), and either end the run,
 * roll the window (the transcript passed `max_context_mb`: close it and allow the stop, the
 * run stays active), or count one more turn and hand out the next item (or the rescue).
 */
export function stopTurn(input: TurnInput): Turn {
  const memory = hookMemoryOf(input.state);
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

  const pending = memory.pending ? input.items.find((item) => item.index === memory.pending!.item) : undefined;
  const reported = pending ? reportedOutcome(pending, input.events) : null;
  for (const kind of reported?.failures ?? []) state = failureRecorded(state, kind);
  if (reported?.succeeded) state = successRecorded(state);

  const step = nextStep(input.items, state.routing, reported?.finished ?? null, waves);
  state = { ...state, routing: step.routing };

  const facts: StopFacts = {
    killSwitch: input.killSwitch,
    planComplete: step.complete?.reason === 'plan_complete',
    routedComplete: step.complete?.reason === 'routed_complete',
    deadlock: step.complete?.reason === 'deadlock',
    escalation: reported?.escalated === true,
    nextIsHuman: step.next?.kind === 'human',
    ...(input.transcriptBytes !== null ? { transcriptBytes: input.transcriptBytes } : {}),
  };
  let found = evaluateStop({ state, limits: input.limits, autonomy: input.autonomy, facts });

  if (rolledSession && (found === null || found.reason === 'context_budget')) {
    // Its window is closed and the checkpoint written: never block it, never roll it twice.
    return { state: input.state, action: { type: 'rolled', window: input.state.windows }, closed: [], checkpoint: null };
  }

  if (found?.reason === 'context_budget') {
    // A window roll, not a death: close the window, then the window ceilings decide.
    const roll = found;
    close('context_budget', window);
    found = evaluateStop({ state, limits: input.limits, autonomy: input.autonomy, facts: { ...facts, transcriptBytes: undefined } });
    if (!found) {
      state = withHookMemory(state, { pending: null, waves, window: { ...window, rolled: true } });
      return {
        state,
        action: { type: 'roll', verdict: roll, next: step.next, window: state.windows, done, total },
        closed,
        checkpoint: { state, items: input.items, next: step.next, limits: input.limits, cause: 'context_budget', closedItems: closed.at(-1)!.closedItems },
      };
    }
  }

  if (found) {
    const verdict = withDetail(found, step.complete, step.next, pending && reported?.escalated ? { item: pending, question: reported.question } : null);
    const ended = finishedState(withHookMemory({ ...state, stop_reason: verdict.reason }, { pending: null, waves, window }), input.now, verdict.reason);
    return { state: ended, action: { type: 'stop', verdict, done, total, completion: step.complete }, closed, checkpoint: null };
  }

  // Not stopping: evaluateStop saw no ceiling, so the item still has a next attempt.
  const item = step.next!;
  let rescue: { kind: string; failures: number } | null = null;
  if (rescueVerdict({ state, maxFailures: input.limits.maxFailures, autonomy: input.autonomy }) === 'rescue') {
    state = rescueGranted(state);
    rescue = state.rescue_for;
  }
  state = turnTaken(state, done);
  state = withHookMemory(state, { pending: { item: item.index, offset: input.eventsOffset, rescue: rescue !== null }, waves, window });
  // A window another session left without a roll gets its resume note now, before the block points at it.
  const superseded = closed.at(-1);
  return {
    state,
    action: { type: 'block', item, turn: state.iteration, rescue, resume: resume ? state.windows + 1 : null },
    closed,
    checkpoint: superseded ? { state, items: input.items, next: item, limits: input.limits, cause: 'new_session', closedItems: superseded.closedItems } : null,
  };
}

// The evaluator's one-liners, made as specific as the workflow's where the hook knows more.
function withDetail(verdict: StopVerdict, complete: Completion | null, next: PlanItem | null, escalated: { item: PlanItem; question: string | null } | null): StopVerdict {
  if (complete && verdict.reason === complete.reason) return { reason: verdict.reason, detail: complete.detail };
  if (verdict.reason === 'escalation' && escalated) {
    return { reason: verdict.reason, detail: `item ${escalated.item.index} ("${escalated.item.text}"): no usable decision at the fork (${escalated.question ?? 'no question given'})` };
  }
  if (verdict.reason === 'awaiting_human' && next) {
    return { reason: verdict.reason, detail: `item ${next.index} ("${next.text}") is a @human node and autonomy is ask` };
  }
  return verdict;
}

import type { PlanItem } from '../../plan/schema.js';
import { rescueGranted, rescueVerdict } from '../../rescue/index.js';
import { failureRecorded, finishedState, successRecorded, turnTaken } from '../../state/transitions.js';
import type { RunState } from '../../state/schema.js';
import { evaluateStop, type StopLimits, type StopVerdict } from '../../stop/evaluate.js';
import { hookMemoryOf, withHookMemory } from './memory.js';
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
  now: Date;
}

/** The turn's verdict: stop (allow it, with why), or hand the session its next item. */
export type TurnAction =
  | { type: 'stop'; verdict: StopVerdict; done: number; total: number; completion: Completion | null }
  | { type: 'block'; item: PlanItem; turn: number; rescue: { kind: string; failures: number } | null };

/** The state to write and what to do. */
export interface Turn {
  state: RunState;
  action: TurnAction;
}

/**
 * One Stop-hook turn (SPEC-RUNTIME §6), pure: fold what the session reported about the item
 * it was handed (ticks, failures, verdicts, exits) into the run state, pick the next item
 * with the workflow's own routing, check the stop conditions in order (kill switch,
 * iteration budget, failure ceiling, plan complete, `@human` under ask, no progress), and
 * either end the run or count one more turn and hand out the next item (or the rescue).
 */
export function stopTurn(input: TurnInput): Turn {
  const memory = hookMemoryOf(input.state);
  const waves = memory.waves ?? freezeWaves(input.items);
  let state = input.state;

  const pending = memory.pending ? input.items.find((item) => item.index === memory.pending!.item) : undefined;
  const reported = pending ? reportedOutcome(pending, input.events) : null;
  for (const kind of reported?.failures ?? []) state = failureRecorded(state, kind);
  if (reported?.succeeded) state = successRecorded(state);

  const step = nextStep(input.items, state.routing, reported?.finished ?? null, waves);
  state = { ...state, routing: step.routing };
  const done = input.items.filter((item) => item.done).length;

  const found = evaluateStop({
    state,
    limits: input.limits,
    autonomy: input.autonomy,
    facts: {
      killSwitch: input.killSwitch,
      planComplete: step.complete?.reason === 'plan_complete',
      routedComplete: step.complete?.reason === 'routed_complete',
      deadlock: step.complete?.reason === 'deadlock',
      nextIsHuman: step.next?.kind === 'human',
    },
  });
  if (found) {
    const verdict = withDetail(found, step.complete, step.next);
    const ended = finishedState(withHookMemory({ ...state, stop_reason: verdict.reason }, { pending: null, waves }), input.now, verdict.reason);
    return { state: ended, action: { type: 'stop', verdict, done, total: input.items.length, completion: step.complete } };
  }

  // Not stopping: evaluateStop saw no ceiling, so the item still has a next attempt.
  const item = step.next!;
  let rescue: { kind: string; failures: number } | null = null;
  if (rescueVerdict({ state, maxFailures: input.limits.maxFailures, autonomy: input.autonomy }) === 'rescue') {
    state = rescueGranted(state);
    rescue = state.rescue_for;
  }
  state = turnTaken(state, done);
  state = withHookMemory(state, { pending: { item: item.index, offset: input.eventsOffset, rescue: rescue !== null }, waves });
  return { state, action: { type: 'block', item, turn: state.iteration, rescue } };
}

// The evaluator's one-liners, made as specific as the workflow's where the hook knows more.
function withDetail(verdict: StopVerdict, complete: Completion | null, next: PlanItem | null): StopVerdict {
  if (complete && verdict.reason === complete.reason) return { reason: verdict.reason, detail: complete.detail };
  if (verdict.reason === 'awaiting_human' && next) {
    return { reason: verdict.reason, detail: `item ${next.index} ("${next.text}") is a @human node and autonomy is ask` };
  }
  return verdict;
}

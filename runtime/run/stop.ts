import { apiErrorDetail } from '../api-error/index.js';
import { rescueVerdict } from './rescue.js';
import type { Halt, RunModel } from './schema.js';
import { STOP_REASONS, type StopReason } from './stop-reasons.js';

export { STOP_REASONS, type StopReason };

/** The limits the evaluator reads (GUARDRAILS values, defaults applied by the caller). */
/**
 * The GUARDRAILS.md `gated` phrase that names `item`, or null: `{#anchor}` names the item
 * with that anchor (written as in the plan: a bare `#` would start a comment), any other
 * phrase an item whose text holds it (any case).
 */
export function gatedBy(item: { text: string; anchor?: string | null }, gated: readonly string[] = []): string | null {
  const text = item.text.toLowerCase();
  for (const phrase of gated) {
    const anchor = /^\{#([^}\s]+)\}$/.exec(phrase);
    if (anchor ? item.anchor === anchor[1] : text.includes(phrase.toLowerCase())) return phrase;
  }
  return null;
}

export interface StopLimits {
  maxIterations: number;
  maxFailures: number;
  maxNoProgress: number;
  /** Session transcript ceiling in MiB (in-session engine only). */
  maxContextMb: number;
  maxWindows: number;
  /** GUARDRAILS.md `gated`: phrases (or `#anchor`s) naming work only a person does; none when absent. */
  gated?: readonly string[];
  /** GUARDRAILS.md `max_subagents` (per item) and `max_subagents_per_run`; no cap when absent. */
  maxSubagents?: number;
  maxSubagentsPerRun?: number;
}

/** Default limits (docs/compile.md). */
export const DEFAULT_STOP_LIMITS: StopLimits = {
  maxIterations: 50,
  maxFailures: 3,
  maxNoProgress: 6,
  maxContextMb: 5,
  maxWindows: 10,
};

/** Facts about the plan and the host the caller gathered; absent facts never stop a run. */
export interface StopFacts {
  /** `.leopold/STOP` exists. */
  killSwitch?: boolean;
  /**
   * An agent of this run died on an API error (its kind, as the client names it): the
   * workflow learns it from its scribe's ack (docs/workflow.md). The session engine's own
   * turns end through the StopFailure hook instead.
   */
  apiError?: { error: string } | null;
  /** Every item is done. */
  planComplete?: boolean;
  /** Routing has nothing left to dispatch though items stay open (stranded / routed around). */
  routedComplete?: boolean;
  /** The graph is invalid / deadlocked and the bounded repair did not fix it. */
  invalidGraph?: boolean;
  deadlock?: boolean;
  /** An event asked the run to stop (the run model's `halt`): an unsettled fork, a rescue with no approach. */
  halt?: Halt | null;
  /** The next item to dispatch is a `@human` node. */
  nextIsHuman?: boolean;
  /** The `gated` phrase (GUARDRAILS.md) that names the next item: a person does it, in either autonomy. */
  nextGated?: string | null;
  /** The host's token budget is spent. */
  budgetExceeded?: boolean;
  /** Size of the session transcript in bytes (in-session engine). */
  transcriptBytes?: number;
  /**
   * The next dispatch could take more agents than this workflow run has left (the host's
   * 1,000-agent cap, the stop's own scribe call reserved): end here, at an item boundary,
   * and let the next launch continue (workflow engine only).
   */
  runBudget?: { needed: number; left: number };
}

/** The evaluator's input: the run state, its limits, the posture and the gathered facts. */
export interface StopInput {
  state: Pick<RunModel, 'iteration' | 'consecutive_failures' | 'rescue_used' | 'rescue_for' | 'no_progress'> & { windows?: number; windows_without_progress?: number };
  limits: StopLimits;
  autonomy: 'full' | 'ask';
  facts: StopFacts;
}

/** Why the run stops, with a one-line explanation. */
export interface StopVerdict {
  reason: StopReason;
  detail: string;
}

type Check = (input: StopInput) => StopVerdict | null;

const verdict = (reason: StopReason, detail: string): StopVerdict => ({ reason, detail });

/**
 * The checks in the order they are asked: the kill switch; an API error an agent died on
 * (the host refuses the run's requests: whatever else holds, nothing more can be done
 * until it answers again, so every such error stops at once, the client having retried
 * the request already); a stop an event asked for (an
 * unsettled fork, a rescue with no approach); then whether anything is left to do
 * (plan_complete, routed_complete, invalid_graph, deadlock); then the ceilings that stop a
 * run with work left (iteration budget, host budget, failure ceiling), `@human` under ask
 * and no progress; then the run's agent budget (`run_budget`: nothing else holds, but the
 * next item might not fit in what is left of this workflow run, so the run ends at an item
 * boundary and the next launch continues); the context-window conditions last (a context
 * roll is not a death).
 * docs/hooks.md asks the iteration budget and the failure ceiling before plan complete;
 * a budget stops work that is left, so a run whose last item finished on its last
 * iteration is `plan_complete` on both engines (docs/architecture.md, "Stop order").
 */
const CHECKS: readonly Check[] = [
  ({ facts }) => (facts.killSwitch ? verdict('kill_switch', '.leopold/STOP exists') : null),
  ({ facts }) => (facts.apiError ? verdict('api_error', apiErrorDetail(facts.apiError.error, 'an agent')) : null),
  ({ facts }) => (facts.halt ? verdict(facts.halt.reason, facts.halt.detail) : null),
  ({ facts }) => (facts.planComplete ? verdict('plan_complete', 'every item is done') : null),
  ({ facts }) => (facts.routedComplete ? verdict('routed_complete', 'no routed item is left to run') : null),
  ({ facts }) => (facts.invalidGraph ? verdict('invalid_graph', 'the plan graph is invalid and repair did not fix it') : null),
  ({ facts }) => (facts.deadlock ? verdict('deadlock', 'open items wait on each other and repair did not fix it') : null),
  ({ state, limits }) =>
    state.iteration >= limits.maxIterations
      ? verdict('iteration_budget', `${state.iteration} of ${limits.maxIterations} iterations used`)
      : null,
  ({ facts }) => (facts.budgetExceeded ? verdict('budget_exceeded', 'the host token budget is spent') : null),
  ({ state, limits, autonomy }) =>
    rescueVerdict({ state, maxFailures: limits.maxFailures, autonomy }) === 'stop'
      ? verdict(
          'repeated_failure',
          `${state.consecutive_failures.count} consecutive ${state.consecutive_failures.kind} failures` +
            (state.rescue_used ? ' (the one rescue is used)' : ' (rescues are off under ask)'),
        )
      : null,
  ({ facts, autonomy }) =>
    facts.nextIsHuman && autonomy === 'ask' ? verdict('awaiting_human', 'the next item is a @human node under ask') : null,
  ({ facts }) => (facts.nextGated ? verdict('awaiting_human', `the next item is gated by GUARDRAILS.md (gated: ${facts.nextGated})`) : null),
  ({ state, limits }) =>
    state.no_progress >= limits.maxNoProgress
      ? verdict('no_progress', `${state.no_progress} turns without a plan change (limit ${limits.maxNoProgress})`)
      : null,
  ({ facts }) =>
    facts.runBudget && facts.runBudget.needed > facts.runBudget.left
      ? verdict(
          'run_budget',
          `the next item may take up to ${facts.runBudget.needed} agents and this run has ${facts.runBudget.left} left; the next launch continues`,
        )
      : null,
  ({ state, limits }) =>
    (state.windows ?? 0) >= limits.maxWindows ? verdict('max_windows', `${state.windows} of ${limits.maxWindows} context windows used`) : null,
  ({ state }) =>
    (state.windows_without_progress ?? 0) >= 2
      ? verdict('no_progress_across_windows', `${state.windows_without_progress} windows in a row closed no item`)
      : null,
  ({ facts, limits }) =>
    facts.transcriptBytes !== undefined && facts.transcriptBytes > limits.maxContextMb * 1024 * 1024
      ? verdict('context_budget', `the transcript passed ${limits.maxContextMb} MB: checkpoint and roll the window`)
      : null,
];

/**
 * Whether one more subagent may start for `item` (null: for the run, outside any item), or
 * the verdict that stops the run (`subagent_cap`): the item has started `max_subagents`
 * already, or the run `max_subagents_per_run`. Asked by both engines before a spawn (the
 * session's PreToolUse hook on the Task/Agent tool, the workflow's agent() wrapper), so the
 * cap is never passed: the refused spawn is what stops the run. Pure.
 */
export function subagentCap(model: Pick<RunModel, 'subagents'>, limits: Pick<StopLimits, 'maxSubagents' | 'maxSubagentsPerRun'>, item: number | null): StopVerdict | null {
  const seen = model.subagents ?? { total: 0, by_item: {} };
  const mine = item === null ? 0 : (seen.by_item[String(item)] ?? 0);
  if (item !== null && limits.maxSubagents !== undefined && mine >= limits.maxSubagents) {
    return verdict('subagent_cap', `item ${item} has started ${mine} subagents, the cap (max_subagents: ${limits.maxSubagents}); a further one was refused`);
  }
  if (limits.maxSubagentsPerRun !== undefined && seen.total >= limits.maxSubagentsPerRun) {
    return verdict('subagent_cap', `the run has started ${seen.total} subagents, the cap (max_subagents_per_run: ${limits.maxSubagentsPerRun}); a further one was refused`);
  }
  return null;
}

/** The first stop condition that holds, or null to keep going. Pure. */
export function stopCondition(input: StopInput): StopVerdict | null {
  for (const check of CHECKS) {
    const found = check(input);
    if (found) return found;
  }
  return null;
}

/**
 * Subagents one iteration may start at worst, at the default `max_review_rounds` with two
 * reviewers (40: `worstCaseAgents`, runtime/workflow/agent-budget.ts); what the run's
 * default cap is counted in.
 */
export const SUBAGENTS_PER_ITERATION = 40;

/**
 * `max_subagents_per_run` when GUARDRAILS.md does not set it: `max_iterations` times the worst
 * case of one iteration (2,000 at the default 50), so raising `max_iterations` for a large
 * plan raises this cap with it, and never below what one item may start (`max_subagents`):
 * one iteration of a sensitive item with three reviewers can take more than 40
 * (docs/guardrails.md, Subagents).
 */
export function defaultSubagentsPerRun(maxIterations: number, maxSubagents: number): number {
  return Math.max(maxIterations * SUBAGENTS_PER_ITERATION, maxSubagents);
}

/**
 * What an empty or missing GUARDRAILS.md means: every limit at its default, the posture
 * unset (the flag, LEOPOLD_AUTONOMY or `full` decide it). A plain value, so the Stop hook
 * has it without loading zod; schema.ts takes its defaults from here (and so cannot type it).
 */
export const DEFAULT_GUARDRAILS = Object.freeze({
  maxReviewRounds: 3,
  maxIterations: 50,
  maxFailures: 3,
  maxNoProgress: 6,
  maxContextMb: 5,
  maxWindows: 10,
  maxSubagents: 100,
  /** At the default `max_iterations`; a GUARDRAILS.md that raises it and leaves this unset gets defaultSubagentsPerRun of its own (parse.ts). */
  maxSubagentsPerRun: defaultSubagentsPerRun(50, 100),
  parallelItems: 'off' as 'on' | 'off',
  notifyWebhook: 'none' as string,
  gated: [] as string[],
});

// The list of stop conditions, apart from the evaluator (stop.ts) so the state's zod schema
// (schema.ts) can build its enum from it without importing the kernel.

/** Every stop condition (docs/runtime.md, "Stop conditions"). */
export const STOP_REASONS = [
  'plan_complete',
  'routed_complete',
  'kill_switch',
  'iteration_budget',
  'budget_exceeded',
  'no_progress',
  'repeated_failure',
  'escalation',
  'deadlock',
  'invalid_graph',
  'awaiting_human',
  'context_budget',
  'no_progress_across_windows',
  'max_windows',
  'run_budget',
  'api_error',
  'subagent_cap',
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

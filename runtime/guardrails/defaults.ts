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
  maxSubagentsPerRun: 2000,
  parallelItems: 'off' as 'on' | 'off',
  notifyWebhook: 'none' as string,
  gated: [] as string[],
});

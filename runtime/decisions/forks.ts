/**
 * The stop points a decision can come from (`deadlock` is a repair of a stuck graph). A
 * plain list, apart from the zod schemas, so the trail reader the workflow bundles never
 * loads zod.
 */
export const DECISION_FORKS = ['human', 'escalation', 'repair', 'deadlock', 'repeated-failure'] as const;

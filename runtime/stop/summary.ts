import { AMENDMENT_BUDGET } from '../amend/limits.js';
import type { RunState } from '../state/schema.js';

/** What the end-of-run summary reports besides the state. */
export interface SummaryFacts {
  /** Done and total plan items, when the plan could be read. */
  plan: { done: number; total: number } | null;
  /** The "What I decided for you" block (empty when nothing was decided). */
  decidedForYou: string;
}

/**
 * The end-of-run summary shared by `leopold run finish` and the Stop hook: why it ended,
 * the counters, the plan's progress, then "What I decided for you" when anything was.
 */
export function renderRunSummary(state: RunState, facts: SummaryFacts): string {
  const failures = Object.entries(state.failures)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([kind, n]) => `${kind}: ${n}`);
  const total = Object.values(state.failures).reduce((sum, n) => sum + n, 0);
  const lines = [
    `Leopold run ended: ${state.stop_reason ?? 'finished'}`,
    `Engine: ${state.engine} · iterations: ${state.iteration} · failures: ${total}${failures.length > 0 ? ` (${failures.join(', ')})` : ''}` +
      ` · rescue used: ${state.rescue_used ? 'yes' : 'no'} · plan changes: ${state.amendments_used}/${AMENDMENT_BUDGET}`,
  ];
  if (facts.plan) lines.push(`Plan: ${facts.plan.done}/${facts.plan.total} items done`);
  if (facts.decidedForYou !== '') lines.push('', facts.decidedForYou);
  return lines.join('\n');
}

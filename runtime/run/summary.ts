import { AMENDMENT_BUDGET } from '../amend/limits.js';
import type { RunState } from './schema.js';
import { outcomesText, type ReviewReport } from './review.js';

/** One open plan item, as the report names it. */
export interface OpenItem {
  index: number;
  text: string;
}

/** What the end-of-run summary reports besides the state. */
export interface SummaryFacts {
  /** Done and total plan items, when the plan could be read. */
  plan: { done: number; total: number } | null;
  /** The "What I decided for you" block (empty when nothing was decided). */
  decidedForYou: string;
  /** Why the run stopped, in one line (which item, which fork), when known. */
  detail?: string | null;
  /** The plan items still open, in plan order (named when any remain). */
  remaining?: readonly OpenItem[];
  /** Each item's SDD outcome label (with its concerns) and the final review's follow-ups, from the run's journal. */
  review?: ReviewReport;
  /** Done means verified: each work item's last passing verification this run (its commands), and the items a person ticked without one. */
  evidence?: { verified: readonly { item: number; commands: readonly string[] }[]; unverified: readonly number[] };
}

/** At most this many open items are named before `and N more`. */
export const REMAINING_SHOWN = 10;

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** `none`, or `partial: 1, verification: 2` (sorted by kind): never a raw `{}`. */
export function failuresText(failures: Readonly<Record<string, number>>): string {
  const entries = Object.entries(failures)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? 'none' : entries.map(([kind, n]) => `${kind}: ${n}`).join(', ');
}

/** `2 ("Write the code"), 3 ("Publish")`, at most REMAINING_SHOWN, then `and N more`. */
export function remainingText(items: readonly OpenItem[]): string {
  const shown = items.slice(0, REMAINING_SHOWN).map((item) => `${item.index} ("${oneLine(item.text)}")`);
  const more = items.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/**
 * The end-of-run summary shared by `leopold run finish` and the Stop hook: why it ended
 * (the condition, then the item and fork it ended at), the counters, the plan's progress,
 * the items still open, each item's outcome label and the final review's follow-ups, the
 * verification behind each work item done, then "What I decided for you" when anything was.
 */
export function renderRunSummary(state: RunState, facts: SummaryFacts): string {
  const total = Object.values(state.failures).reduce((sum, n) => sum + n, 0);
  const byKind = failuresText(state.failures);
  const lines = [
    `Leopold run ended: ${state.stop_reason ?? 'finished'}`,
    `Engine: ${state.engine} · iterations: ${state.iteration} · failures: ${total}${total > 0 ? ` (${byKind})` : ''}` +
      ` · rescue used: ${state.rescue_used ? 'yes' : 'no'} · plan changes: ${state.amendments_used}/${AMENDMENT_BUDGET}`,
  ];
  if (facts.detail) lines.push(`Why: ${oneLine(facts.detail)}`);
  if (facts.plan) lines.push(`Plan: ${facts.plan.done}/${facts.plan.total} items done`);
  if (facts.remaining && facts.remaining.length > 0) lines.push(`Remaining: ${remainingText(facts.remaining)}`);
  if (facts.review && facts.review.outcomes.length > 0) lines.push(`Outcomes: ${oneLine(outcomesText(facts.review.outcomes))}`);
  if (facts.review && facts.review.followUps.length > 0) lines.push(`Final review follow-ups: ${oneLine(facts.review.followUps.join('; '))}`);
  if (facts.evidence && facts.evidence.verified.length > 0) {
    lines.push(`Verified: ${facts.evidence.verified.map((r) => `${r.item} (${r.commands.map(oneLine).join('; ')})`).join(', ')}`);
  }
  if (facts.evidence && facts.evidence.unverified.length > 0) lines.push(`Ticked without verification (by hand): ${facts.evidence.unverified.join(', ')}`);
  if (facts.decidedForYou !== '') lines.push('', facts.decidedForYou);
  return lines.join('\n');
}

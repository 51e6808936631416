import { DEFAULT_REVERSAL } from './render.js';
import type { DecisionFork, DecisionRecord } from './schema.js';

/**
 * How much each fork weighs in the risk score: the step between forks (10) is bigger than
 * two raises (2 × 4), so the fork decides the order unless a lower fork carries all three
 * raises. docs/decisions.md explains the ranking to users.
 */
export const FORK_RISK: Readonly<Record<DecisionFork | 'none', number>> = {
  escalation: 40,
  human: 30,
  repair: 20,
  deadlock: 20,
  'repeated-failure': 10,
  none: 0,
};

/** Added once for each of: no persona synthesized, a heavy subject, the default Reversal. */
export const RISK_RAISE = 4;

/** At most this many decisions are listed before `(+N more)`. */
export const DECIDED_FOR_YOU_LINES = 5;

// Subjects whose mistakes are expensive or leave the machine. Word-bounded; a trailing
// \w* marks a stem (`migrat` matches migrate, migration, migrating).
const HEAVY =
  /(?<![\p{L}\p{N}_])(?:production|prod|data|database|migrat\w*|schema|payments?|billing|invoic\w*|deploy\w*|releas\w*|publish\w*|upload\w*|push\w*|webhooks?|e-?mail\w*|send\w*|external|third[- ]party|secrets?|credentials?|delet\w*)(?![\p{L}\p{N}_])/iu;

/** True when a decision's subject (title and decision) is heavy. */
export function isHeavySubject(text: string): boolean {
  return HEAVY.test(text);
}

/** One decision's risk: the score and the raises that applied, in a fixed order. */
export interface DecisionRisk {
  score: number;
  reasons: string[];
}

/** The explicit risk score of one decision (see FORK_RISK and RISK_RAISE). */
export function riskOf(record: DecisionRecord): DecisionRisk {
  const reasons: string[] = [];
  // A persona fork whose entry names nobody was decided under the default worker prompt.
  if (record.persona === null || (record.fork !== null && record.persona === undefined)) reasons.push('no persona');
  if (isHeavySubject(`${record.title}\n${record.decision}`)) reasons.push('heavy subject');
  if (record.reversal.trim() === '' || record.reversal.trim() === DEFAULT_REVERSAL) reasons.push('default reversal');
  return { score: FORK_RISK[record.fork ?? 'none'] + RISK_RAISE * reasons.length, reasons };
}

/** A decision with its risk, as the ranking returns it. */
export type RankedDecision = DecisionRecord & DecisionRisk;

/** Non-mechanical decisions, riskiest first; equal scores by ascending D number. */
export function rankDecisions(records: readonly DecisionRecord[]): RankedDecision[] {
  return records
    .filter((r) => !r.mechanical)
    .map((r) => ({ ...r, ...riskOf(r) }))
    .sort((a, b) => b.score - a.score || a.n - b.n);
}

const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : flat;
};

function line(d: RankedDecision): string {
  const where = d.fork === null ? 'decision' : d.item ? `${d.fork} at ${clip(d.item, 40)}` : d.fork;
  const head = d.reasons.length === 0 ? where : `${where}, ${d.reasons.join(', ')}`;
  const what = d.decision.trim() === '' ? clip(d.title, 80) : `${clip(d.title, 60)} — ${clip(d.decision, 80)}`;
  return `- D${d.n} ${head}: ${what} (undo: ${clip(d.reversal || DEFAULT_REVERSAL, 80)})`;
}

/**
 * "What I decided for you": the decisions made on the user's behalf, riskiest first, at
 * most five lines, then `(+N more …)` and the path of DECISIONS.md. Mechanical decisions
 * are bookkeeping and not listed. Empty string when nothing was decided.
 */
export function decidedForYou(records: readonly DecisionRecord[], options: { path: string }): string {
  const ranked = rankDecisions(records);
  if (ranked.length === 0) return '';
  const shown = ranked.slice(0, DECIDED_FOR_YOU_LINES).map(line);
  const more = ranked.length - shown.length;
  const tail = more > 0 ? `(+${more} more in ${options.path})` : `(details in ${options.path})`;
  return ['What I decided for you (riskiest first):', ...shown, tail].join('\n');
}

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
  /(?<![\p{L}\p{N}_])(?:production|prod|data|database|migrat\w*|schema|payments?|billing|invoic\w*|deploy\w*|releas\w*|publish\w*|upload\w*|push\w*|cutover|rollout|ship|shipping|launch\w*|customers?|pii|webhooks?|e-?mail\w*|send\w*|external|third[- ]party|secrets?|credentials?|delet\w*)(?![\p{L}\p{N}_])/iu;

/** True when a decision's subject (its title, decision or the item it was made at) is heavy. */
export function isHeavySubject(text: string): boolean {
  return HEAVY.test(text);
}

/** One decision's risk: the score and the raises that applied, in a fixed order. */
export interface DecisionRisk {
  score: number;
  reasons: string[];
}

/** True when an entry names nobody: a persona fork decided under the default worker prompt. */
export function decidedByNobody(record: DecisionRecord): boolean {
  return record.persona === null || (record.fork !== null && record.persona === undefined);
}

/**
 * The explicit risk score of one decision (see FORK_RISK and RISK_RAISE): the fork it came
 * from, raised when no role could be synthesized, when the subject is heavy (the title,
 * the decision, or the item the fork was at: "Approve the production cutover") and when
 * the Reversal is the default one.
 */
export function riskOf(record: DecisionRecord): DecisionRisk {
  const reasons: string[] = [];
  if (decidedByNobody(record)) reasons.push('no persona');
  if (isHeavySubject(`${record.title}\n${record.decision}\n${record.item ?? ''}`)) reasons.push('heavy subject');
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

/** The block's last line when the decisions were written (decision protocol, byte for byte). */
export const TRAIL_CLOSING = 'The full trail — charter basis and why — is in .leopold/DECISIONS.md.';

/** The block's last line from `leopold simulate`, which writes nothing: it must not point at a trail. */
export const SIMULATED_CLOSING = 'Simulated run: nothing was written; a real run keeps the full trail — charter basis and why — in .leopold/DECISIONS.md.';

/** Who a block line credits when the entry names no persona. */
export const NO_PERSONA_WHO = 'No persona — default worker';
/** Who a block line credits for a decision made at no fork (a review ruling): the run itself. */
export const RUN_WHO = 'Leopold — run conductor';

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function who(d: DecisionRecord): string {
  if (d.persona && d.persona.name !== '' && d.persona.role !== '') return `${oneLine(d.persona.name)} — ${oneLine(d.persona.role)}`;
  return d.fork === null && d.persona === undefined ? RUN_WHO : NO_PERSONA_WHO;
}

// Two lines per decision, never clipped: what was decided, then the way back.
function lines(d: DecisionRecord, position: number): string[] {
  const decision = oneLine(d.decision) || oneLine(d.title);
  return [`  ${position}. [${d.fork ?? 'decision'}] ${who(d)} (D${d.n}): ${decision}`, `     Reversal: ${oneLine(d.reversal) || DEFAULT_REVERSAL}`];
}

/** Where the trail is: written (`leopold record` ran) or simulated (nothing was). */
export type TrailKind = 'written' | 'simulated';

/**
 * "What I decided for you", exactly as the decision protocol shows it: the header with the
 * count, riskiest first, `  K. [fork] Name — Role (DN): decision` and an indented
 * `     Reversal: …` per decision (never clipped), at most five then `(+N more)`, and the
 * closing line naming DECISIONS.md (SIMULATED_CLOSING when nothing was written).
 * Mechanical decisions are bookkeeping and not listed. Empty string when nothing was
 * decided. The one renderer of the workflow result, `run finish`, the Stop hook and the
 * webhook body.
 */
export function decidedForYou(records: readonly DecisionRecord[], options: { trail?: TrailKind } = {}): string {
  const ranked = rankDecisions(records);
  if (ranked.length === 0) return '';
  const shown = ranked.slice(0, DECIDED_FOR_YOU_LINES);
  const more = ranked.length - shown.length;
  return [
    `What I decided for you (${ranked.length} ${ranked.length === 1 ? 'call' : 'calls'}, riskiest first):`,
    ...shown.flatMap((d, i) => lines(d, i + 1)),
    ...(more > 0 ? [`(+${more} more)`] : []),
    options.trail === 'simulated' ? SIMULATED_CLOSING : TRAIL_CLOSING,
  ].join('\n');
}

/** A block as `leopold simulate` shows it: the same lines, with SIMULATED_CLOSING for each closing line (a chain of launches has a block per launch). */
export function simulatedTrail(block: string): string {
  return block.split('\n').map((line) => (line === TRAIL_CLOSING ? SIMULATED_CLOSING : line)).join('\n');
}

import { isSilentCharter, oneLine } from './render.js';
import type { DecisionInput } from './schema.js';

// A value nobody filled in: blank, or still a `<…>` placeholder of the record template.
const unfilled = (value: string | undefined) => {
  const v = (value ?? '').trim();
  return v === '' || /^<[^<>]*>$/.test(v);
};

/**
 * Why a fork's answer settles nothing, or undefined when it is a usable decision: a
 * decision and a why somebody actually gave. An empty answer must never become a made-up
 * decision ("proceed as written", "bias to action"): the fork is not settled, and the run
 * stops with `escalation` (the persona document).
 */
export function unusableDecision(entry: Pick<DecisionInput, 'decision' | 'why' | 'mechanical'>): string | undefined {
  if (entry.mechanical) return undefined;
  if (unfilled(entry.decision)) return 'it names no decision';
  if (unfilled(entry.why)) return 'it gives no why (the principle or charter rule that drove it)';
  return undefined;
}

/** What a decision that is not mechanical must say. */
export const FULL_ENTRY_FIELDS = ['class', 'charter', 'decision', 'why'] as const;

/** Why an entry may not be recorded, and whether it is the protocol's one mandatory stop. */
export interface Refusal {
  /** What the agent is told, naming the entry. */
  message: string;
  /**
   * An irreversible decision the charter is silent on: not the agent's to make, so the
   * fork is an escalation and the run stops (`leopold record` records the escalation).
   * The other refusals are the agent's to correct.
   */
  stopAndAsk: boolean;
}

/**
 * The decision protocol's hard refusals (docs/decisions.md): a full entry without its
 * class, charter, decision or why, a fork decision dressed as a
 * mechanical one-liner (it would drop out of "What I decided for you"), an entry that decides nothing
 * (no decision, or no why: the fork is not settled; report an escalation instead), and an
 * irreversible decision the charter is silent on (not the agent's to make), whether written
 * as a full entry or as a mechanical one (an irreversible step is never one clearly right
 * answer). Returns the refusal, or undefined when the entry may be recorded.
 */
export function protocolRefusal(entry: DecisionInput): Refusal | undefined {
  const title = oneLine(entry.title);
  const missing = entry.mechanical ? [] : FULL_ENTRY_FIELDS.filter((key) => entry[key] === undefined);
  if (missing.length > 0) {
    return {
      message:
        `refused "${title}": a full entry needs ${FULL_ENTRY_FIELDS.join(', ')}; it has no ${missing.join(', ')}. ` +
        'Fill them in, or, for one clearly right answer (ran the formatter, reused the helper), record it with "mechanical": true.',
      stopAndAsk: false,
    };
  }
  if (entry.mechanical && (entry.fork !== undefined || entry.persona)) {
    return {
      message:
        `refused "${title}": a decision at a ${entry.fork ?? 'persona'} fork is never mechanical. ` +
        'Mechanical is one clearly right answer (run the formatter, reuse the helper, add the missing test); a fork is a judgment call: record the full entry with its Persona and Reversal.',
      stopAndAsk: false,
    };
  }
  const unusable = unusableDecision(entry);
  if (unusable !== undefined) {
    return {
      message:
        `refused "${title}": ${unusable}, so nobody made it. ` +
        'Never record a decision nobody made: the fork is not settled. Report an escalation event for the item instead and end your turn; the run stops with escalation.',
      stopAndAsk: false,
    };
  }
  if (entry.class !== 'irreversible' || !isSilentCharter(entry.charter)) return undefined;
  return {
    message:
      `refused "${title}": it is irreversible and the charter is silent on it. ` +
      'Do not make this decision: stop and ask the user instead (decision protocol: only irreversible + charter-ambiguous stops to ask).',
    stopAndAsk: true,
  };
}

/**
 * The question the protocol's mandatory stop escalates with, as both engines word it: the
 * workflow when a fork's answer is irreversible on a silent charter, `leopold record` when
 * it refuses such an entry.
 */
export function stopAndAskQuestion(title: string): string {
  return `"${oneLine(title)}" is irreversible and the charter is silent; stop and ask`;
}

/**
 * The refusal an invocation answers with, or undefined when every entry may be recorded:
 * the first mandatory stop among `entries` (the run stops there, whatever else is wrong),
 * otherwise the first refusal.
 */
export function refusalOf(entries: readonly DecisionInput[]): (Refusal & { entry: DecisionInput }) | undefined {
  const refused = entries.flatMap((entry) => {
    const refusal = protocolRefusal(entry);
    return refusal ? [{ ...refusal, entry }] : [];
  });
  return refused.find((refusal) => refusal.stopAndAsk) ?? refused[0];
}

/** Thrown by appendDecisions when an entry breaks the protocol; nothing was written. */
export class DecisionRefusedError extends Error {
  override readonly name = 'DecisionRefusedError';
}

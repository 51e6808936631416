import { isSilentCharter } from './render.js';
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

/**
 * The decision protocol's hard refusals (SPEC-RUNTIME §3): a fork decision dressed as a
 * mechanical one-liner (it would drop out of "What I decided for you"), an entry that decides nothing
 * (no decision, or no why: the fork is not settled; report an escalation instead), and an
 * irreversible decision the charter is silent on (not the agent's to make). Returns the
 * message that tells the agent what to do instead, or undefined when it may be recorded.
 */
export function protocolRefusal(entry: DecisionInput): string | undefined {
  if (entry.mechanical && (entry.fork !== undefined || entry.persona)) {
    return (
      `refused "${entry.title.replace(/\s+/g, ' ').trim()}": a decision at a ${entry.fork ?? 'persona'} fork is never mechanical. ` +
      'Mechanical is one clearly right answer (run the formatter, reuse the helper, add the missing test); a fork is a judgment call: record the full entry with its Persona and Reversal.'
    );
  }
  const unusable = unusableDecision(entry);
  if (unusable !== undefined) {
    return (
      `refused "${entry.title.replace(/\s+/g, ' ').trim()}": ${unusable}, so nobody made it. ` +
      'Never record a decision nobody made: the fork is not settled. Report an escalation event for the item instead and end your turn; the run stops with escalation.'
    );
  }
  if (!mustStopAndAsk(entry)) return undefined;
  return (
    `refused "${entry.title.replace(/\s+/g, ' ').trim()}": it is irreversible and the charter is silent on it. ` +
    'Do not make this decision: stop and ask the user instead (decision protocol: only irreversible + charter-ambiguous stops to ask).'
  );
}

/**
 * The decision protocol's one mandatory stop: a usable decision that is irreversible while
 * the charter is silent on it, whether written as a full entry or as a mechanical one (an
 * irreversible step is never one clearly right answer). Not the agent's to make, so the
 * fork is an escalation. protocolRefusal refuses exactly these with "stop and ask", and
 * `leopold record` records the escalation for them, so what the message tells the agent and
 * what stops the run cannot differ.
 */
export function mustStopAndAsk(entry: DecisionInput): boolean {
  return unusableDecision(entry) === undefined && entry.class === 'irreversible' && isSilentCharter(entry.charter);
}

/** Thrown by appendDecisions when an entry breaks the protocol; nothing was written. */
export class DecisionRefusedError extends Error {
  override readonly name = 'DecisionRefusedError';
}

/** The first refusal among `entries`, or undefined when every entry may be recorded. */
export function firstRefusal(entries: readonly DecisionInput[]): string | undefined {
  for (const entry of entries) {
    const refusal = protocolRefusal(entry);
    if (refusal) return refusal;
  }
  return undefined;
}

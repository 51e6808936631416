import { isSilentCharter } from './render.js';
import type { DecisionInput } from './schema.js';

/**
 * The decision protocol's one hard refusal (SPEC-RUNTIME §3): an irreversible decision
 * the charter is silent on is not the agent's to make. Returns the message that tells it
 * to stop and ask, or undefined when the entry may be recorded.
 */
export function protocolRefusal(entry: DecisionInput): string | undefined {
  if (entry.class !== 'irreversible' || !isSilentCharter(entry.charter)) return undefined;
  return (
    `refused "${entry.title.replace(/\s+/g, ' ').trim()}": it is irreversible and the charter is silent on it. ` +
    'Do not make this decision: stop and ask the user instead (decision protocol: only irreversible + charter-ambiguous stops to ask).'
  );
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

import { charterRules } from './charter-rules.js';
import { judgePersonaAnswer } from './judge.js';
import type { Persona } from './schema.js';

/** acceptPersona's answer: the normalised persona, or why none could be accepted. */
export type PersonaVerdict = { ok: true; persona: Persona } | { ok: false; reason: string };

/**
 * Judges one model answer (an object, or its JSON text) against the persona rules: name,
 * role and expertise must be present and the role specific. The accepted persona carries
 * the charter's hard rules, lifted from CHARTER.md rather than taken from the model.
 */
export function acceptPersona(answer: unknown, charter: string): PersonaVerdict {
  const judged = judgePersonaAnswer(answer);
  if (!judged.ok) return judged;
  return { ok: true, persona: { ...judged.answer, rules: charterRules(charter) } };
}

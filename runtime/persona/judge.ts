import { expertiseRefusal, roleRefusal } from './generic-role.js';
import type { PersonaAnswer } from './schema.js';

// Kept apart from accept.ts so the workflow bundle can judge a persona answer without the
// markdown parser charterRules needs (the compiled plan already carries the lifted rules).

/** judgePersonaAnswer's answer: the normalised answer, or why none could be accepted. */
export type PersonaJudgement = { ok: true; answer: PersonaAnswer } | { ok: false; reason: string };

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

// Strings from a list, trimmed, blanks dropped, first occurrence kept. A model that
// answers one string instead of a list still means that one entry.
function stringList(value: unknown): string[] {
  const raw = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  const out: string[] = [];
  for (const v of raw) {
    if (typeof v !== 'string') continue;
    const s = oneLine(v);
    if (s !== '' && !out.includes(s)) out.push(s);
  }
  return out;
}

/**
 * The persona rules without the charter: name, role and expertise present, the role a
 * fitted job and the expertise concrete (personaRefusal, docs/decisions.md). acceptPersona adds
 * the charter's rules to an accepted answer.
 */
export function judgePersonaAnswer(answer: unknown): PersonaJudgement {
  let value = answer;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return { ok: false, reason: 'the persona answer is not valid JSON' };
    }
  }
  if (value === null || value === undefined) return { ok: false, reason: 'no persona answer' };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: 'the persona answer is not a JSON object' };
  }
  const record = value as Record<string, unknown>;
  const name = typeof record.name === 'string' ? oneLine(record.name) : '';
  const role = typeof record.role === 'string' ? oneLine(record.role) : '';
  const expertise = stringList(record.expertise);
  if (name === '') return { ok: false, reason: 'the persona answer has no name' };
  if (role === '') return { ok: false, reason: 'the persona answer has no role' };
  // A costume is refused however it is dressed: the role first, then catch-all expertise.
  const costume = roleRefusal(role);
  if (costume !== null) return { ok: false, reason: `${costume}: name the specific job this decision needs (e.g. "Release Engineer")` };
  const unfit = expertiseRefusal(expertise);
  if (unfit !== null) return { ok: false, reason: unfit };
  return {
    ok: true,
    answer: {
      name,
      role,
      expertise,
      optimizesFor: stringList(record.optimizesFor),
      rationale: typeof record.rationale === 'string' ? record.rationale.trim() : '',
    },
  };
}

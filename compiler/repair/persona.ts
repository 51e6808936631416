import { acceptPersona } from '../../runtime/persona/index.js';
import type { DecisionPersona } from '../../runtime/decisions/index.js';

const PERSONA_LINE = /^\s*persona:\s*(.+?)\s+(?:—|–|--?)\s+(.+?)\s*(?:\(([^()]*)\))?\s*$/i;

/**
 * The plan-engineer role a repair answer names on a `Persona: <name> — <role>
 * (<expertise>; …)` line before its last block, if it passes acceptPersona (a generic role
 * such as "engineer" does not). Null when none was named or it was refused: the decision
 * entry then says no role was synthesized.
 */
export function repairPersona(answer: string, charter: string): { persona: DecisionPersona | null; note: string | null } {
  const lines = answer.split(/\r\n|\n|\r/);
  // Look above the last block only: a line inside it is a proposal, not a persona.
  const openAt = findLastOpen(lines);
  const head = openAt === -1 ? lines : lines.slice(0, openAt);
  const match = head.map((line) => PERSONA_LINE.exec(line)).filter((m) => m !== null).pop();
  if (!match) return { persona: null, note: null };
  const expertise = (match[3] ?? '').split(/[;,]/).map((e) => e.trim()).filter(Boolean);
  const verdict = acceptPersona({ name: match[1], role: match[2], expertise, optimizesFor: [], rationale: '' }, charter);
  if (!verdict.ok) return { persona: null, note: `persona not accepted: ${verdict.reason}` };
  const { name, role } = verdict.persona;
  return { persona: { name, role, expertise: verdict.persona.expertise }, note: null };
}

function findLastOpen(lines: readonly string[]): number {
  for (let i = lines.length - 1; i >= 0; i -= 1) if (/^ {0,3}(`{3,}|~{3,})\s*leopold-amend\s*$/.test(lines[i]!)) return i;
  return -1;
}

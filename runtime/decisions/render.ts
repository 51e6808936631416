import { personaRefusal } from '../persona/generic-role.js';
import type { DecisionInput, DecisionPersona } from './schema.js';

/** The first line of a DECISIONS.md that the writer creates. */
export const DECISIONS_HEADING = '# Decisions\n';

/**
 * The Reversal written when an entry gives none. It is honest for every decision Leopold
 * makes (nothing is committed or pushed while a run holds git), but it names no concrete
 * step, so the ranking counts it as a risk.
 */
export const DEFAULT_REVERSAL =
  "Discard this item's uncommitted changes (git restore / git checkout -- <files>); nothing was committed or pushed.";

/** What the Persona line says on a persona fork when no role could be synthesized. */
export const NO_PERSONA = 'none: no role could be synthesized; decided under the default worker prompt';

/** What the Bound by line says when CHARTER.md lifts no hard rule. */
export const NO_RULES = 'none: CHARTER.md states no hard rules';

/** Field labels padded to one column, exactly as docs/decisions.md writes them. */
export const LABEL_WIDTH = 13;
const label = (name: string) => `${name}:`.padEnd(LABEL_WIDTH);
const CONTINUATION = ' '.repeat(LABEL_WIDTH);

/** `text` on one line: every run of whitespace one space, none at either end. */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `2025-05-01T09:30:00Z`: ISO-8601 UTC to the second. */
export function isoStamp(at: Date): string {
  return `${at.toISOString().slice(0, 19)}Z`;
}

/** True when a Charter value means the charter says nothing: blank, or starting "silent". */
export function isSilentCharter(charter: string | undefined): boolean {
  const c = (charter ?? '').trim();
  return c === '' || /^silent(?![\p{L}\p{N}_])/iu.test(c);
}

/** True for an entry made at a persona fork, or naming a persona: it carries Persona and Bound by lines. */
export function isPersonaEntry(entry: DecisionInput): boolean {
  return !entry.mechanical && (entry.fork !== undefined || Boolean(entry.persona));
}

/**
 * `<name> — <role> (<expertise; …>)`, or NO_PERSONA when none was synthesized. A persona
 * that acceptPersona would refuse (a costume role, no or catch-all expertise) counts as none: the entry
 * must not credit a role the rules say could not decide (docs/decisions.md).
 */
export function personaLine(persona: DecisionPersona | null | undefined): string {
  const expertise = (persona?.expertise ?? []).map(oneLine).filter(Boolean);
  if (!persona || oneLine(persona.name) === '' || oneLine(persona.role) === '' || personaRefusal({ role: persona.role, expertise }) !== null) return NO_PERSONA;
  const head = `${oneLine(persona.name)} — ${oneLine(persona.role)}`;
  return `${head} (${expertise.join('; ')})`;
}

// A multi-line value keeps its lines, each continuation indented to the value column, so
// no line of a value can ever look like an entry heading; blank lines are dropped because
// a blank line ends an entry.
function field(name: string, value: string): string {
  const lines = value
    .split(/\r\n|\r|\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  const [first = '', ...rest] = lines.length === 0 ? [''] : lines;
  return [`${label(name)}${first.trimStart()}`.trimEnd(), ...rest.map((l) => `${CONTINUATION}${l.trimStart()}`)].join('\n');
}

function stampText(turn: number | undefined, at: Date): string {
  return turn === undefined ? `(${isoStamp(at)})` : `(turn ${turn}, ${isoStamp(at)})`;
}

function forkText(entry: DecisionInput): string {
  const subject = entry.subject === undefined || oneLine(entry.subject) === '' ? '' : `: "${oneLine(entry.subject)}"`;
  const item = entry.item === undefined ? '' : typeof entry.item === 'number' ? `item ${entry.item}${subject}` : oneLine(entry.item);
  const fork = entry.fork ?? 'none';
  return item === '' ? fork : `${fork} — ${item}`;
}

/**
 * One DECISIONS.md entry (docs/decisions.md), without a trailing newline: the block form, or
 * the one-line `- D<N> mechanical: …` form. `at` is the writer's clock, never the caller's.
 * A persona-fork entry says who decided (Persona) and which charter rules bound them
 * (`rules`, lifted from CHARTER.md by the writer, never taken from the caller).
 */
export function renderDecision(entry: DecisionInput, n: number, at: Date, rules: readonly string[] = []): string {
  const stamp = stampText(entry.turn, at);
  if (entry.mechanical) {
    const detail = entry.decision && oneLine(entry.decision) !== '' ? ` — ${oneLine(entry.decision)}` : '';
    return `- D${n} mechanical: ${oneLine(entry.title)}${detail}   ${stamp}`;
  }
  const lines = [`## D${n} — ${oneLine(entry.title)}   ${stamp}`];
  // Every persona fork says who decided, or that nobody could be synthesized.
  if (isPersonaEntry(entry)) {
    lines.push(field('Persona', personaLine(entry.persona)));
    lines.push(field('Bound by', rules.length === 0 ? NO_RULES : rules.map(oneLine).join('\n')));
  }
  lines.push(field('Fork', forkText(entry)));
  lines.push(field('Class', entry.class ?? 'reversible'));
  lines.push(field('Charter', (entry.charter ?? '').trim() === '' ? 'silent' : (entry.charter ?? '')));
  lines.push(field('Decision', entry.decision ?? ''));
  lines.push(field('Why', entry.why ?? ''));
  lines.push(field('Reversal', entry.reversal && entry.reversal.trim() !== '' ? entry.reversal : DEFAULT_REVERSAL));
  return lines.join('\n');
}

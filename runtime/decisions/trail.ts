import { LABEL_WIDTH, NO_PERSONA } from './render.js';
import { DECISION_FORKS } from './record-input.js';
import type { DecisionFork, DecisionPersona, DecisionRecord } from './schema.js';

// Any line that claims a number: an entry heading or a mechanical one-liner. Lenient on
// purpose (any heading level, `*` bullets): counting one line too many only skips a
// number, while missing one would reuse it.
const NUMBERED = /^(?:#{1,6}[ \t]+D(\d+)\b|[-*+][ \t]+D(\d+)[ \t]+mechanical\b)/gm;

/** The highest D number already in a DECISIONS.md text, 0 when there is none. */
export function highestDecisionNumber(text: string): number {
  let max = 0;
  for (const m of text.matchAll(NUMBERED)) {
    const n = Number(m[1] ?? m[2]);
    if (Number.isSafeInteger(n) && n > max) max = n;
  }
  return max;
}

const HEADING = /^## D(\d+) — (.*?)   \((?:turn (\d+), )?([^()\s]+)\)$/;
const MECHANICAL = /^- D(\d+) mechanical: (.*?)(?:   \((?:turn (\d+), )?([^()\s]+)\))?$/;
// `s`: a value may hold U+2028 and friends, which `.` would not cross.
const FIELD = /^(Persona|Fork|Class|Charter|Decision|Why|Reversal):[ \t]*(.*)$/s;
const CONTINUATION = ' '.repeat(LABEL_WIDTH);

// `name — role (a; b)`: the expertise is the last balanced parenthesis group.
function parsePersona(value: string): DecisionPersona | null {
  if (value === NO_PERSONA || value.startsWith('none:')) return null;
  const dash = value.indexOf(' — ');
  if (dash < 0) return { name: value, role: '', expertise: [] };
  const name = value.slice(0, dash);
  let rest = value.slice(dash + 3);
  let expertise: string[] = [];
  if (rest.endsWith(')')) {
    let depth = 0;
    for (let i = rest.length - 1; i >= 0; i--) {
      if (rest[i] === ')') depth++;
      else if (rest[i] === '(' && --depth === 0) {
        if (i > 0 && rest[i - 1] === ' ') {
          expertise = rest.slice(i + 1, -1).split('; ').filter(Boolean);
          rest = rest.slice(0, i - 1);
        }
        break;
      }
    }
  }
  return { name, role: rest, expertise };
}

function blankRecord(n: number, title: string, turn: string | undefined, at: string | undefined, mechanical: boolean): DecisionRecord {
  return {
    n,
    title,
    mechanical,
    turn: turn === undefined ? null : Number(turn),
    at: at ?? null,
    fork: null,
    item: null,
    class: null,
    charter: '',
    decision: '',
    why: '',
    reversal: '',
  };
}

function setField(record: DecisionRecord, name: string, value: string): void {
  switch (name) {
    case 'Persona':
      record.persona = parsePersona(value);
      break;
    case 'Fork': {
      const dash = value.indexOf(' — ');
      const fork = dash < 0 ? value : value.slice(0, dash);
      record.fork = (DECISION_FORKS as readonly string[]).includes(fork) ? (fork as DecisionFork) : null;
      record.item = dash < 0 ? null : value.slice(dash + 3);
      break;
    }
    case 'Class':
      record.class = value === 'irreversible' ? 'irreversible' : value === 'reversible' ? 'reversible' : null;
      break;
    case 'Charter':
      record.charter = value;
      break;
    case 'Decision':
      record.decision = value;
      break;
    case 'Why':
      record.why = value;
      break;
    case 'Reversal':
      record.reversal = value;
      break;
  }
}

/**
 * The trail reader: every entry of a DECISIONS.md text, block and mechanical, in file
 * order. Multi-line values come back joined with newlines. Lines that belong to no entry
 * (the heading, notes a person added) are skipped.
 */
export function readDecisions(text: string): DecisionRecord[] {
  const records: DecisionRecord[] = [];
  let current: DecisionRecord | undefined;
  let lastField: { name: string; value: string } | undefined;
  const flush = () => {
    if (current && lastField) setField(current, lastField.name, lastField.value);
    lastField = undefined;
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    const heading = HEADING.exec(line);
    const mechanical = heading ? null : MECHANICAL.exec(line);
    if (heading || mechanical) {
      flush();
      const m = (heading ?? mechanical) as RegExpExecArray;
      current = blankRecord(Number(m[1]), m[2] ?? '', m[3], m[4], mechanical !== null);
      records.push(current);
      if (mechanical) {
        // `title — decision`: the first dash splits what from how.
        const dash = current.title.indexOf(' — ');
        if (dash >= 0) {
          current.decision = current.title.slice(dash + 3);
          current.title = current.title.slice(0, dash);
        }
        current = undefined;
      }
      continue;
    }
    if (!current) continue;
    if (line.trim() === '' || line.startsWith('#')) {
      flush();
      current = undefined;
      continue;
    }
    const f = FIELD.exec(line);
    if (f) {
      flush();
      lastField = { name: f[1] as string, value: f[2] ?? '' };
    } else if (lastField && line.startsWith(CONTINUATION)) {
      lastField.value += `\n${line.slice(LABEL_WIDTH)}`;
    }
  }
  flush();
  return records;
}

import type { Span } from '../plan/schema.js';
import { editDistance, slipEdits } from '../spelling/edit-distance.js';
import { DEFAULT_GUARDRAILS, defaultSubagentsPerRun } from './defaults.js';
import { KEYS, type GuardrailKey } from './keys.js';
import type { Guardrails } from './schema.js';

// GUARDRAILS.md as people write it (docs/guardrails.md): `key: value` lines, with or without
// a list marker, bold or backticks, a trailing `# comment`, in prose, lists or a fenced
// block; HTML comments hide what they hold. Line by line, with no Markdown parser and no
// zod: the Stop hook reads this on every turn.

/** The documented GUARDRAILS keys, in file spelling. */
export const GUARDRAIL_KEYS: readonly string[] = KEYS.map((key) => key.name);

const BY_NAME = new Map(KEYS.map((key) => [key.name, key]));

/** What GUARDRAILS.md says that is not read as written: where, what, and the likely intended spelling. */
export interface GuardrailProblem {
  /**
   * `bad-value`: a key with a value it does not accept (the default stays); `unknown-key`:
   * a setting line whose key is not one (the line is ignored); `unclosed-comment`: an HTML
   * comment never closed, which hides the rest of the file.
   */
  kind: 'bad-value' | 'unknown-key' | 'unclosed-comment';
  /** The key as written ('' for an unclosed comment). */
  key: string;
  /** The value (bad-value), the key (unknown-key) or the `<!--`: 1-based, columns in UTF-16 units after a BOM. */
  span: Span;
  /** What was found and what was expected. */
  message: string;
  /** The key or value most likely meant, for a did-you-mean. */
  suggestion?: string;
}

/**
 * Reads GUARDRAILS.md text into its settings. A key it knows takes the last value it
 * accepts; a value it does not accept, a setting line with an unknown key and an HTML
 * comment left open are problems, never silent (the compiler turns them into diagnostics,
 * compiler/brief/guardrails.ts). Pure, never throws.
 */
export function parseGuardrailSettings(text: string): { guardrails: Guardrails; problems: GuardrailProblem[] } {
  // Columns count from after the BOM, as editors (and the plan parser) do.
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const { lines, unclosed } = withoutHtmlComments(source.split(/\r\n|\r|\n/));
  const settings: Partial<Record<keyof Guardrails, unknown>> = {};
  const problems: GuardrailProblem[] = [];
  lines.forEach((line, i) => {
    const found = settingLine(line);
    if (!found) return;
    const key = BY_NAME.get(keyName(found.key));
    if (key) {
      const value = key.read(found.value);
      // Last accepted value wins, as in env files; a bad one never undoes a good one.
      if (value !== undefined) settings[key.field] = value;
      else problems.push(badValue(key, found, i + 1));
    } else if (looksLikeSetting(found)) {
      problems.push(unknownKey(found, i + 1));
    }
  });
  if (unclosed) {
    const { line, column } = unclosed;
    problems.push({
      kind: 'unclosed-comment',
      key: '',
      span: { line, column, endLine: line, endColumn: column + 4 },
      message: 'this HTML comment is never closed with -->, so everything after it is ignored',
    });
  }
  const guardrails = { ...DEFAULT_GUARDRAILS, ...settings } as Guardrails;
  // Unset, the run's subagent cap follows max_iterations (defaults.ts).
  if (settings.maxSubagentsPerRun === undefined) guardrails.maxSubagentsPerRun = defaultSubagentsPerRun(guardrails.maxIterations, guardrails.maxSubagents);
  return { guardrails, problems };
}

/** A `key: value` line, split: the key and value as written and where each starts (1-based). */
interface Found {
  key: string;
  keyColumn: number;
  value: string;
  valueColumn: number;
}

function badValue(key: GuardrailKey, found: Found, line: number): GuardrailProblem {
  const shown = found.value === '' ? 'empty' : `"${clip(found.value)}"`;
  const suggestion = key.words ? closestValue(found.value, key.words) : undefined;
  return {
    kind: 'bad-value',
    key: found.key,
    span: { line, column: found.valueColumn, endLine: line, endColumn: found.valueColumn + Math.max(1, found.value.length) },
    message: `${found.key} is ${shown}; expected ${key.expected}`,
    ...(suggestion ? { suggestion } : {}),
  };
}

function unknownKey(found: Found, line: number): GuardrailProblem {
  const suggestion = closestKey(keyName(found.key)) ?? keySharingAWord(keyName(found.key));
  return {
    kind: 'unknown-key',
    key: found.key,
    span: { line, column: found.keyColumn, endLine: line, endColumn: found.keyColumn + found.key.length },
    message: `"${clip(found.key)}" is not a GUARDRAILS key`,
    ...(suggestion ? { suggestion } : {}),
  };
}

function clip(value: string): string {
  const chars = [...value];
  return chars.length > 40 ? `${chars.slice(0, 39).join('')}…` : value;
}

/** A key as looked up: lower case, `-` and spaces read as `_` (`Max-Iterations`, `max iterations`). */
function keyName(key: string): string {
  return key.toLowerCase().replace(/[\s-]+/g, '_');
}

// A value only settings have: a number (with a unit), a switch word, `none` or a URL.
const SETTING_VALUE = /^(?:[-+]?\d[\d.,_]*\s*[a-z%]{0,10}|on|off|true|false|yes|no|none|https?:\/\/\S+)$/i;

/**
 * An unknown key is reported only where the line reads as a setting, so prose such as
 * "Note: agents never edit this file" stays prose: the key is one slip from a real one, or
 * written like a setting's name (snake_case), or its value is one only settings have.
 */
function looksLikeSetting(found: Found): boolean {
  return closestKey(keyName(found.key)) !== undefined || found.key.includes('_') || SETTING_VALUE.test(found.value);
}

/** The real key `name` is a slip for (`max_iteration`, `autonmy`, `maxIterations`). */
function closestKey(name: string): string | undefined {
  if (name.length < 3) return undefined;
  let best: { key: string; distance: number } | undefined;
  for (const { name: key } of KEYS) {
    // Lengths further apart than a slip cannot be one: skip the matrix (a pasted line stays cheap).
    if (Math.abs(name.length - key.length) > slipEdits(name, key)) continue;
    const distance = editDistance(name, key);
    if (distance <= slipEdits(name, key) && (!best || distance < best.distance)) best = { key, distance };
  }
  return best?.key;
}

/**
 * The first real key sharing a word with `name` (`iterations`, `context_budget`, `webhook`):
 * words of four letters or more, `max` aside, alike in their first four letters.
 */
function keySharingAWord(name: string): string | undefined {
  const words = (key: string) => key.split('_').filter((word) => word.length >= 4 && word !== 'max');
  const written = words(name).map((word) => word.slice(0, 4));
  return KEYS.find((key) => words(key.name).some((word) => written.includes(word.slice(0, 4))))?.name;
}

/** The accepted word a misspelt value most likely meant (`akss` → `ask`, `yse` → `yes`). */
function closestValue(value: string, words: readonly string[]): string | undefined {
  const written = value.toLowerCase();
  if (written.length < 3) return undefined;
  let best: { word: string; distance: number } | undefined;
  for (const word of words) {
    if (Math.abs(written.length - word.length) > 2) continue;
    const distance = editDistance(written, word);
    // At most two edits, and fewer than the word has letters: `nope` is not a slip for `no`.
    if (distance <= 2 && distance < word.length && (!best || distance < best.distance)) best = { word, distance };
  }
  return best?.word;
}

const LIST_MARKER = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/;
// An optional emphasis or code wrapper around the key, repeated (or not) around the value:
// `**autonomy:** ask`, `**autonomy**: ask`, `` `max_windows`: `4` ``. A key is up to four
// words of letters, digits, `_` and `-`, starting with a letter.
const KEY_VALUE = /^(\*\*|__|\*|`)?([A-Za-z][\w-]*?(?: [\w-]+?){0,3})(?:\1)?[ \t]*:(?:\1)?(.*)$/;
const VALUE_WRAPPERS = /^(\*\*|__|\*|`|"|')(.*)\1$/;

/** Splits a `key: value` line; undefined for any other line (headings, tables, prose without a colon). */
function settingLine(line: string): Found | undefined {
  const marker = LIST_MARKER.exec(line);
  let start = marker ? marker[0].length : line.length - line.trimStart().length;
  let body = line.slice(start).trimEnd();
  // A whole `key: value` in one code span.
  const whole = /^`([^`]+)`$/.exec(body);
  if (whole?.[1] !== undefined) {
    body = whole[1];
    start += 1;
  }
  const m = KEY_VALUE.exec(body);
  if (!m || m[2] === undefined || m[3] === undefined) return undefined;
  const keyColumn = start + (m[1]?.length ?? 0) + 1;
  const raw = m[3];
  const valueStart = start + body.length - raw.length;
  const end = commentStart(raw);
  const kept = raw.slice(0, end);
  let value = kept.trim();
  let offset = valueStart + (kept.length - kept.trimStart().length);
  // A few layers at most (`**"ask"**`): a line of ten thousand quotes stays linear.
  for (let layer = 0, w = VALUE_WRAPPERS.exec(value); layer < 3 && w?.[1] !== undefined && w[2] !== undefined; layer++, w = VALUE_WRAPPERS.exec(value)) {
    value = w[2];
    offset += w[1].length;
  }
  // A trailing wrapper left over from `**key:** value` style or a half-wrapped value.
  value = value.replace(/(\*\*|__|\*|`)$/, '').trim();
  return { key: m[2], keyColumn, value, valueColumn: offset + 1 };
}

/**
 * Where a trailing comment starts in a value (its length when there is none): a `#` at the
 * start or after a space or tab, as in YAML, so `https://x/#part` keeps its `#`; a value
 * that opens with a quote or backtick is read to its closing one first, so `"a # b"` is a value.
 */
function commentStart(raw: string): number {
  const lead = raw.length - raw.trimStart().length;
  const quote = raw[lead];
  let from = lead;
  if (quote === '"' || quote === "'" || quote === '`') {
    const close = raw.indexOf(quote, lead + 1);
    if (close > 0) from = close + 1;
  }
  if (raw[from] === '#' && from === lead) return from;
  const m = /[ \t]#/.exec(raw.slice(from));
  return m ? from + m.index : raw.length;
}

/**
 * The lines with every HTML comment (`<!-- … -->`, across lines too) blanked to spaces, so
 * columns stay put and a setting inside one is never read; a `<!--` inside a code span is
 * text. `unclosed` is where a comment that never closes opens (it hides the rest, as a
 * Markdown viewer shows it).
 */
function withoutHtmlComments(lines: readonly string[]): { lines: string[]; unclosed: { line: number; column: number } | null } {
  let open: { line: number; column: number } | null = null;
  const out: string[] = [];
  for (const [i, line] of lines.entries()) {
    const inCodeSpan = codeSpanTest(line);
    let text = '';
    let pos = 0;
    while (pos < line.length) {
      if (open) {
        const close = line.indexOf('-->', pos);
        const end = close < 0 ? line.length : close + 3;
        text += ' '.repeat(end - pos);
        pos = end;
        if (close >= 0) open = null;
        continue;
      }
      let at = line.indexOf('<!--', pos);
      while (at >= 0 && inCodeSpan(at)) at = line.indexOf('<!--', at + 4);
      if (at < 0) {
        text += line.slice(pos);
        break;
      }
      text += line.slice(pos, at);
      // `<!-->` and `<!--->` are whole (empty) comments in CommonMark.
      const whole = /^<!---?>/.exec(line.slice(at, at + 6))?.[0].length ?? 0;
      if (whole === 0) open = { line: i + 1, column: at + 1 };
      const blank = whole || 4;
      text += ' '.repeat(blank);
      pos = at + blank;
    }
    out.push(text);
  }
  return { lines: out, unclosed: open };
}

/**
 * Whether a position of `line` sits in a code span (an odd number of backticks before it),
 * asked for positions that only grow, so a line is counted once, however many `<!--` it holds.
 */
function codeSpanTest(line: string): (index: number) => boolean {
  let counted = 0;
  let ticks = 0;
  return (index) => {
    for (; counted < index; counted++) if (line[counted] === '`') ticks++;
    return ticks % 2 === 1;
  };
}

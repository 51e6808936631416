import type { Root, RootContent } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { z } from 'zod';
import type { Span } from '../plan/schema.js';
import { DEFAULT_GUARDRAILS, GuardrailsSchema, type Guardrails } from './schema.js';

const word = (s: string) => s.trim().toLowerCase();
const wholeNumber = (min: number) =>
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number)
    .pipe(z.number().int().min(min));
const onOff = z
  .string()
  .transform(word)
  .pipe(z.enum(['on', 'off', 'true', 'false', 'yes', 'no']))
  .transform((v) => (v === 'on' || v === 'true' || v === 'yes' ? 'on' : 'off'));

/** One GUARDRAILS key: its name in the file, its field, how a raw value parses, and what was expected. */
interface Field {
  readonly field: keyof Guardrails;
  readonly value: z.ZodType<unknown, string>;
  readonly expected: string;
}

const FIELDS: Record<string, Field> = {
  autonomy: {
    field: 'autonomy',
    value: z
      .string()
      .transform(word)
      .pipe(z.enum(['full', 'ask', 'halt', 'human']))
      .transform((v) => (v === 'full' ? 'full' : 'ask')),
    expected: 'full or ask (halt and human also mean ask)',
  },
  max_review_rounds: { field: 'maxReviewRounds', value: wholeNumber(0), expected: 'a whole number ≥ 0' },
  max_iterations: { field: 'maxIterations', value: wholeNumber(1), expected: 'a whole number ≥ 1' },
  max_failures: { field: 'maxFailures', value: wholeNumber(1), expected: 'a whole number ≥ 1' },
  max_no_progress: { field: 'maxNoProgress', value: wholeNumber(1), expected: 'a whole number ≥ 1' },
  max_context_mb: {
    field: 'maxContextMb',
    // "5", "2.5", "5 MB": people write the unit the key already names.
    value: z
      .string()
      .regex(/^\d{1,9}(?:\.\d{1,6})?\s*(?:mb|mib)?$/i)
      .transform((v) => Number.parseFloat(v))
      .pipe(z.number().positive()),
    expected: 'a number of megabytes > 0',
  },
  max_windows: { field: 'maxWindows', value: wholeNumber(1), expected: 'a whole number ≥ 1' },
  parallel_items: { field: 'parallelItems', value: onOff, expected: 'on or off (true/false, yes/no)' },
  notify_webhook: {
    field: 'notifyWebhook',
    value: z
      .string()
      .transform((v) => (word(v) === 'none' ? 'none' : v))
      .pipe(z.union([z.literal('none'), z.url({ protocol: /^https?$/ })])),
    expected: 'none or an http(s) URL',
  },
};

/** The documented GUARDRAILS keys, in file spelling. */
export const GUARDRAIL_KEYS = Object.keys(FIELDS);

const LIST_MARKER = /^\s*(?:[-*+]|\d{1,9}[.)])\s+/;
// An optional emphasis or code wrapper around the key, repeated (or not) around the value:
// `**autonomy:** ask`, `**autonomy**: ask`, `` `max_windows`: `4` ``.
const KEY_VALUE = /^(\*\*|__|\*|`)?([A-Za-z][A-Za-z0-9_-]*?)(?:\1)?[ \t]*:(?:\1)?(.*)$/;
const VALUE_WRAPPERS = /^(\*\*|__|\*|`|"|')(.*)\1$/;

/** A value GUARDRAILS.md gives that its key does not accept: where, and what was expected. */
export interface GuardrailProblem {
  /** The key as written in the file. */
  key: string;
  /** The value's position (1-based; columns in UTF-16 units, after a BOM). */
  span: Span;
  /** What was found and expected, and what was kept instead. */
  message: string;
}

/**
 * Reads GUARDRAILS.md text: `key: value` lines (a list dash and simple bold/backtick wrapping
 * allowed) outside code and HTML. Unknown keys are ignored; a bad value is a problem pointing
 * at it, and the default is kept. Pure, never throws. Problems are plain data so the Stop
 * hook needs nothing from the compiler; `leopold compile` reports them as `bad-guardrail`
 * diagnostics (compiler/brief/guardrails.ts).
 */
export function parseGuardrailSettings(text: string): { guardrails: Guardrails; problems: GuardrailProblem[] } {
  // Columns count from after the BOM, as editors (and the plan parser) do.
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = maskedLines(source);
  const settings: Record<string, unknown> = {};
  const problems: GuardrailProblem[] = [];
  lines.forEach((line, i) => {
    const found = keyValue(line);
    if (!found) return;
    const spec = FIELDS[found.key.toLowerCase().replace(/-/g, '_')];
    if (!spec) return;
    const parsed = spec.value.safeParse(found.value);
    if (parsed.success) {
      // Last recognised value wins, as in env files; a bad one never undoes a good one.
      settings[spec.field] = parsed.data;
      return;
    }
    const span = { line: i + 1, column: found.column, endLine: i + 1, endColumn: found.column + Math.max(1, found.value.length) };
    const shown = found.value === '' ? 'empty' : `"${clip(found.value)}"`;
    const kept = spec.field === 'autonomy' ? 'left unset' : `default ${String(DEFAULT_GUARDRAILS[spec.field])} kept`;
    problems.push({ key: found.key, span, message: `${found.key} is ${shown}; expected ${spec.expected} (${kept})` });
  });
  return { guardrails: GuardrailsSchema.parse(settings), problems };
}

function clip(value: string): string {
  const chars = [...value];
  return chars.length > 40 ? `${chars.slice(0, 39).join('')}…` : value;
}

/** Splits a line into key and value; `column` is the value's 1-based start (UTF-16 units). */
function keyValue(line: string): { key: string; value: string; column: number } | undefined {
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
  let value = m[3];
  let offset = start + body.length - value.length;
  const lead = value.length - value.trimStart().length;
  value = value.trim();
  offset += lead;
  for (let w = VALUE_WRAPPERS.exec(value); w?.[1] !== undefined && w[2] !== undefined; w = VALUE_WRAPPERS.exec(value)) {
    value = w[2];
    offset += w[1].length;
  }
  // A trailing wrapper left over from `**key:** value` style or a half-wrapped value.
  value = value.replace(/(\*\*|__|\*|`)$/, '').trim();
  return { key: m[2], value, column: offset + 1 };
}

/**
 * The source lines with code (fenced or indented) and HTML (comments included) blanked out,
 * so `key: value` lines there are never read. Remark decides what is code or HTML, exactly as
 * a Markdown viewer would.
 */
function maskedLines(source: string): string[] {
  const lines = source.split(/\r\n|\r|\n/);
  const tree = unified().use(remarkParse).parse(source) as Root;
  const walk = (nodes: readonly RootContent[]) => {
    for (const node of nodes) {
      if ((node.type === 'code' || node.type === 'html') && node.position) {
        const { start, end } = node.position;
        for (let n = start.line; n <= end.line; n++) {
          const line = lines[n - 1];
          if (line === undefined) continue;
          const from = n === start.line ? start.column - 1 : 0;
          const to = n === end.line ? end.column - 1 : line.length;
          lines[n - 1] = line.slice(0, from) + ' '.repeat(Math.max(0, to - from)) + line.slice(to);
        }
      } else if ('children' in node) {
        walk(node.children as RootContent[]);
      }
    }
  };
  walk(tree.children);
  return lines;
}

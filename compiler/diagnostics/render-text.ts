import type { Diagnostic } from './diagnostic.js';

/** Source texts by file path, so the text renderer can draw code frames. */
export type SourceLookup = ReadonlyMap<string, string> | ((file: string) => string | undefined);

/** At most this many source lines in one frame; longer spans show the first lines and `…`. */
const MAX_FRAME_LINES = 3;

/**
 * Renders diagnostics for people: `file:line:column: severity: message [code]`, a code frame
 * under it when the source is known, then `  hint: …`. Ends with a newline unless empty.
 */
export function renderText(list: readonly Diagnostic[], sources?: SourceLookup): string {
  return list.map((d) => `${renderOne(d, sourceOf(sources, d.file))}\n`).join('');
}

/** One diagnostic as text, without the trailing newline. */
export function renderTextOne(d: Diagnostic, source?: string): string {
  return renderOne(d, source);
}

/**
 * The first line of a diagnostic, the one tools read: `file:line:column: severity: message
 * [code]`, the shape of gcc and clang, which VS Code's `$gcc` problem matcher and GitHub
 * problem matchers in the documented format read as they are (docs/decisions/diagnostic-shape.md).
 */
export function diagnosticHead(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${oneLine(d.message)} [${d.code}]`;
}

function renderOne(d: Diagnostic, source: string | undefined): string {
  const head = diagnosticHead(d);
  const frame = source === undefined ? [] : codeFrame(source, d);
  const hint = d.hint ? [`  hint: ${oneLine(d.hint)}`] : [];
  return [head, ...frame, ...hint].join('\n');
}

function sourceOf(sources: SourceLookup | undefined, file: string): string | undefined {
  if (!sources) return undefined;
  return typeof sources === 'function' ? sources(file) : sources.get(file);
}

/** Messages are one line by contract; a stray newline must not break `file:line:` parsing. */
function oneLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ');
}

/**
 * The lines of the span with a gutter and a `^^^` underline from column to endColumn.
 * Columns count UTF-16 units (unist); the underline counts terminal cells per grapheme so it
 * lines up under accents, CJK and emoji, and copies tabs so it lines up under tabbed text.
 */
export function codeFrame(source: string, span: Pick<Diagnostic, 'line' | 'column' | 'endLine' | 'endColumn'>): string[] {
  // Positions count from after the BOM (editors never show it as a column).
  const text = source.startsWith('\uFEFF') ? source.slice(1) : source;
  const lines = text.split(/\r\n|\r|\n/);
  if (span.line > lines.length) return [];
  const last = Math.min(Math.max(span.endLine, span.line), lines.length, span.line + MAX_FRAME_LINES - 1);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = span.line; n <= last; n++) {
    const raw = lines[n - 1] ?? '';
    const shown = printable(raw);
    const from = n === span.line ? span.column : 1;
    const to = n === span.endLine ? span.endColumn : raw.length + 1;
    out.push(`  ${String(n).padStart(width)} | ${shown}`.trimEnd());
    const marks = underline(shown, from, to);
    if (marks) out.push(`  ${' '.repeat(width)} | ${marks}`);
  }
  if (span.endLine > last) out.push(`  ${' '.repeat(width)} | …`);
  return out;
}

/** Control characters would move the terminal cursor; show them as U+FFFD (one column each). */
function printable(line: string): string {
  return line.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, '\uFFFD');
}

// Made when a code frame is first drawn: building a segmenter loads ICU's break rules, about
// 8 ms of a cold process, which a compile that reports nothing should not pay.
let segmenter: Intl.Segmenter | undefined;
const graphemes = (text: string): string[] => [...(segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(text)].map((g) => g.segment);

/**
 * Terminal columns of one grapheme: 2 for East Asian wide/fullwidth characters and emoji, 1
 * otherwise (combining marks belong to their base character). Approximate, like every
 * terminal's own table, but right for the scripts and emoji plans actually contain.
 */
function cellWidth(grapheme: string): number {
  const code = grapheme.codePointAt(0) ?? 0;
  if (/\p{Extended_Pictographic}/u.test(grapheme) && (grapheme.includes('\uFE0F') || code >= 0x1f000)) return 2;
  const wide =
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x20000 && code <= 0x3fffd);
  return wide ? 2 : 1;
}

function underline(line: string, from: number, to: number): string {
  const start = Math.max(0, from - 1);
  const before = graphemes(line.slice(0, start));
  const inside = graphemes(line.slice(start, Math.max(start, to - 1)));
  // Tabs are copied so the caret lands where the terminal put the text after them.
  const pad = before.map((g) => (g === '\t' ? '\t' : ' '.repeat(cellWidth(g)))).join('');
  const count = Math.max(1, inside.reduce((n, g) => n + (g === '\t' ? 1 : cellWidth(g)), 0));
  // A zero-width span at the end of a line still gets one caret so the reader sees where.
  if (start > line.length) return `${pad}^`;
  return `${pad}${'^'.repeat(count)}`;
}

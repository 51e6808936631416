import type { Diagnostic } from './diagnostic.js';

/** Source texts by file path, so the text renderer can draw code frames. */
export type SourceLookup = ReadonlyMap<string, string> | ((file: string) => string | undefined);

/** At most this many source lines in one frame; longer spans show the first lines and `…`. */
const MAX_FRAME_LINES = 3;

/**
 * Renders diagnostics for people: `file:line:column: severity code: message`, a code frame
 * under it when the source is known, then `  hint: …`. Ends with a newline unless empty.
 */
export function renderText(list: readonly Diagnostic[], sources?: SourceLookup): string {
  return list.map((d) => `${renderOne(d, sourceOf(sources, d.file))}\n`).join('');
}

/** One diagnostic as text, without the trailing newline. */
export function renderTextOne(d: Diagnostic, source?: string): string {
  return renderOne(d, source);
}

function renderOne(d: Diagnostic, source: string | undefined): string {
  const head = `${d.file}:${d.line}:${d.column}: ${d.severity} ${d.code}: ${oneLine(d.message)}`;
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
 * Columns count UTF-16 units (unist); the underline counts code points so it lines up under
 * non-BMP characters, and copies tabs from the source so it lines up under tabbed text.
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

function underline(line: string, from: number, to: number): string {
  const before = [...line.slice(0, Math.max(0, from - 1))];
  const inside = [...line.slice(Math.max(0, from - 1), Math.max(0, to - 1))];
  const pad = before.map((ch) => (ch === '\t' ? '\t' : ' ')).join('');
  const count = Math.max(1, inside.length);
  // A zero-width span at the end of a line still gets one caret so the reader sees where.
  if (from - 1 > line.length) return `${pad}^`;
  return `${pad}${'^'.repeat(count)}`;
}

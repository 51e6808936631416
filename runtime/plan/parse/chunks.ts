import type { SourceText } from './source.js';

/**
 * Where the Markdown may be cut into pieces that remark parses one at a time.
 *
 * Why cut at all: micromark (4.0.3) re-copied the document's growing event list each time
 * a container (list, list item, blockquote) closed, so one parse of a large plan was
 * super-linear. Pieces of bounded size made the whole parse linear where there are cut
 * points; the vendored EditMap (docs/decisions/vendored-edit-map.md) now copies only the
 * edited tail, which also covers plans with none, and the pieces stay (still cheaper than
 * one whole parse in bench/parse.bench.ts).
 *
 * Why the cut is exact. A cut before line L is harmless when, in a parse of the whole
 * document, L begins a new top-level block and nothing before L reaches into it; then a
 * fresh parse from L builds the same blocks, and the parse before L never needed L's
 * successors. A line at column 0 that is an ATX heading (`#`..`######` then a blank or the
 * line end) or a bullet task item (`-`, `*` or `+`, a space, `[ ]`/`[x]`/`[X]`) has that
 * property unless it sits inside a top-level fenced code block or HTML block:
 * - Containers close: a blockquote needs `>`, a list item needs indentation up to its
 *   content, a footnote definition four spaces; column 0 continues none of them.
 * - No lazy continuation: only paragraph text continues lazily, and both lines start a
 *   block that interrupts a paragraph (a bullet item with content may; an ordered item
 *   other than `1.` may not, which is why ordered markers are never cut points).
 * - Lookahead ends before L: a setext underline is `=`/`-` only, a table delimiter row has
 *   no `#` or `[`, link titles live inside one paragraph, and indented code's look past
 *   blank lines stops at the first non-blank line, which is L itself.
 * - A table body, a paragraph, indented code: all end at such a line.
 * - Inline meaning that is document-wide (link reference and footnote definitions) never
 *   changes what we read: the task checkbox wins over a `[x]` reference, and positions
 *   of blocks do not depend on inline content.
 * - Grouping consecutive items into one `list` node is done after tokenizing and only
 *   changes which `list` an item belongs to, which the walker does not use.
 * The scanner below is the conservative part: it tracks fences and HTML blocks opened at
 * indent <= 3 as if they were top-level and offers no cut inside them. It cannot see
 * containers, so it may be wrong (an indented fence inside a list item ends with the
 * item), and the parse checks every cut it accepts: see `readMarkdown`.
 */

/** How big a piece must grow before it is cut at the next cut point. */
export interface ChunkLimits {
  /** Cut once a piece has at least this many lines... */
  lines: number;
  /** ...or at least this many characters. */
  chars: number;
}

/**
 * Beyond ~200 lines remark's cost per line starts to climb; below that a plan parses in
 * one piece exactly as it always did.
 */
export const CHUNK_LIMITS: ChunkLimits = { lines: 200, chars: 16 * 1024 };

/** Limits no document reaches: one parse of the whole text (the tests' oracle). */
export const WHOLE_DOCUMENT: ChunkLimits = { lines: Infinity, chars: Infinity };

const TAB = 9;
const SPACE = 32;

type Scan =
  | { in: 'text' }
  | { in: 'fence'; char: number; length: number }
  /** `end` null: the block ends at the next blank line. */
  | { in: 'html'; end: string | null };

/**
 * 0-based lines where a fresh parse may start, in document order: column-0 ATX headings
 * and bullet task items outside any fence or HTML block opened at indent <= 3.
 */
export function cutPoints(source: SourceText): number[] {
  const { body, lineStarts, lineEnds } = source;
  const cuts: number[] = [];
  let scan: Scan = { in: 'text' };
  for (let line = 0; line < lineStarts.length; line++) {
    const start = lineStarts[line] as number;
    const end = lineEnds[line] as number;
    if (scan.in === 'fence') {
      if (closesFence(body, start, end, scan.char, scan.length)) scan = { in: 'text' };
      continue;
    }
    if (scan.in === 'html') {
      if (scan.end === null ? isBlank(body, start, end) : includesFolded(body, start, end, scan.end)) scan = { in: 'text' };
      continue;
    }
    const { at, indent } = indentation(body, start, end);
    if (indent <= 3) {
      const fence = opensFence(body, at, end);
      if (fence) {
        scan = { in: 'fence', ...fence };
        continue;
      }
      if (body.charCodeAt(at) === 60 /* < */) {
        const html = htmlBlockEnd(body, at, end);
        // A block of kinds 1-5 may close on its own first line.
        if (html.end === null || !includesFolded(body, html.after, end, html.end)) scan = { in: 'html', end: html.end };
        continue;
      }
    }
    if (indent === 0 && (isAtxHeading(body, start, end) || isBulletTaskItem(body, start, end))) cuts.push(line);
  }
  return cuts;
}

/** Where a line's content starts and its indentation in columns (tabs stop every 4). */
function indentation(body: string, start: number, end: number): { at: number; indent: number } {
  let at = start;
  let indent = 0;
  for (; at < end; at++) {
    const code = body.charCodeAt(at);
    if (code === SPACE) indent++;
    else if (code === TAB) indent += 4 - (indent % 4);
    else break;
  }
  return { at, indent };
}

/** A fence opener: three or more backticks (no backtick after them) or tildes. */
function opensFence(body: string, at: number, end: number): { char: number; length: number } | null {
  const char = body.charCodeAt(at);
  if (char !== 96 /* ` */ && char !== 126 /* ~ */) return null;
  let after = at;
  while (after < end && body.charCodeAt(after) === char) after++;
  const length = after - at;
  if (length < 3) return null;
  // A backtick fence's info string may not hold a backtick (then it is inline code).
  if (char === 96) for (let rest = after; rest < end; rest++) if (body.charCodeAt(rest) === 96) return null;
  return { char, length };
}

/** A closing fence: indent <= 3, at least `length` of `char`, then only blanks. */
function closesFence(body: string, start: number, end: number, char: number, length: number): boolean {
  const { at, indent } = indentation(body, start, end);
  if (indent > 3) return false;
  let after = at;
  while (after < end && body.charCodeAt(after) === char) after++;
  if (after - at < length) return false;
  return isBlank(body, after, end);
}

// HTML block kinds 1-5 end at a marker (case-insensitive); every other `<` line is taken
// for kind 6/7, which ends at a blank line. Kind 7 cannot interrupt a paragraph, so this
// sometimes sees HTML where remark sees text: that only costs a cut point.
const RAW_TAG = /^<(script|pre|style|textarea)(?=[\s>]|$)/i;

function htmlBlockEnd(body: string, at: number, end: number): { end: string | null; after: number } {
  const head = body.slice(at, Math.min(end, at + 11));
  const raw = RAW_TAG.exec(head);
  if (raw) return { end: `</${(raw[1] as string).toLowerCase()}>`, after: at + 1 };
  if (head.startsWith('<!--')) return { end: '-->', after: at + 4 };
  if (head.startsWith('<?')) return { end: '?>', after: at + 2 };
  if (head.startsWith('<![CDATA[')) return { end: ']]>', after: at + 9 };
  if (/^<![A-Za-z]/.test(head)) return { end: '>', after: at + 2 };
  return { end: null, after: at };
}

/** Whether body[start, end) contains `needle` (lowercase ASCII), ignoring ASCII case. */
function includesFolded(body: string, start: number, end: number, needle: string): boolean {
  // A plain loop: no slice or case copy per line (HTML blocks can be long).
  const last = end - needle.length;
  for (let at = start; at <= last; at++) {
    let matched = 0;
    while (matched < needle.length && foldCase(body.charCodeAt(at + matched)) === needle.charCodeAt(matched)) matched++;
    if (matched === needle.length) return true;
  }
  return false;
}

function foldCase(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

function isBlank(body: string, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const code = body.charCodeAt(at);
    if (code !== SPACE && code !== TAB) return false;
  }
  return true;
}

/** `#` to `######` followed by a space, a tab or the end of the line. */
function isAtxHeading(body: string, start: number, end: number): boolean {
  let at = start;
  while (at < end && at - start < 7 && body.charCodeAt(at) === 35 /* # */) at++;
  const hashes = at - start;
  if (hashes < 1 || hashes > 6) return false;
  const next = body.charCodeAt(at);
  return at === end || next === SPACE || next === TAB;
}

/** `- [ ]`, `* [x]`, `+ [X]` … at the very start of the line. */
function isBulletTaskItem(body: string, start: number, end: number): boolean {
  if (end - start < 5) return false;
  const bullet = body.charCodeAt(start);
  if (bullet !== 45 && bullet !== 42 && bullet !== 43) return false;
  const check = body[start + 3];
  return (
    body.charCodeAt(start + 1) === SPACE &&
    body[start + 2] === '[' &&
    (check === ' ' || check === 'x' || check === 'X') &&
    body[start + 4] === ']'
  );
}

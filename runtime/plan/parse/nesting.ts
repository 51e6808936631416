import type { SourceText } from './source.js';

/**
 * How deep lists, block quotes and footnote definitions may nest in a plan. micromark's
 * cost per line grows with the number of containers open on it, and faster than linearly
 * on one line that opens thousands (`- - - … [ ] x`, 2,000 deep: 2 s; 10,000 deep: over
 * 90 s), so a plan nesting deeper is refused before the Markdown parser sees it. 32 is far
 * past anything a plan needs; the deepest fixture nests 3.
 */
export const MAX_NESTING = 32;

/** The first line that may nest deeper than the limit. */
export interface TooDeep {
  /** 1-based line. */
  line: number;
  /** 1-based column (in characters) of the container marker that passes the limit. */
  column: number;
  /** How deep the line may nest, as counted (at least limit + 1). */
  depth: number;
}

/** The message every command gives for a plan refused for its nesting. */
export function tooDeepMessage(depth: number, limit = MAX_NESTING): string {
  return `this line nests lists or block quotes ${depth} levels deep; expected at most ${limit}, so the plan was not read`;
}

const SPACE = 32;
const TAB = 9;
const QUOTE = 62; // >
const DASH = 45;
const STAR = 42;
const PLUS = 43;
const UNDERSCORE = 95;
const OPEN = 91; // [
const CLOSE = 93; // ]
const CARET = 94;
const COLON = 58;
const BACKSLASH = 92;

/**
 * The first line that may nest deeper than `limit`, or null. One pass over each line's
 * leading run of blanks and container markers (`>`, `-`/`*`/`+`/`1.`/`1)` list markers,
 * `[^label]:` footnote labels), so linear in the text. An upper bound on the containers
 * remark opens, never below it (test/fuzz/hostile.test.ts holds it to remark's trees):
 *
 * - A line opens at most one container per marker in its leading run, and a `>` either
 *   opens a block quote or continues one, never both.
 * - The containers a line continues without a `>` are list items and footnote definitions,
 *   and each needs at least two columns of its own indentation (a list item's content
 *   starts at least two columns past its marker; a footnote's at four), before the line's
 *   first list marker or footnote label (what follows belongs to the container it opens).
 *   Those are at most half these blank columns (a tab counted as four), and at most the
 *   depth of any earlier line, since only a line with markers opens containers.
 *
 * - Except footnote definitions one directly inside the next: four columns continue the
 *   whole chain (micromark's continuation of the inner one sees the outer one's
 *   indentation). So the longest such chain so far is added once a line has four blank
 *   columns; a chain grows only by labels on a line indented that far or on one line.
 *
 * So a line counts its `>` and list markers, plus half the blank columns before its first
 * list marker (and the footnote chain) capped at the deepest line before it. Text indented deep inside a code block counts nothing past the
 * depth of the lines around it. A `-`/`*` that begins a thematic break (`- - -`) is not a
 * marker. Markers inside a fenced code block are counted like any other: a line there with
 * more than `limit` markers is refused too (the scan does not know about fences).
 */
export function tooDeepLine(source: SourceText, limit = MAX_NESTING): TooDeep | null {
  const { body, lineStarts, lineEnds } = source;
  let deepest = 0; // the deepest any line so far may nest
  let footnotes = 0; // the longest chain of footnote definitions, one inside the next, so far
  for (let line = 0; line < lineStarts.length; line++) {
    const start = lineStarts[line] as number;
    const end = lineEnds[line] as number;
    let markers = 0; // `>`, list markers and footnote labels
    let blanks = 0; // columns of blanks before the first list marker or footnote label
    let opened = false; // a list marker or footnote label was seen
    let labels = 0; // footnote labels
    let breakFrom = -1; // where a thematic break starts on this line (-1: not looked for yet)
    let over = -1; // where the count passes the limit
    let at = start;
    while (at < end) {
      const code = body.charCodeAt(at);
      let width = 1;
      if (code === SPACE) blanks += opened ? 0 : 1;
      else if (code === TAB) blanks += opened ? 0 : 4;
      else if (code === QUOTE) {
        markers++;
        // One space after `>` belongs to the block quote marker, not to indentation.
        if (body.charCodeAt(at + 1) === SPACE) width = 2;
      } else {
        if ((code === DASH || code === STAR) && breakFrom === -1) breakFrom = thematicBreakStart(body, start, end);
        width = at === breakFrom ? 0 : markerWidth(body, at, end);
        if (width === 0) break;
        markers++;
        if (code === OPEN) labels++;
        opened = true;
      }
      if (over < 0 && markers + continued(blanks) > limit) over = at;
      at += width;
    }
    const depth = markers + continued(blanks);
    if (over >= 0) return { line: line + 1, column: over - start + 1, depth };
    deepest = Math.max(deepest, depth);
    footnotes = Math.max(footnotes, labels + (blanks >= 4 ? footnotes : 0));
  }
  return null;

  /** At most how many open containers a line continues with `blanks` columns of indentation. */
  function continued(blanks: number): number {
    // A footnote definition directly inside another is continued by the outer one's four
    // columns, for nothing (micromark 4.0.3 checks the indentation event before its own).
    return Math.min(deepest, (blanks >> 1) + (blanks >= 4 ? footnotes : 0));
  }
}

/** The width of a list marker or footnote label at `at`; 0 when there is none. */
function markerWidth(body: string, at: number, end: number): number {
  const code = body.charCodeAt(at);
  // A bullet needs a blank or the line's end after it.
  if (code === DASH || code === STAR || code === PLUS) return at + 1 === end || isBlank(body.charCodeAt(at + 1)) ? 1 : 0;
  if (isDigit(code)) {
    let next = at;
    while (next < end && next - at < 9 && isDigit(body.charCodeAt(next))) next++;
    const close = body.charCodeAt(next);
    if (close !== 46 && close !== 41) return 0; // . )
    next++;
    return next === end || isBlank(body.charCodeAt(next)) ? next - at : 0;
  }
  if (code === OPEN && body.charCodeAt(at + 1) === CARET) {
    // `[^label]:` opens a footnote definition, content may follow at once. A label holds
    // no blank and no `[`; a backslash escapes the next character.
    let next = at + 2;
    while (next < end && next - at < 1_002) {
      const c = body.charCodeAt(next);
      if (c === BACKSLASH) next += 2;
      else if (c === CLOSE) return body.charCodeAt(next + 1) === COLON && next > at + 2 ? next + 2 - at : 0;
      else if (c === OPEN || isBlank(c)) return 0;
      else next++;
    }
  }
  return 0;
}

/**
 * Where a thematic break starts on the line, or -2 when none does: the first position
 * from which the rest is one of `-`, `*`, `_` at least three times, with blanks only.
 * A `-` or `*` there begins the break, not a list item (CommonMark: the break wins).
 */
function thematicBreakStart(body: string, start: number, end: number): number {
  let kind = 0;
  let count = 0;
  let from = -2;
  for (let at = end - 1; at >= start; at--) {
    const code = body.charCodeAt(at);
    if (isBlank(code)) continue;
    if (code !== DASH && code !== STAR && code !== UNDERSCORE) break;
    if (kind !== 0 && code !== kind) break;
    kind = code;
    count++;
    if (count >= 3) from = at;
  }
  return from;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isBlank(code: number): boolean {
  return code === SPACE || code === TAB;
}

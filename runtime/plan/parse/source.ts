import type { Span } from '../schema.js';

/**
 * PLAN.md as the parser sees it: the text without its byte-order mark, plus a line index
 * built once so any offset turns into an editor position by binary search.
 *
 * Line endings are CRLF, LF and a lone CR, exactly as CommonMark (and so remark) counts
 * them; using the same rule everywhere keeps our line numbers equal to remark's.
 */
export interface SourceText {
  /** The text handed to remark: the original minus a leading U+FEFF. */
  readonly body: string;
  /** 1 when the original began with a BOM: add it to a body offset to get an original one. */
  readonly bomLength: number;
  /** Body offset where each line starts; `lineStarts[0]` is 0. */
  readonly lineStarts: readonly number[];
  /** Body offset where each line's content ends (before its line ending). */
  readonly lineEnds: readonly number[];
}

const BOM = '\uFEFF';
const LF = 10;
const CR = 13;

/** Splits the original text into a BOM-free body and its line index, in one pass. */
export function readSource(text: string): SourceText {
  const bomLength = text.startsWith(BOM) ? 1 : 0;
  const body = bomLength ? text.slice(1) : text;
  const lineStarts = [0];
  const lineEnds: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    if (code === CR) {
      lineEnds.push(i);
      if (body.charCodeAt(i + 1) === LF) i++;
      lineStarts.push(i + 1);
    } else if (code === LF) {
      lineEnds.push(i);
      lineStarts.push(i + 1);
    }
  }
  lineEnds.push(body.length);
  return { body, bomLength, lineStarts, lineEnds };
}

/** The 0-based line holding a body offset (an offset on a line ending belongs to that line). */
export function lineIndexAt(source: SourceText, offset: number): number {
  const starts = source.lineStarts;
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The span of body offsets [start, end), as 1-based line/column an editor shows. */
export function spanOf(source: SourceText, start: number, end: number): Span {
  const startLine = lineIndexAt(source, start);
  const endLine = end === start ? startLine : lineIndexAt(source, end);
  return {
    line: startLine + 1,
    column: start - (source.lineStarts[startLine] ?? 0) + 1,
    endLine: endLine + 1,
    endColumn: end - (source.lineStarts[endLine] ?? 0) + 1,
  };
}

/** Body offsets of a line's content with surrounding whitespace removed. */
export function trimmedRange(body: string, start: number, end: number): { start: number; end: number } {
  while (start < end && isBlank(body.charCodeAt(start))) start++;
  while (end > start && isBlank(body.charCodeAt(end - 1))) end--;
  return { start, end };
}

// Same set as String.prototype.trim(), so "trimmed" means what a reader expects.
const BLANK = /\s/;
function isBlank(code: number): boolean {
  return code === 32 || code === 9 || (code > 127 || code < 32 ? BLANK.test(String.fromCharCode(code)) : false);
}

import type { MarkdownFacts, TaskListItem } from './markdown.js';
import type { SourceText } from './source.js';

/**
 * The Markdown facts of a plain plan, read line by line without the Markdown parser, or
 * null when the body holds anything else. A cold Stop-hook turn parses PLAN.md, and on a
 * 1,000-item checklist micromark was most of that turn (docs/hooks.md); most plans are
 * only headings, prose, checkbox items and their marker lines, whose block structure
 * CommonMark settles from each line's first characters. Every line must be one of:
 *
 * - blank (spaces and tabs only);
 * - an ATX heading at column 1 (`#` to `######`, then a space, a tab or the line's end);
 * - a checkbox item at column 1: `- [ ] `, `- [x] ` or `- [X] ` and then text that does
 *   not start with a space or a tab;
 * - a prose line: an ASCII letter at column 1;
 * - an indented line: one to three spaces, then an ASCII letter or `@` (marker lines).
 *
 * None of these opens a code block, an HTML block, a table, a block quote, a footnote, a
 * thematic break or a setext heading, whatever surrounds it, and only the checkbox lines
 * start list items. An item's first paragraph runs on over the prose and indented lines
 * right below it (continuation lines) and ends at a blank line, a heading, the next item
 * or the end. Anything outside this (a carriage return, a NUL, a BOM left in the body, a
 * nested or numbered item, a fence) is null: the caller parses with remark.
 * test/parse/plain.test.ts holds the facts equal to readMarkdown's on generated plans.
 */
export function plainMarkdownFacts(source: SourceText): MarkdownFacts | null {
  const { body, lineStarts, lineEnds } = source;
  if (body.charCodeAt(0) === 0xfeff || body.includes('\r') || body.includes('\0')) return null;
  const items: TaskListItem[] = [];
  // The item whose first paragraph is still open (continuation lines extend it).
  let open: TaskListItem | null = null;
  for (let line = 0; line < lineStarts.length; line++) {
    const start = lineStarts[line] as number;
    const end = lineEnds[line] as number;
    switch (lineKind(body, start, end)) {
      case 'blank':
      case 'heading':
        open = null;
        break;
      case 'item':
        open = { markerOffset: start, checkOffset: start + 3, done: body.charCodeAt(start + 3) !== SPACE, paragraphEnd: end };
        items.push(open);
        break;
      case 'continuation':
        if (open) open.paragraphEnd = end;
        break;
      default:
        return null;
    }
  }
  return { items, codeLineRanges: [] };
}

const SPACE = 32;
const TAB = 9;
const HASH = 35;
const DASH = 45;
const AT = 64;

type LineKind = 'blank' | 'heading' | 'item' | 'continuation' | 'other';

function lineKind(body: string, start: number, end: number): LineKind {
  const first = body.charCodeAt(start);
  if (start === end) return 'blank';
  if (first === SPACE || first === TAB) {
    let at = start;
    while (at < end && (body.charCodeAt(at) === SPACE || body.charCodeAt(at) === TAB)) at++;
    if (at === end) return 'blank';
    const indent = at - start;
    if (indent > 3 || body.slice(start, at).includes('\t')) return 'other';
    const code = body.charCodeAt(at);
    return isLetter(code) || code === AT ? 'continuation' : 'other';
  }
  if (isLetter(first)) return 'continuation';
  if (first === HASH) {
    let at = start;
    while (at < end && body.charCodeAt(at) === HASH) at++;
    const after = body.charCodeAt(at);
    return at - start <= 6 && (at === end || after === SPACE || after === TAB) ? 'heading' : 'other';
  }
  if (first === DASH && isCheckbox(body, start, end)) return 'item';
  return 'other';
}

/** `- [ ] text`, `- [x] text` or `- [X] text`, the text starting right after one space. */
function isCheckbox(body: string, start: number, end: number): boolean {
  if (end - start < 7) return false;
  if (body.charCodeAt(start + 1) !== SPACE || body[start + 2] !== '[' || body[start + 4] !== ']' || body.charCodeAt(start + 5) !== SPACE) return false;
  const mark = body[start + 3];
  if (mark !== ' ' && mark !== 'x' && mark !== 'X') return false;
  const text = body.charCodeAt(start + 6);
  return text !== SPACE && text !== TAB;
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

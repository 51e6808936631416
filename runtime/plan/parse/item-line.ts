import type { NodeKind, Span } from '../schema.js';
import type { TaskListItem } from './markdown.js';
import { isMarkerLine, isScenarioLine, scenarioContinues } from './marker-lines.js';
import { lineIndexAt, spanOf, trimmedRange, type SourceText } from './source.js';

/** A dependency reference as written on the item line, before anchors are known. */
export interface WrittenRef {
  ref: string;
  span: Span;
}

/** What an item's own first paragraph says: its text, anchor and leading markers. */
export interface ItemLine {
  text: string;
  textSpan: Span;
  anchor: string | null;
  kind: NodeKind | null;
  label: string | null;
  kindSpan: Span | null;
  depRefs: WrittenRef[];
}

/** A stretch of one source line that belongs to the item text (body offsets). */
interface Piece {
  start: number;
  end: number;
  /** Where this piece starts in the joined text. */
  at: number;
}

// Sticky patterns, applied at a cursor over the joined item text.
const WHITESPACE = /\s*/y;
const DEPENDENCY = /\((after|deps)[ \t]*:([^)]*)\)/iy;
// `@gate`, `@node gate`; a colon may follow `@node` or the kind (`@node: human Ask them`).
const KIND = /@(?:node(?:[ \t]*:\s*|\s+))?(work|gate|verify|tool|human|feedback)(?![A-Za-z0-9_-]):?/iy;
const EXPLICIT_LABEL = /([A-Za-z0-9_][\w./-]*):(?=\s|$)/y;
// A bare label is a lowercase word with more text after it; a lone word is the text.
// `_`, `.` and `/` as the original Leopold allows them (`@gate v1.2 Check`, `@gate api/v2 …`).
const BARE_LABEL = /([a-z][a-z0-9_./-]*)\s+(?=\S)/y;
const REF_TOKEN = /[^\s,]+/g;
const TRAILING_ANCHOR = /\{#([a-z][a-z0-9-]*)\}\s*$/;

/** Reads the item text and the markers leading it from the item's first paragraph. */
export function readItemLine(source: SourceText, item: TaskListItem): ItemLine {
  const pieces = textPieces(source, item);
  const joined = pieces.map((p) => source.body.slice(p.start, p.end)).join(' ');
  const sourceOffset = (at: number) => offsetInPieces(pieces, at);
  const spanAt = (from: number, to: number) => {
    const start = sourceOffset(from);
    // An empty range stays empty; otherwise end one past the last character's offset.
    return spanOf(source, start, to > from ? sourceOffset(to - 1) + 1 : start);
  };

  const anchorRange = findAnchor(joined, pieces);
  const anchor = anchorRange?.name ?? null;
  // The anchor is blanked out rather than cut, so indexes into `content` still map to the source.
  const content = anchorRange
    ? joined.slice(0, anchorRange.start) + ' '.repeat(anchorRange.end - anchorRange.start) + joined.slice(anchorRange.end)
    : joined;

  const line: ItemLine = {
    text: '',
    textSpan: spanAt(0, 0),
    anchor,
    kind: null,
    label: null,
    kindSpan: null,
    depRefs: [],
  };
  let cursor = skipWhitespace(content, 0);
  for (;;) {
    DEPENDENCY.lastIndex = cursor;
    const dependency = DEPENDENCY.exec(content);
    if (dependency) {
      const listStart = cursor + dependency[0].indexOf(':') + 1;
      for (const token of (dependency[2] as string).matchAll(REF_TOKEN)) {
        const from = listStart + (token.index ?? 0);
        line.depRefs.push({ ref: token[0], span: spanAt(from, from + token[0].length) });
      }
      cursor = skipWhitespace(content, DEPENDENCY.lastIndex);
      continue;
    }
    // A tool's text is its command: nothing after `@tool` is read as another kind.
    if (line.kind === 'tool') break;
    KIND.lastIndex = cursor;
    const kind = KIND.exec(content);
    if (!kind) break;
    // Several leading kinds: the last one wins (`@gate sec @human Ask` is human), as in the
    // original Leopold; a label, once written, stays unless a later kind names another.
    line.kind = (kind[1] as string).toLowerCase() as NodeKind;
    line.kindSpan = spanAt(cursor, KIND.lastIndex);
    cursor = skipWhitespace(content, KIND.lastIndex);
    // A tool's text is its command, so only an explicit `name:` is a label after @tool;
    // a bare word there is the start of the command (`@tool make all`).
    if (cursor > KIND.lastIndex) {
      const label =
        matchAt(EXPLICIT_LABEL, content, cursor) ?? (line.kind === 'tool' ? undefined : matchAt(BARE_LABEL, content, cursor));
      if (label) {
        line.label = label.name;
        cursor = skipWhitespace(content, label.end);
      }
    }
  }

  const end = Math.max(cursor, content.trimEnd().length);
  const anchorInside = anchorRange !== undefined && anchorRange.start > cursor && anchorRange.end < end;
  // An anchor ending the checkbox line sits inside the text: close the gap it leaves.
  line.text = anchorInside
    ? `${content.slice(cursor, anchorRange.start).trimEnd()} ${content.slice(anchorRange.end, end).trimStart()}`
    : content.slice(cursor, end);
  line.textSpan = spanAt(cursor, end);
  return line;
}

/**
 * The item's first paragraph as pieces of source lines: the rest of the checkbox line,
 * then each continuation line trimmed. Marker lines (lazy continuations such as
 * `@on fail -> 3`) belong to the marker pass, never to the text, and so do the lines
 * that wrap a long `@scenario` line (indented deeper than it).
 */
function textPieces(source: SourceText, item: TaskListItem): Piece[] {
  const { body } = source;
  const textStart = item.checkOffset + 2;
  const firstLine = lineIndexAt(source, textStart);
  const lastLine = lineIndexAt(source, item.paragraphEnd);
  const pieces: Piece[] = [];
  let at = 0;
  let scenarioIndent: number | null = null; // indentation of the @scenario line being wrapped
  for (let line = firstLine; line <= lastLine; line++) {
    const lineStart = source.lineStarts[line] as number;
    const start = line === firstLine ? textStart : lineStart;
    const end = Math.min(source.lineEnds[line] as number, item.paragraphEnd);
    const range = trimmedRange(body, Math.min(start, end), end);
    if (line !== firstLine) {
      const indent = range.start - lineStart;
      if (isMarkerLine(body, range.start, range.end)) {
        scenarioIndent = isScenarioLine(body.slice(range.start, range.end)) ? indent : null;
        continue;
      }
      // A line indented deeper than the @scenario line above it wraps that scenario.
      if (scenarioIndent !== null && scenarioContinues(scenarioIndent, indent, range.start === range.end)) continue;
      scenarioIndent = null;
    }
    // The first piece is kept even when empty, so an empty text still has a position.
    if (line !== firstLine && range.start === range.end) continue;
    if (pieces.length > 0) at += 1; // the joining space
    pieces.push({ start: range.start, end: range.end, at });
    at += range.end - range.start;
  }
  return pieces;
}

/**
 * The `{#name}` anchor: at the end of the item text or, when the text goes on below, at
 * the end of the checkbox line (where people put it, as on a heading).
 */
function findAnchor(joined: string, pieces: readonly Piece[]): { name: string; start: number; end: number } | undefined {
  const lineEnds = [joined.length];
  if (pieces.length > 1) lineEnds.push((pieces[1] as Piece).at - 1);
  for (const lineEnd of lineEnds) {
    const match = TRAILING_ANCHOR.exec(joined.slice(0, lineEnd));
    if (match) return { name: match[1] as string, start: match.index, end: match.index + match[0].length };
  }
  return undefined;
}

/** Maps an index in the joined text back to a body offset; a joining space maps to the end of its line. */
function offsetInPieces(pieces: readonly Piece[], at: number): number {
  // Binary search: a long paragraph must not make every lookup walk all its lines.
  let low = 0;
  let high = pieces.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((pieces[middle] as Piece).at <= at) low = middle;
    else high = middle - 1;
  }
  const piece = pieces[low] as Piece;
  return piece.start + Math.min(at - piece.at, piece.end - piece.start);
}

function skipWhitespace(text: string, from: number): number {
  WHITESPACE.lastIndex = from;
  WHITESPACE.exec(text);
  return WHITESPACE.lastIndex;
}

function matchAt(pattern: RegExp, text: string, at: number): { name: string; end: number } | undefined {
  pattern.lastIndex = at;
  const match = pattern.exec(text);
  return match ? { name: match[1] as string, end: pattern.lastIndex } : undefined;
}

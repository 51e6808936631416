import type { Nodes, Root } from 'mdast';
import { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { gfmFootnote } from 'micromark-extension-gfm-footnote';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import remarkParse from 'remark-parse';
import { unified, type Processor } from 'unified';
import { CHUNK_LIMITS, cutPoints, type ChunkLimits } from './chunks.js';
import type { SourceText } from './source.js';

/** A GFM task-list item as remark found it, in body offsets. */
export interface TaskListItem {
  /** Where the list marker (`-`, `*`, `1.` …) starts. */
  markerOffset: number;
  /** The character inside `[ ]`. */
  checkOffset: number;
  done: boolean;
  /** Where the item's first paragraph ends (the item text never reaches past it). */
  paragraphEnd: number;
}

/** What one walk over the mdast yields: the items, and the lines marker lines may not use. */
export interface MarkdownFacts {
  items: TaskListItem[];
  /** 0-based [first, last] line pairs of code and HTML blocks, in document order. */
  codeLineRanges: Array<[number, number]>;
}

/**
 * GFM's block structure, which is all the parser reads: task-list items, tables and
 * footnote definitions (which may hold items). remark-gfm's other parts only change
 * phrasing content, which walk() never enters: strikethrough, and autolink literals, whose
 * pass over every text node was about half of parsing a checklist (and of `plan tick`).
 * test/parse/gfm-blocks.test.ts holds the trees' flow nodes equal to remark-gfm's.
 */
export function gfmBlocks(this: Processor): void {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(gfmFootnote(), gfmTable(), gfmTaskListItem());
  (data.fromMarkdownExtensions ??= []).push([gfmFootnoteFromMarkdown(), gfmTableFromMarkdown(), gfmTaskListItemFromMarkdown()]);
}

/**
 * CommonMark with GFM's block structure, built and frozen once: freezing runs the plugin
 * attachers, so each parse reuses them. The plan parser and the charter-rule lifter
 * (runtime/persona/charter-rules.ts) share it, so a compile sets up one Markdown parser.
 */
export const blockMarkdown = unified().use(remarkParse).use(gfmBlocks).freeze();

/**
 * The phrasing constructs the plan parser never reads, left out of its parse: emphasis,
 * code spans, autolinks, inline HTML, links, images and footnote calls. They only shape
 * text inside a paragraph, heading or table cell, never a block or a position the parser
 * reads, and some cost time quadratic in a line's length (one 100 KB line of `[a](` took
 * 5 s). The task-list checkbox (`tasklistCheck`) stays: it is phrasing that decides an
 * item. test/parse/gfm-blocks.test.ts holds the flow tree equal to remark-gfm's.
 */
export const UNREAD_PHRASING = [
  'attention',
  'autolink',
  'codeText',
  'htmlText',
  'labelStartLink',
  'labelStartImage',
  'labelEnd',
  'gfmFootnoteCall',
  'gfmPotentialFootnoteCall',
] as const;

/** Leaves UNREAD_PHRASING out of a processor's parse. */
export function blocksOnly(this: Processor): void {
  (this.data().micromarkExtensions ??= []).push({ disable: { null: [...UNREAD_PHRASING] } });
}

/**
 * What the plan parser parses with: `blockMarkdown` without UNREAD_PHRASING. The
 * charter-rule lifter keeps `blockMarkdown`, since it reads a heading's text and cuts
 * inline comments out of a rule.
 */
export const planMarkdown = unified().use(remarkParse).use(gfmBlocks).use(blocksOnly).freeze();

/** One parsed piece of the body: its tree, in positions relative to where it starts. */
export interface Piece {
  tree: Root;
  /** 0-based body line the piece starts on. */
  line: number;
  /** Body offset the piece starts at. */
  offset: number;
}

/**
 * Parses the body with remark + GFM, in pieces cut at `cutPoints` once a piece reaches
 * `limits`, and collects task items and code/HTML line ranges in body positions. Small
 * bodies, and `WHOLE_DOCUMENT`, parse in one piece.
 */
export function readMarkdown(
  source: SourceText,
  limits: ChunkLimits = CHUNK_LIMITS,
  onProgress?: (parsed: number, total: number) => void,
): MarkdownFacts {
  const facts: MarkdownFacts = { items: [], codeLineRanges: [] };
  try {
    for (const piece of markdownPieces(source, limits)) {
      walk(piece, source.body, facts);
      // A piece starts where the previous one ended, so its start is what is parsed so far.
      onProgress?.(piece.offset, source.body.length);
    }
    onProgress?.(source.body.length, source.body.length);
  } catch {
    // remark has no documented failure mode on text; if it ever gives up, the plan simply
    // has no items and the graph phase reports an empty plan instead of us crashing.
    return { items: [], codeLineRanges: [] };
  }
  return facts;
}

/**
 * The body as parsed pieces, in document order. Each piece is parsed together with the
 * line of the cut that ends it, and the cut is taken only if that parse starts a
 * top-level heading or list item on that line: proof that, whatever the scanner assumed,
 * no fence, HTML block, table or paragraph runs across the cut. The block on that line is
 * then dropped, since the next piece parses it afresh. When the parse disagrees, the
 * piece reaches for a cut twice as far away, so retries cost at most a constant factor.
 */
export function* markdownPieces(source: SourceText, limits: ChunkLimits): Generator<Piece> {
  const { body, lineStarts } = source;
  const lineCount = lineStarts.length;
  // micromark skips a U+FEFF that starts its input without counting it in offsets, so a
  // body that still starts with one (a doubled BOM) has every offset one short; only the
  // first piece would be, so such a body is parsed whole to keep that behaviour exact.
  const big = lineCount > limits.lines || body.length > limits.chars;
  const cuts = big && body.charCodeAt(0) !== 0xfeff ? cutPoints(source) : [];
  let first = 0;
  let reach = 0; // no cut before this line (raised after a rejected cut)
  let next = 0; // position in `cuts`
  for (;;) {
    const offset = lineStarts[first] as number;
    while (next < cuts.length && !farEnough(cuts[next] as number)) next++;
    const cut = cuts[next];
    if (cut === undefined) {
      yield { tree: planMarkdown.parse(body.slice(offset)), line: first, offset };
      return;
    }
    const tree = planMarkdown.parse(body.slice(offset, cut + 1 < lineCount ? lineStarts[cut + 1] : body.length));
    if (dropBlockOn(tree, cut - first + 1)) {
      yield { tree, line: first, offset };
      first = cut;
      reach = 0;
    } else {
      reach = cut + (cut - first);
      next++;
    }
  }

  function farEnough(cut: number): boolean {
    if (cut <= first || cut < reach) return false;
    return cut - first >= limits.lines || (lineStarts[cut] as number) - (lineStarts[first] as number) >= limits.chars;
  }
}

/**
 * Removes the heading or list item that starts the 1-based `line` at column 1, when the
 * tree ends with one: a top-level heading or list, or the last item of a top-level list.
 * False when nothing starts there (the line belongs to an earlier block).
 */
function dropBlockOn(tree: Root, line: number): boolean {
  const last = tree.children[tree.children.length - 1];
  if (!last) return false;
  if (startsAt(last, line) && (last.type === 'heading' || last.type === 'list')) {
    tree.children.pop();
    return true;
  }
  if (last.type === 'list') {
    const item = last.children[last.children.length - 1];
    if (item && startsAt(item, line)) {
      last.children.pop();
      return true;
    }
  }
  return false;
}

function startsAt(node: Nodes, line: number): boolean {
  return node.position?.start.line === line && node.position.start.column === 1;
}

/** Collects one piece's task items and code/HTML ranges, shifted to body positions. */
function walk(piece: Piece, body: string, facts: MarkdownFacts): void {
  // Explicit stack instead of recursion: deeply nested lists must not overflow the stack.
  // Only flow containers are entered; blockquote subtrees are skipped on purpose (quoted
  // checkboxes are examples, not work), and phrasing content cannot hold items or blocks.
  const stack: Nodes[] = [piece.tree];
  while (stack.length > 0) {
    const node = stack.pop() as Nodes;
    switch (node.type) {
      case 'root':
      case 'list':
      case 'footnoteDefinition':
        pushChildren(stack, node.children);
        break;
      case 'listItem': {
        if (typeof node.checked === 'boolean') {
          const item = taskListItem(body, node, node.checked, piece.offset);
          if (item) facts.items.push(item);
        } else {
          const item = bareCheckbox(body, node, piece.offset);
          if (item) facts.items.push(item);
        }
        pushChildren(stack, node.children);
        break;
      }
      case 'code':
      case 'html': {
        const checklist = node.type === 'code' ? indentedChecklist(body, node, piece.offset) : undefined;
        if (checklist) {
          facts.items.push(...checklist);
          break;
        }
        if (node.position) {
          // Pieces start at line starts, so only lines and offsets move, never columns.
          facts.codeLineRanges.push([node.position.start.line - 1 + piece.line, node.position.end.line - 1 + piece.line]);
        }
        break;
      }
      default:
        break;
    }
  }
}

function pushChildren(stack: Nodes[], children: readonly Nodes[]): void {
  // Reversed so the stack pops them in document order.
  for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Nodes);
}

/** The item in body offsets; `shift` is where its piece starts in the body. */
function taskListItem(
  body: string,
  node: Extract<Nodes, { type: 'listItem' }>,
  done: boolean,
  shift: number,
): TaskListItem | undefined {
  const start = node.position?.start.offset;
  if (start === undefined) return undefined;
  const markerOffset = start + shift;
  const first = node.children[0];
  const paragraph = first?.type === 'paragraph' ? first : undefined;
  const paragraphStart = paragraph?.position?.start.offset;
  const checkOffset = findCheck(body, markerOffset, paragraphStart === undefined ? undefined : paragraphStart + shift);
  if (checkOffset === undefined) return undefined;
  const paragraphEndInPiece = paragraph?.position?.end.offset;
  const paragraphEnd = Math.max(paragraphEndInPiece === undefined ? 0 : paragraphEndInPiece + shift, checkOffset + 2);
  return { markerOffset, checkOffset, done, paragraphEnd };
}

/**
 * `- [ ]` with nothing after the checkbox: GFM reads it as a list item whose text is
 * `[ ]`, not as a task, but the original Leopold (and anyone writing a plan) counts it as
 * an item with no text. Only a checkbox that is the whole first line qualifies.
 */
function bareCheckbox(
  body: string,
  node: Extract<Nodes, { type: 'listItem' }>,
  shift: number,
): TaskListItem | undefined {
  const start = node.position?.start.offset;
  const first = node.children[0];
  const from = first?.type === 'paragraph' ? first.position?.start.offset : undefined;
  const to = first?.type === 'paragraph' ? first.position?.end.offset : undefined;
  if (start === undefined || from === undefined || to === undefined) return undefined;
  const open = from + shift;
  if (body[open] !== '[' || body[open + 2] !== ']' || !isCheckMark(body[open + 1])) return undefined;
  let at = open + 3;
  while (at < body.length && (body.charCodeAt(at) === 32 || body.charCodeAt(at) === 9)) at++;
  if (at < body.length && body.charCodeAt(at) !== 10 && body.charCodeAt(at) !== 13) return undefined;
  return { markerOffset: start + shift, checkOffset: open + 1, done: body[open + 1] !== ' ', paragraphEnd: to + shift };
}

// `- [ ]` / `- [x]` at the start of a line after blanks: the original Leopold's item rule.
const LEGACY_CHECKBOX = /^[ \t]*- \[[ xX]\]/;
const MARKER_LINE = /^[ \t]*@[A-Za-z]/;

/**
 * A top-level checklist indented with a tab is indented code to CommonMark, but the
 * original Leopold reads its lines as items, and a tab there is an editor's doing, not a
 * way to show code. So an indented code block at column 1 whose first line is a tab and a
 * checkbox line, and whose other lines are checkbox lines, marker lines or blank, is read
 * as a checklist: one item per checkbox line. Four spaces stay code (the usual way to
 * show an example), and so does anything else.
 */
function indentedChecklist(
  body: string,
  node: Extract<Nodes, { type: 'code' }>,
  shift: number,
): TaskListItem[] | undefined {
  const position = node.position;
  if (!position || position.start.column !== 1 || position.start.offset === undefined || position.end.offset === undefined) {
    return undefined;
  }
  const from = position.start.offset + shift;
  const to = position.end.offset + shift;
  if (body[from] !== '\t') return undefined;
  const items: TaskListItem[] = [];
  let lineStart = from;
  while (lineStart <= to) {
    let lineEnd = lineStart;
    while (lineEnd < to && body.charCodeAt(lineEnd) !== 10 && body.charCodeAt(lineEnd) !== 13) lineEnd++;
    const line = body.slice(lineStart, lineEnd);
    if (LEGACY_CHECKBOX.test(line)) {
      const marker = lineStart + line.indexOf('-');
      items.push({ markerOffset: marker, checkOffset: marker + 3, done: body[marker + 3] !== ' ', paragraphEnd: lineEnd });
    } else if (items.length === 0 || (line.trim() !== '' && !MARKER_LINE.test(line))) {
      return undefined;
    }
    if (lineEnd >= to) break;
    lineStart = lineEnd + (body.charCodeAt(lineEnd) === 13 && body.charCodeAt(lineEnd + 1) === 10 ? 2 : 1);
  }
  return items.length > 0 ? items : undefined;
}

function isCheckMark(char: string | undefined): boolean {
  return char === ' ' || char === 'x' || char === 'X';
}

/**
 * The offset of the character inside `[ ]`. remark does not report where the checkbox
 * is (and shifts the paragraph start past it, sometimes across a line ending), so we read
 * it from the source: the checkbox is the item's first content after the list marker.
 */
function findCheck(body: string, markerOffset: number, paragraphStart: number | undefined): number | undefined {
  let at = markerOffset;
  const first = body.charCodeAt(at);
  if (first === 45 || first === 42 || first === 43) at++; // - * +
  else {
    while (isDigit(body.charCodeAt(at))) at++;
    at++; // the `.` or `)` after the number
  }
  while (at < body.length && isSpaceOrEnding(body.charCodeAt(at))) at++;
  if (body[at] === '[' && body[at + 2] === ']') return at + 1;
  // Unreachable for input remark accepts as a task; kept so odd input cannot crash us.
  if (paragraphStart !== undefined && body[paragraphStart] === '[') return paragraphStart + 1;
  return undefined;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isSpaceOrEnding(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

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

// Built and frozen once: freezing runs the plugin attachers, so each parse reuses them.
const markdown = unified().use(remarkParse).use(remarkGfm).freeze();

/** Parses the body with remark + GFM and collects task items and code/HTML line ranges. */
export function readMarkdown(body: string): MarkdownFacts {
  const facts: MarkdownFacts = { items: [], codeLineRanges: [] };
  let tree: Root;
  try {
    tree = markdown.parse(body);
  } catch {
    // remark has no documented failure mode on text; if it ever gives up, the plan simply
    // has no items and the graph phase reports an empty plan instead of us crashing.
    return facts;
  }
  // Explicit stack instead of recursion: deeply nested lists must not overflow the stack.
  // Only flow containers are entered; blockquote subtrees are skipped on purpose (quoted
  // checkboxes are examples, not work), and phrasing content cannot hold items or blocks.
  const stack: Nodes[] = [tree];
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
          const item = taskListItem(body, node, node.checked);
          if (item) facts.items.push(item);
        }
        pushChildren(stack, node.children);
        break;
      }
      case 'code':
      case 'html':
        if (node.position) {
          facts.codeLineRanges.push([node.position.start.line - 1, node.position.end.line - 1]);
        }
        break;
      default:
        break;
    }
  }
  return facts;
}

function pushChildren(stack: Nodes[], children: readonly Nodes[]): void {
  // Reversed so the stack pops them in document order.
  for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Nodes);
}

function taskListItem(
  body: string,
  node: Extract<Nodes, { type: 'listItem' }>,
  done: boolean,
): TaskListItem | undefined {
  const markerOffset = node.position?.start.offset;
  if (markerOffset === undefined) return undefined;
  const first = node.children[0];
  const paragraph = first?.type === 'paragraph' ? first : undefined;
  const checkOffset = findCheck(body, markerOffset, paragraph?.position?.start.offset);
  if (checkOffset === undefined) return undefined;
  const paragraphEnd = Math.max(paragraph?.position?.end.offset ?? 0, checkOffset + 2);
  return { markerOffset, checkOffset, done, paragraphEnd };
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

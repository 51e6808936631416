import type { Heading, ListItem, Node, Nodes, Paragraph, Root } from 'mdast';
import { blockMarkdown } from '../plan/parse/markdown.js';

/** At most this many rules are lifted (docs/decisions.md), so a long charter stays a prompt. */
export const MAX_CHARTER_RULES = 32;

// A heading whose text names a section of hard lines: everything under it is a rule.
const RULE_HEADING =
  /(?<![\p{L}\p{N}_])(?:never|always|rules?|constraints?|non[- ]?goals?|guardrails?|hard[- ]lines?|red[- ]lines?|forbidden|non[- ]negotiables?|musts?|must[- ]nots?|don['’]ts?|do[- ]nots?)(?![\p{L}\p{N}_])/iu;

// Words that make a bullet or paragraph a rule wherever it stands. The look-arounds make
// them whole words ("nevertheless", "always-on" and "endeavour" are prose).
const RULE_WORDS =
  /(?<![\p{L}\p{N}_-])(?:never|always|must\s+not|mustn['’]t|do\s+not|don['’]t|at\s+most|forbidden|non-negotiable)(?![\p{L}\p{N}_-])/iu;

// The plan parser's Markdown (GFM's blocks: tables, task lists, footnotes). Rules are block
// content read from the source by position; GFM's inline parts (strikethrough, autolink
// literals) change no block and no rule, and a heading's name is matched by whole words,
// which `~~` around a word leaves whole.
const parser = blockMarkdown;

function start(node: Node): number {
  return node.position?.start.offset ?? 0;
}
function end(node: Node): number {
  return node.position?.end.offset ?? 0;
}

// Plain text of a heading, for matching its name only.
function headingText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.type === 'html' ? '' : node.value;
  if ('children' in node) return (node.children as Nodes[]).map(headingText).join('');
  return '';
}

// Source ranges of inline HTML comments inside a paragraph, which are not part of a rule.
function commentRanges(node: Nodes, out: [number, number][] = []): [number, number][] {
  if (node.type === 'html' && node.value.trimStart().startsWith('<!--')) out.push([start(node), end(node)]);
  else if ('children' in node) for (const child of node.children as Nodes[]) commentRanges(child, out);
  return out;
}

/**
 * The verbatim source of a paragraph as one line: comments cut out, each source line
 * trimmed (and stripped of `>` quote markers when quoted), joined by single spaces.
 */
function paragraphText(source: string, paragraph: Paragraph, quoted: boolean): string {
  let text = '';
  let at = start(paragraph);
  for (const [from, to] of commentRanges(paragraph)) {
    text += source.slice(at, from);
    at = to;
  }
  text += source.slice(at, end(paragraph));
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => (quoted ? line.replace(/^\s*(?:>\s?)+/, '') : line).trim())
    .filter((line) => line !== '')
    .join(' ');
}

interface Walk {
  source: string;
  inSection: boolean;
  quoted: boolean;
  found: string[];
}

function consider(walk: Walk, text: string): void {
  if (text === '' || walk.found.includes(text)) return;
  if (walk.inSection || RULE_WORDS.test(text)) walk.found.push(text);
}

// Collects rules from block content in document order. Code, HTML, tables and
// definitions are never rules; a list item's own paragraphs make one rule, and its
// nested lists are rules of their own.
function visit(walk: Walk, nodes: readonly Nodes[]): void {
  for (const node of nodes) {
    switch (node.type) {
      case 'paragraph':
        consider(walk, paragraphText(walk.source, node, walk.quoted));
        break;
      case 'list':
        visit(walk, node.children);
        break;
      case 'listItem': {
        const item = node as ListItem;
        const own = item.children.filter((c): c is Paragraph => c.type === 'paragraph');
        consider(walk, own.map((p) => paragraphText(walk.source, p, walk.quoted)).filter(Boolean).join(' '));
        visit(walk, item.children.filter((c) => c.type !== 'paragraph'));
        break;
      }
      case 'blockquote': {
        const quoted = walk.quoted;
        walk.quoted = true;
        visit(walk, node.children);
        walk.quoted = quoted;
        break;
      }
      default:
        break; // code, html, table, thematicBreak, definition, nested headings: not rules
    }
  }
}

/**
 * Lifts the hard lines of CHARTER.md verbatim: every bullet or paragraph under a heading
 * such as Never / Always / Rules / Constraints / Non-goals / Guardrails (until the next
 * heading of the same or a higher level), and every bullet or paragraph elsewhere that
 * uses a rule word (never, always, must not, do not, don't, at most, forbidden,
 * non-negotiable). Document order, no duplicates, at most 32. Pure and deterministic.
 */
export function charterRules(charter: string): string[] {
  const source = charter.startsWith('\uFEFF') ? charter.slice(1) : charter;
  const root = parser.parse(source) as Root;
  const walk: Walk = { source, inSection: false, quoted: false, found: [] };
  let sectionDepth = 0; // depth of the open rule heading, 0 when none is open
  for (const node of root.children) {
    if (node.type === 'heading') {
      const heading = node as Heading;
      if (sectionDepth > 0 && heading.depth <= sectionDepth) sectionDepth = 0;
      if (sectionDepth === 0 && RULE_HEADING.test(headingText(heading))) sectionDepth = heading.depth;
      walk.inSection = sectionDepth > 0;
      continue;
    }
    visit(walk, [node as Nodes]);
  }
  return walk.found.slice(0, MAX_CHARTER_RULES);
}

/** True when `text` uses a rule word (whole word, case-insensitive). */
export function hasRuleWord(text: string): boolean {
  return RULE_WORDS.test(text);
}


import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { blocksOnly, gfmBlocks } from '../../runtime/plan/parse/markdown.js';
import { planText } from '../fuzz/arbitraries.js';

// The plan parser reads only flow content (lists, items, code, HTML, footnote definitions,
// and a list item's first paragraph) with its positions, so it parses with GFM's block
// extensions alone. That is exact only if every flow node, its type, `checked` and
// position, is what full remark-gfm gives: checked here on every Markdown file of the
// fixtures and on generated plan-ish text. Phrasing content (where autolink literals and
// strikethrough live) is left out of the comparison on purpose. Both parsers Leopold builds
// are compared: the charter lifter's (GFM's blocks) and the plan parser's (GFM's blocks,
// no phrasing constructs but the task checkbox).

const full = unified().use(remarkParse).use(remarkGfm).freeze();
const blocks = unified().use(remarkParse).use(gfmBlocks).freeze();
const plan = unified().use(remarkParse).use(gfmBlocks).use(blocksOnly).freeze();

const PHRASING = new Set(['text', 'emphasis', 'strong', 'delete', 'inlineCode', 'break', 'link', 'linkReference', 'image', 'imageReference', 'footnoteReference']);

type Flow = { type: string; checked?: boolean | null; start?: number; end?: number; children?: Flow[] };

/**
 * The flow tree. `taskStart: false` leaves out where a task item's first paragraph starts:
 * remark moves it past the checkbox only when the paragraph's first phrasing node is text,
 * and without phrasing constructs it always is (`- [ ] \`x\`` starts at the checkbox with
 * remark-gfm, at the backtick in the plan parser's tree). The plan parser reads the
 * checkbox from the source and a task paragraph's end, never its start (markdown.ts).
 */
function flow(node: Nodes, taskStart = true): Flow {
  const out: Flow = { type: node.type, start: node.position?.start.offset, end: node.position?.end.offset };
  if (node.type === 'listItem') out.checked = node.checked;
  // A paragraph's (or heading's, or cell's) children are phrasing: not compared.
  if ('children' in node && node.type !== 'paragraph' && node.type !== 'heading' && node.type !== 'tableCell') {
    out.children = (node.children as Nodes[]).filter((child) => !PHRASING.has(child.type) && !(child.type === 'html' && isInline(node))).map((child) => flow(child, taskStart));
    const first = out.children[0];
    if (!taskStart && node.type === 'listItem' && typeof node.checked === 'boolean' && first?.type === 'paragraph') delete first.start;
  }
  return out;
}
const isInline = (parent: Nodes) => parent.type === 'paragraph' || parent.type === 'heading' || parent.type === 'tableCell';

function same(text: string): void {
  const expected = full.parse(text) as Root;
  expect(flow(blocks.parse(text) as Root)).toEqual(flow(expected));
  expect(flow(plan.parse(text) as Root, false)).toEqual(flow(expected, false));
}

function markdownFiles(dir: string): string[] {
  // Entries as they are: a fixture may hold a symbolic link (fixtures/commands keeps a repository's links), followed never.
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.isFile() && entry.name.endsWith('.md') ? [path] : [];
  });
}

describe('the plan parser\'s GFM (block extensions only)', () => {
  const files = markdownFiles(join(import.meta.dirname, '../../fixtures'));

  it('gives every fixture the same flow tree as remark-gfm', () => {
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) same(readFileSync(file, 'utf8'));
  });

  it('gives generated plan-ish text the same flow tree as remark-gfm', () => {
    fc.assert(fc.property(planText, (text) => {
      same(text);
    }), { numRuns: 100 });
  });

  it('keeps tables, footnote definitions and task items, and only phrasing differs', () => {
    const text = '- [ ] see www.example.com and ~~old~~ [^1]\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[^1]: - [x] done inside a footnote\n';
    same(text);
    const tree = blocks.parse(text) as Root;
    expect(tree.children.map((n) => n.type)).toEqual(['list', 'table', 'footnoteDefinition']);
    // The difference the parser never looks at: no autolink, no strikethrough node.
    expect(JSON.stringify(full.parse(text))).toContain('"type":"link"');
    expect(JSON.stringify(tree)).not.toContain('"type":"link"');
  });

  it('the plan parser\'s keeps the flow tree of lines full of phrasing, and the task checkbox', () => {
    const units = ['[a](', '[a]', '![', '*a ', '_a_', '`a ', '<!-- ', '<a ', '[^a]', '\\[', '&amp;', '**', '](', '<http://x>', '\\'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...units), { minLength: 1, maxLength: 12 }), fc.constantFrom('- [ ] ', '- [x] ', '1. [ ] ', '| a |\n|---|\n| ', '# ', ''), (parts, lead) => {
        same(`${lead}${parts.join('')}\nnext line ${parts.join('')}\n\n- [ ] after\n`);
      }),
      { numRuns: 300 },
    );
    const tree = plan.parse('- [ ] `a` *b* [c](d)\n') as Root;
    expect(tree.children[0]).toMatchObject({ type: 'list', children: [{ type: 'listItem', checked: false }] });
  });
});

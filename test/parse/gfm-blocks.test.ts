import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { gfmBlocks } from '../../runtime/plan/parse/markdown.js';
import { planText } from '../fuzz/arbitraries.js';

// The plan parser reads only flow content (lists, items, code, HTML, footnote definitions,
// and a list item's first paragraph) with its positions, so it parses with GFM's block
// extensions alone. That is exact only if every flow node, its type, `checked` and
// position, is what full remark-gfm gives: checked here on every Markdown file of the
// fixtures and on generated plan-ish text. Phrasing content (where autolink literals and
// strikethrough live) is left out of the comparison on purpose.

const full = unified().use(remarkParse).use(remarkGfm).freeze();
const blocks = unified().use(remarkParse).use(gfmBlocks).freeze();

const PHRASING = new Set(['text', 'emphasis', 'strong', 'delete', 'inlineCode', 'break', 'link', 'linkReference', 'image', 'imageReference', 'footnoteReference']);

type Flow = { type: string; checked?: boolean | null; start?: number; end?: number; children?: Flow[] };

function flow(node: Nodes): Flow {
  const out: Flow = { type: node.type, start: node.position?.start.offset, end: node.position?.end.offset };
  if (node.type === 'listItem') out.checked = node.checked;
  // A paragraph's (or heading's, or cell's) children are phrasing: not compared.
  if ('children' in node && node.type !== 'paragraph' && node.type !== 'heading' && node.type !== 'tableCell') {
    out.children = (node.children as Nodes[]).filter((child) => !PHRASING.has(child.type) && !(child.type === 'html' && isInline(node))).map(flow);
  }
  return out;
}
const isInline = (parent: Nodes) => parent.type === 'paragraph' || parent.type === 'heading' || parent.type === 'tableCell';

const same = (text: string) => expect(flow(blocks.parse(text) as Root)).toEqual(flow(full.parse(text) as Root));

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
});

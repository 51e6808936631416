import fc from 'fast-check';
import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { analyzePlan } from '../../compiler/index.js';
import { MAX_NESTING, parsePlan } from '../../runtime/plan/parse/index.js';
import { tooDeepLine } from '../../runtime/plan/parse/nesting.js';
import { readSource } from '../../runtime/plan/parse/source.js';

// Hostile plans (issue 30): deep nesting, long lines, many lines near the depth limit,
// many nested items under one. Each must end in a parse or the nesting-too-deep
// diagnostic, never an exception. What they cost is measured in bench/parse.bench.ts,
// never asserted here.

const remark = unified().use(remarkParse).use(remarkGfm).freeze();

/** The deepest chain of containers (list items, block quotes, footnote definitions) remark built. */
function containerDepth(tree: Root): number {
  let deepest = 0;
  const stack: Array<[Nodes, number]> = [[tree, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    const here = depth + (node.type === 'listItem' || node.type === 'blockquote' || node.type === 'footnoteDefinition' ? 1 : 0);
    deepest = Math.max(deepest, here);
    if ('children' in node) for (const child of node.children as Nodes[]) stack.push([child, here]);
  }
  return deepest;
}

// Lines of container prefixes (markers, quotes, indentation) and what may follow them.
const prefix = fc
  .array(fc.constantFrom(' ', '  ', '   ', '\t', '>', '> ', '- ', '* ', '+ ', '1. ', '2) ', '[^n]: ', '[^n]:', '-\t', '- - -', '* * *'), { maxLength: 14 })
  .map((parts) => parts.join(''));
const content = fc.constantFrom('[ ] item', '[x] done', 'text', '', '```', '- [ ] x', '> q', '@on fail -> 1', '    code', '---', '***');
const nestedDoc = fc.array(fc.tuple(prefix, content).map(([p, c]) => `${p}${c}`), { minLength: 1, maxLength: 10 }).map((lines) => lines.join('\n'));

describe('hostile plans', () => {
  it('the nesting bound is sound: whenever remark nests d deep, the scan refuses at any limit below d', () => {
    let deep = 0;
    fc.assert(
      fc.property(nestedDoc, (text) => {
        const depth = containerDepth(remark.parse(text) as Root);
        if (depth >= 4) deep++;
        if (depth > 0) expect(tooDeepLine(readSource(text), depth - 1), JSON.stringify(text)).not.toBeNull();
      }),
      { numRuns: 2_000 },
    );
    // The documents did nest: the property was tried where it can fail.
    expect(deep).toBeGreaterThan(100);
  });

  it('10,000 levels, in every spelling, are one nesting-too-deep error at the line and column, and no items', () => {
    const deep = 10_000;
    const shapes: Array<[string, number]> = [
      [`- [ ] top\n${'- '.repeat(deep)}[ ] deep`, 2 * MAX_NESTING + 1],
      [`- [ ] top\n${'> '.repeat(deep)}- [ ] quoted`, 2 * MAX_NESTING + 1],
      [`- [ ] top\n${'>'.repeat(deep)} - [ ] quoted`, MAX_NESTING + 1],
      [`- [ ] top\n${'> - '.repeat(deep / 2)}[ ] mixed`, 2 * MAX_NESTING + 1],
      [`- [ ] top\n${'1. '.repeat(deep)}[ ] ordered`, 3 * MAX_NESTING + 1],
      [`- [ ] top\n${'[^a]: '.repeat(deep)}- [ ] footnotes`, 6 * MAX_NESTING + 1],
      [`- [ ] top\n${Array.from({ length: deep }, (_, d) => `${' '.repeat(d)}- [ ] level ${d + 2}`).slice(1).join('\n')}`, 0],
    ];
    for (const [text, column] of shapes) {
      const { ir, diagnostics } = analyzePlan(text, 'PLAN.md');
      expect(ir.items).toEqual([]);
      expect(diagnostics.map((d) => d.code)).toEqual(['nesting-too-deep']);
      expect(diagnostics[0]).toMatchObject({ file: 'PLAN.md', severity: 'error' });
      if (column > 0) expect(diagnostics[0]).toMatchObject({ line: 2, column });
      expect(diagnostics[0]!.message).toMatch(/^this line nests lists or block quotes \d+ levels deep; expected at most 32, so the plan was not read$/);
    }
  });

  it('as deep as allowed is read, on many lines', () => {
    const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join('\n');
    expect(parsePlan(lines(300, (i) => `${'- '.repeat(MAX_NESTING)}[ ] as deep as allowed ${i}`), 'p').items).toHaveLength(300);
    expect(parsePlan(lines(300, (i) => `${'> '.repeat(MAX_NESTING - 1)}- [ ] quoted ${i}`), 'p').tooDeep).toBeUndefined();
    // Under one item, nested items that keep closing (quadratic before the vendored EditMap).
    const nested = parsePlan(`- [ ] top\n${lines(3_000, (i) => `  - - [ ] child ${i}`)}`, 'p');
    expect(nested.items).toHaveLength(3_001);
    expect(nested.items[3_000]!.text).toBe('child 2999');
  });

  it('one 100 KB line of phrasing (links, code spans, emphasis, HTML) is one item, its text whole', () => {
    const units = ['[a](', '`', '`a *b _', '*a _', '<!-- ', '<a ', '![', '[^a]', '**', '](', '\\['];
    for (const unit of units) {
      const line = unit.repeat(Math.ceil(100_000 / unit.length));
      // `> q` keeps the plan off the line reader: remark parses it.
      const ir = parsePlan(`> q\n\n- [ ] x ${line}\n  @on fail -> 1\n`, 'p');
      expect(ir.items, unit).toHaveLength(1);
      expect(ir.items[0]!.text.length, unit).toBeGreaterThanOrEqual(line.length);
      expect(ir.items[0]!.routes, unit).toHaveLength(1);
    }
  });
});

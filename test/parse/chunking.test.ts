import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatePlan } from '../../bench/plans.js';
import { cutPoints } from '../../runtime/plan/parse/chunks.js';
import { parsePlan, parsePlanWith, WHOLE_DOCUMENT, type ChunkLimits } from '../../runtime/plan/parse/index.js';
import { markdownPieces } from '../../runtime/plan/parse/markdown.js';
import { readSource } from '../../runtime/plan/parse/source.js';
import { planText } from '../fuzz/arbitraries.js';
import { sized } from '../support/stress.js';

// The chunked Markdown parse (runtime/plan/parse/chunks.ts) must be invisible: the IR of every
// text equals the IR of one whole-document remark parse, byte for byte. TINY cuts at every
// cut point the scanner offers, so each one is put to the test.
const TINY: ChunkLimits = { lines: 0, chars: 0 };

function expectSameAsWhole(text: string, limits?: ChunkLimits): void {
  const whole = parsePlanWith(text, 'PLAN.md', WHOLE_DOCUMENT);
  expect(limits ? parsePlanWith(text, 'PLAN.md', limits) : parsePlan(text, 'PLAN.md')).toEqual(whole);
}

/** Lines of each piece the parse accepted, and cut points it refused (tiny limits). */
function pieceStats(text: string): { pieces: number; refused: number } {
  const source = readSource(text);
  let starts: Set<number>;
  try {
    starts = new Set([...markdownPieces(source, TINY)].map((piece) => piece.line));
  } catch {
    return { pieces: 0, refused: 0 }; // micromark's development build asserts on a few inputs
  }
  const cuts = cutPoints(source);
  return { pieces: starts.size, refused: cuts.filter((cut) => !starts.has(cut)).length };
}

const SUITE = 'fixtures/plans';
const fixtures = [
  ...readdirSync(SUITE, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(SUITE, entry.name, 'input.md')),
  'fixtures/example/.leopold/PLAN.md',
];

describe('chunked parse equals the whole-document parse', () => {
  it.each(fixtures)('%s', (path) => {
    const text = readFileSync(path, 'utf8');
    expectSameAsWhole(text);
    expectSameAsWhole(text, TINY);
  });

  // Large enough that the default limits cut each plan several times (asserted below).
  it.each(
    sized(
      [
        [500, 1],
        [800, 2],
      ],
      [
        [1_000, 1],
        [2_000, 2],
        [3_000, 3],
      ],
    ),
  )('generated plan of %i items (seed %i)', (items, seed) => {
    const text = generatePlan(items, seed);
    const whole = parsePlanWith(text, 'PLAN.md', WHOLE_DOCUMENT);
    expect(whole.items).toHaveLength(items);
    expect(parsePlan(text, 'PLAN.md')).toEqual(whole);
    expect(parsePlanWith(text, 'PLAN.md', TINY)).toEqual(whole);
    // Default limits really cut a plan this size (or the test would prove nothing).
    expect([...markdownPieces(readSource(text), { lines: 200, chars: 16 * 1024 })].length).toBeGreaterThan(2);
  });

  it('small plans stay one piece', () => {
    const text = generatePlan(20);
    expect([...markdownPieces(readSource(text), { lines: 200, chars: 16 * 1024 })]).toHaveLength(1);
  });
});

// Lines that break naive cutting: fences and HTML holding headings and items, blockquotes,
// lazy continuations, tables, nested lists, setext underlines, footnotes, definitions, a
// BOM in mid-text. Cut candidates (`# …`, `- [ ] …` at column 0) and blank lines are drawn
// often, so the scanner offers many cuts and the openers have something to hide.
const CANDIDATES = ['# Heading', '## Phase 2', '###### six', '#\tTab', '#', '- [ ] item', '* [x] done', '+ [X] Done', '- [ ]', '- [x]foo', '- [ ] a | b'];
const OTHERS = [
  '#nospace', '####### seven', '-  [ ] two spaces', '1. [ ] ordered', '2. [ ] two', '10) [x] ten', '- plain bullet', '-',
  '  - [ ] nested', '    - [ ] deep', '\t- [ ] tab', '   * [ ] three',
  '```', '```js', '~~~', '````', '  ```', '   ~~~', '    ```', '``` `inline`', '  - ```', '> ```',
  '<!--', '-->', '<!-- one line -->', '<!-->', '<div>', '</div>', '<span>', '<script>', '</script>',
  '<pre>', '</pre>', '<?php', '?>', '<!DOCTYPE html>', '<![CDATA[', ']]>', '<textarea>', '  <div>', '- <!--',
  '> quote', '> - [ ] quoted', '>', '> # quoted heading', '>> deep',
  'lazy continuation text', 'text', '  indented text', '    indented code', '\tcode by tab',
  '| a | b |', '|---|---|', '| c | d |', 'a | b', '--- | ---', '-|-',
  '===', '---', '***', '- - -', '* * *',
  '[^1]: footnote', '    - [ ] in footnote', '[^1]', '[x]: /url', '[ref]: /u "title', 'title"', '[x]',
  '@on fail -> 2', '@emit k=v', '@gate sec', '(after: 1) text', '@scenario s',
  '\uFEFF# bom heading', '\uFEFF- [ ] bom item',
];
const line = fc.oneof(
  { arbitrary: fc.constantFrom(...CANDIDATES), weight: 3 },
  { arbitrary: fc.constantFrom('', '  '), weight: 2 },
  { arbitrary: fc.constantFrom(...OTHERS), weight: 4 },
);
const ENDINGS = ['\n', '\n', '\n', '\r\n', '\r'];
const adversarial = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(line, fc.constantFrom(...ENDINGS)), { maxLength: 60, size: 'max' }), fc.boolean())
  .map(([bom, lines, finalEnding]) => {
    const text = lines.map(([content, ending]) => content + ending).join('');
    return (bom ? '\uFEFF' : '') + (finalEnding ? text : text.replace(/(\r\n|\r|\n)$/, ''));
  });

describe('chunked parse on adversarial markdown', () => {
  const runs = sized(300, 1500);
  it('cut at every cut point, the IR equals the whole-document IR', () => {
    let pieces = 0;
    let refused = 0;
    fc.assert(
      fc.property(adversarial, (text) => {
        expectSameAsWhole(text, TINY);
        const stats = pieceStats(text);
        pieces += stats.pieces;
        refused += stats.refused;
      }),
      { numRuns: runs },
    );
    // The property must actually cut, and the parse's own check must sometimes refuse a
    // cut the scanner offered (a fence inside a list item, a table, …).
    expect(pieces).toBeGreaterThan(runs * 3);
    expect(refused).toBeGreaterThan(0);
  });

  it('holds on the fuzz grammar of plan-ish text too', () => {
    fc.assert(
      fc.property(planText, (text) => expectSameAsWhole(text, TINY)),
      { numRuns: sized(150, 500) },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { applyAmendments, judgeAmendments, parseAmendments } from '../../../runtime/amend/index.js';
import { parsePlan } from '../../../runtime/plan/parse/index.js';

const LINES = [
  '# Plan ✓',
  '',
  '- [ ] Build {#build}',
  '- [ ] @gate review Check it',
  '  @on fail -> 9',
  '  @on exit!=0 =>   #build   ',
  '- [ ] Ship',
];

function amend(text: string, lines: string[]) {
  const ir = parsePlan(text, 'PLAN.md');
  const { accepted, refused } = judgeAmendments(parseAmendments(['```leopold-amend', ...lines, '```'].join('\n')), {
    ir,
    used: 0,
    context: 'repair',
  });
  expect(refused).toEqual([]);
  return applyAmendments(text, ir, accepted);
}

/** Byte positions where two buffers differ (same length assumed where compared). */
function diffBytes(a: Buffer, b: Buffer): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) if (a[i] !== b[i]) out.push(i);
  return out;
}

describe('applyAmendments: ROUTE rewrites only the target', () => {
  for (const [name, eol, bom] of [
    ['LF', '\n', ''],
    ['CRLF', '\r\n', ''],
    ['BOM + CRLF', '\r\n', '\uFEFF'],
    ['BOM + LF, no final newline', '\n', '\uFEFF'],
  ] as const) {
    it(`leaves every other byte identical (${name})`, () => {
      const final = name.includes('no final') ? '' : eol;
      const text = bom + LINES.join(eol) + final;
      const out = amend(text, ['ROUTE 2 fail -> 3']);
      const expected = text.replace('@on fail -> 9', '@on fail -> 3');
      expect(out.text).toBe(expected);
      const before = Buffer.from(text, 'utf8');
      const after = Buffer.from(out.text, 'utf8');
      expect(after.length).toBe(before.length);
      expect(diffBytes(before, after)).toHaveLength(1);
      expect(out.rewrittenLines).toEqual([5]);
      expect(out.added).toEqual([]);
    });
  }

  it('keeps the spacing around a target written as an anchor, and may change its length', () => {
    const text = LINES.join('\n') + '\n';
    const out = amend(text, ['ROUTE 2 exit!=0 -> 3']);
    expect(out.text).toBe(text.replace('=>   #build   ', '=>   3   '));
  });

  it('fills a missing target', () => {
    const text = '- [ ] A\n- [ ] B\n  @on fail ->\n';
    const out = amend(text, ['ROUTE 2 fail -> 1']);
    expect(out.text).toBe('- [ ] A\n- [ ] B\n  @on fail -> 1\n');
  });
});

describe('applyAmendments: ADD appends at the end', () => {
  it('with a final newline (LF)', () => {
    const text = '- [ ] A\n- [ ] B\n';
    const out = amend(text, ['ADD (after: 1) Fix A', 'ADD Tidy up']);
    expect(out.text).toBe('- [ ] A\n- [ ] B\n- [ ] (after: 1) Fix A\n- [ ] Tidy up\n');
    expect(out.added).toEqual([3, 4]);
    const ir = parsePlan(out.text, 'PLAN.md');
    expect(ir.items.map((i) => [i.index, i.text, i.deps])).toEqual([
      [1, 'A', []],
      [2, 'B', []],
      [3, 'Fix A', [1]],
      [4, 'Tidy up', []],
    ]);
  });

  it('without a final newline: adds the file own line ending first (CRLF)', () => {
    const text = '\uFEFF- [ ] A {#a}\r\n- [ ] B';
    const out = amend(text, ['ADD (after: #a, 2) Fix B']);
    expect(out.text).toBe('\uFEFF- [ ] A {#a}\r\n- [ ] B\r\n- [ ] (after: #a, 2) Fix B\r\n');
    expect(parsePlan(out.text, 'PLAN.md').items[2]).toMatchObject({ text: 'Fix B', deps: [1, 2] });
  });

  it('the original bytes are a prefix of the result', () => {
    const text = '- [x] A\n\nSome prose at the end';
    const out = amend(text, ['ADD Follow up']);
    expect(out.text.startsWith(text)).toBe(true);
    expect(parsePlan(out.text, 'PLAN.md').items.map((i) => i.text)).toEqual(['A', 'Follow up']);
  });
});

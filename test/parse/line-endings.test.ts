import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../runtime/plan/parse/index.js';
import type { PlanIR } from '../../runtime/plan/schema.js';
import { covered } from './source-text.js';

const PLAN = [
  '# Plan',
  '',
  '@mystery before the first item',
  '- [ ] Build {#build}',
  '  @emit ready',
  '- [ ] (after: 1) @gate security Review it',
  '  carried over',
  '  @on fail -> 9',
  '  @on ok -> #build',
  '  @frob',
  '  1. [x] Ship',
  '     @needs ready',
  '* [ ] Star',
  '',
  '```',
  '- [ ] fenced',
  '@on fail -> 1',
  '```',
  '',
  '- [X] 日本語 🚀 last',
].join('\n');

/** The IR without offsets: what must not change with line endings or a BOM. */
function withoutOffsets(ir: PlanIR): unknown {
  return { ...ir, items: ir.items.map(({ checkOffset: _offset, ...rest }) => rest) };
}

function checkChars(text: string, ir: PlanIR): string[] {
  return ir.items.map((item) => text[item.checkOffset] ?? '');
}

describe('line endings, BOM and the final newline', () => {
  const lf = `${PLAN}\n`;
  const crlf = lf.replace(/\n/g, '\r\n');
  const cr = lf.replace(/\n/g, '\r');
  const bom = `\uFEFF${lf}`;
  const bomCrlfNoNewline = `\uFEFF${PLAN.replace(/\n/g, '\r\n')}`;
  const reference = parsePlan(lf, 'PLAN.md');

  it('parses the reference plan as expected', () => {
    expect(reference.items.map((i) => [i.index, i.line, i.text, i.done])).toEqual([
      [1, 4, 'Build', false],
      [2, 6, 'Review it carried over', false],
      [3, 11, 'Ship', true],
      [4, 13, 'Star', false],
      [5, 20, '日本語 🚀 last', true],
    ]);
    expect(reference.items[1]!.routes.map((r) => r.target)).toEqual([9, 1]);
    expect(reference.strays.map((s) => [s.reason, s.name, s.span.line])).toEqual([
      ['orphan', 'mystery', 3],
      ['unknown', 'frob', 10],
    ]);
    expect(reference.legacyItemLines).toEqual([4, 6, 16, 20]);
  });

  it.each([
    ['CRLF', crlf],
    ['lone CR', cr],
    ['BOM', bom],
    ['BOM + CRLF + no final newline', bomCrlfNoNewline],
    ['no final newline', PLAN],
  ])('%s gives the same IR as LF except offsets', (_name, text) => {
    expect(withoutOffsets(parsePlan(text, 'PLAN.md'))).toEqual(withoutOffsets(reference));
  });

  it.each([
    ['LF', lf],
    ['CRLF', crlf],
    ['lone CR', cr],
    ['BOM', bom],
    ['BOM + CRLF + no final newline', bomCrlfNoNewline],
  ])('%s: checkOffset is the checkbox character of the original text', (_name, text) => {
    const ir = parsePlan(text, 'PLAN.md');
    expect(checkChars(text, ir)).toEqual([' ', ' ', 'x', ' ', 'X']);
    for (const item of ir.items) expect(text.slice(item.checkOffset - 1, item.checkOffset + 2)).toMatch(/^\[[ xX]\]$/);
  });

  it('shifts offsets by one per CRLF line above the item, and by one for a BOM', () => {
    const offsets = (text: string) => parsePlan(text, 'p').items.map((i) => i.checkOffset);
    const lfOffsets = offsets(lf);
    expect(offsets(bom)).toEqual(lfOffsets.map((o) => o + 1));
    expect(offsets(crlf)).toEqual(parsePlan(lf, 'p').items.map((i) => i.checkOffset + i.line - 1));
  });

  it('does not count the BOM as a column on line 1', () => {
    const text = '\uFEFF- [ ] First\r\n  @on ok -> 1';
    const ir = parsePlan(text, 'PLAN.md');
    expect(ir.items[0]!.span).toEqual({ line: 1, column: 1, endLine: 2, endColumn: 14 });
    expect(ir.items[0]!.textSpan).toEqual({ line: 1, column: 7, endLine: 1, endColumn: 12 });
    expect(ir.items[0]!.checkOffset).toBe(4);
    expect(covered(text, ir.items[0]!.routes[0]!.span)).toBe('@on ok -> 1');
    expect(ir.items[0]!.routes[0]!.span).toEqual({ line: 2, column: 3, endLine: 2, endColumn: 14 });
  });

  it('keeps a text free of carriage returns when CRLF continuation lines are joined', () => {
    const ir = parsePlan('- [ ] one\r\n  two\r\n  three\r\n', 'p');
    expect(ir.items[0]!.text).toBe('one two three');
    expect(ir.items[0]!.textSpan).toEqual({ line: 1, column: 7, endLine: 3, endColumn: 8 });
  });

  it('strips only a leading BOM: a BOM inside the text is content', () => {
    const ir = parsePlan('\uFEFF\uFEFF- [ ] x\n', 'p');
    expect(ir.items).toEqual([]);
  });
});

describe('legacy numbering lines', () => {
  it('lists every line the old - [ ] rule matched, fenced ones included, others not', () => {
    const md = [
      '- [ ] one', // 1: both
      '  - [x] nested', // 2: both
      '* [ ] star', // 3: new rule only
      '1. [ ] numbered', // 4: new rule only
      '```', // 5
      '- [X] fenced', // 6: old rule only
      '```', // 7
      '> - [ ] quoted', // 8: neither
      '-  [ ] two spaces', // 9: new rule only
      '\t- [ ] tab indented', // 10
    ].join('\r\n');
    const ir = parsePlan(md, 'p');
    expect(ir.legacyItemLines).toEqual([1, 2, 6, 10]);
    expect(ir.items.map((i) => i.line)).toEqual([1, 2, 3, 4, 9, 10]);
  });

  it('is empty for a plan with no - [ ] lines', () => {
    expect(parsePlan('* [ ] only stars\n', 'p').legacyItemLines).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../runtime/plan/parse/index.js';
import { PlanIRSchema } from '../../runtime/plan/schema.js';
import { item as handBuilt } from '../support/plan-items.js';
import { at, covered } from './source-text.js';

const texts = (md: string) => parsePlan(md, 'PLAN.md').items.map((item) => item.text);

describe('items', () => {
  it('finds task items under every list marker, in document order', () => {
    const md = ['- [ ] dash', '* [ ] star', '+ [ ] plus', '', '1. [ ] dot', '', '7) [x] paren', ''].join('\n');
    const ir = parsePlan(md, 'PLAN.md');
    expect(PlanIRSchema.parse(ir)).toEqual(ir);
    expect(ir.file).toBe('PLAN.md');
    expect(ir.items.map((i) => [i.index, i.id, i.text, i.done, i.line])).toEqual([
      [1, 'i1', 'dash', false, 1],
      [2, 'i2', 'star', false, 2],
      [3, 'i3', 'plus', false, 3],
      [4, 'i4', 'dot', false, 5],
      [5, 'i5', 'paren', true, 7],
    ]);
  });

  it('reads [x] and [X] as done and [ ] as open', () => {
    const ir = parsePlan('- [x] a\n- [X] b\n- [ ] c\n', 'p');
    expect(ir.items.map((i) => i.done)).toEqual([true, true, false]);
  });

  it('counts nested items at any depth, parents before children', () => {
    const md = [
      '- [ ] top',
      '  - [ ] child',
      '    - [ ] grandchild',
      '      1. [x] great-grandchild',
      '- plain bullet',
      '  * [ ] under a plain bullet',
      '- [ ] top two',
    ].join('\n');
    expect(texts(md)).toEqual(['top', 'child', 'grandchild', 'great-grandchild', 'under a plain bullet', 'top two']);
    expect(parsePlan(md, 'p').items.map((i) => i.line)).toEqual([1, 2, 3, 4, 6, 7]);
  });

  it('ignores plain list items, prose and malformed checkboxes', () => {
    const md = '# Title\n\n- plain\n- [not a task]\n- []\n- [~] skipped\n- [ ]x\n\n[ ] not a list\n';
    expect(parsePlan(md, 'p').items).toEqual([]);
  });

  it('reads a bare checkbox with no text as an item, as the original Leopold does', () => {
    const items = parsePlan('- [ ]\n* [x] \n- [ ] real\n', 'p').items;
    expect(items.map((i) => [i.text, i.done, i.line])).toEqual([
      ['', false, 1],
      ['', true, 2],
      ['real', false, 3],
    ]);
  });

  it('reads a top-level checklist indented with a tab as items; four spaces stay code', () => {
    const tabbed = parsePlan('\t- [ ] one\n\t- [x] (after: 1) two\n\t  @on ok -> 1\n', 'p').items;
    expect(tabbed.map((i) => [i.text, i.done, i.deps, i.routes.length])).toEqual([
      ['one', false, [], 0],
      ['two', true, [1], 1],
    ]);
    expect(parsePlan('\tsome code\n\t- [ ] in it\n', 'p').items).toEqual([]);
    expect(parsePlan('    - [ ] four spaces\n', 'p').items).toEqual([]);
  });

  it('does not take task items from fenced code (``` and ~~~) or indented code', () => {
    const md = [
      '- [ ] real one',
      '',
      '```md',
      '- [ ] fenced backticks',
      '```',
      '',
      '~~~',
      '- [x] fenced tildes',
      '~~~',
      '',
      '    - [ ] indented code',
      '',
      '- [ ] real two',
    ].join('\n');
    expect(texts(md)).toEqual(['real one', 'real two']);
  });

  it('does not take task items from HTML blocks or comments', () => {
    const md = ['<!--', '- [ ] commented', '-->', '', '<div>', '- [ ] in html', '</div>', '', '- [ ] real'].join('\n');
    expect(texts(md)).toEqual(['real']);
  });

  it('does not take task items from blockquotes, at any quote depth', () => {
    const md = ['> - [ ] quoted', '', '> > - [x] deeper', '', '- [ ] real', '  > - [ ] quoted in an item'].join('\n');
    expect(texts(md)).toEqual(['real']);
  });

  it('points checkOffset at the character inside the brackets', () => {
    const md = '- [ ] a\n  - [x] b\n10. [X] c\n* [ ] d\n-\n  [ ] e\n';
    const ir = parsePlan(md, 'p');
    expect(ir.items.map((i) => md[i.checkOffset])).toEqual([' ', 'x', 'X', ' ', ' ']);
    expect(ir.items.map((i) => md.slice(i.checkOffset - 1, i.checkOffset + 2))).toEqual(['[ ]', '[x]', '[X]', '[ ]', '[ ]']);
    // "-" on its own line with the checkbox below: the item line is the checkbox line.
    expect(ir.items[4]?.line).toBe(6);
  });

  it('spans an item from its list marker to the end of its first paragraph', () => {
    const md = '- [ ] first line\n  second line\n\n  second paragraph\n  1. [ ] nested\n';
    const [outer, nested] = parsePlan(md, 'p').items;
    expect(at(outer!.span)).toBe('1:1-2:14');
    expect(covered(md, outer!.span)).toBe('- [ ] first line\n  second line');
    expect(at(nested!.span)).toBe('5:3-5:16');
    expect(covered(md, nested!.span)).toBe('1. [ ] nested');
  });

  it('gives an empty plan for empty or prose-only text', () => {
    expect(parsePlan('', 'p')).toEqual({ file: 'p', items: [], strays: [], legacyItemLines: [] });
    expect(parsePlan('Just prose.\n', 'p').items).toEqual([]);
  });

  it('fills every IR field of a plain item', () => {
    const ir = parsePlan('- [ ] Write the parser\n', 'plans/PLAN.md');
    // The shared hand-built item is, field for field, what the parser makes of a plain
    // `- [ ] <text>` line; only the checkbox's byte offset depends on the file around it.
    expect(ir.items[0]).toEqual(handBuilt(1, { text: 'Write the parser', checkOffset: 3 }));
  });
});

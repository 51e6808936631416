import { describe, expect, it } from 'vitest';
import { checkPlan } from '../../compiler/graph/index.js';
import { diag, plan, stray } from './factory.js';

describe('duplicate-anchor', () => {
  it('reports each later item reusing an anchor, naming the first owner', () => {
    const ir = plan([
      { text: 'A', anchor: 'build' },
      { text: 'B', anchor: 'build' },
      { text: 'C', anchor: 'other' },
      { text: 'D', anchor: 'build' },
    ]);
    expect(checkPlan(ir)).toEqual([
      diag('duplicate-anchor', 'error', [4, 7, 4, 8], 'item 2 ("B") reuses anchor "#build" of item 1 ("A"); expected each anchor to name one item', [1, 2]),
      diag('duplicate-anchor', 'error', [6, 7, 6, 8], 'item 4 ("D") reuses anchor "#build" of item 1 ("A"); expected each anchor to name one item', [1, 4]),
    ]);
  });

  it('accepts distinct anchors and items without one', () => {
    expect(checkPlan(plan([{ anchor: 'a' }, {}, { anchor: 'b' }, {}]))).toEqual([]);
  });
});

describe('empty-tool-command', () => {
  it('points at the @tool marker of a tool without a command, blank ones too', () => {
    const ir = plan([
      { text: '', kind: 'tool', command: '' },
      { text: 'x', kind: 'tool', command: '   ' },
    ]);
    const expected = 'is a @tool with an empty command; expected the command to run after @tool';
    expect(checkPlan(ir)).toEqual([
      diag('empty-tool-command', 'error', [3, 7, 3, 12], `item 1 ("") ${expected}`, [1]),
      diag('empty-tool-command', 'error', [4, 7, 4, 12], `item 2 ("x") ${expected}`, [2]),
    ]);
  });

  it('accepts a tool with a command and never asks other kinds for one', () => {
    expect(checkPlan(plan([{ text: 'npm test', kind: 'tool' }, { text: 'Review', kind: 'gate' }]))).toEqual([]);
  });
});

describe('unroutable-signal', () => {
  it('warns about status words and keys the source node never produces', () => {
    const ir = plan([
      { text: 'Do', on: [['pass', 2], ['done=yes', 2]] },
      { text: 'T', kind: 'tool', command: 'npm test', on: [['exit!=0', 3], ['ok', 3], ['status=1', 3]] },
      { text: 'G', kind: 'gate', emit: ['verdict'], on: [['pass', 4], ['verdict=x', 4], ['fail', 4], ['maybe', 4]] },
      { text: 'E' },
    ]);
    expect(checkPlan(ir)).toEqual([
      diag('unroutable-signal', 'warning', [4, 3, 4, 16], 'item 1 ("Do") routes on status "pass", which it never produces; expected one of ok, fail', [1]),
      diag('unroutable-signal', 'warning', [5, 3, 5, 20], 'item 1 ("Do") routes on "done=yes", but it emits no key "done"; it emits no keys', [1]),
      diag('unroutable-signal', 'warning', [9, 3, 9, 20], 'item 2 ("T") routes on "status=1", but it emits no key "status"; expected one of its keys: exit', [2]),
      diag('unroutable-signal', 'warning', [14, 3, 14, 17], 'item 3 ("G") routes on status "maybe", which it never produces; expected one of ok, fail, pass', [3]),
    ]);
  });

  it('accepts ok/fail everywhere, pass on judges, emitted keys and the implicit exit of a tool', () => {
    const ir = plan([
      { text: 'W', emit: ['format=json'], on: [['ok', 2], ['fail', 2], ['format=json', 2], ['format!=json', 2]] },
      { text: 'V', kind: 'verify', on: [['pass', 3], ['FAIL', 3], ['Pass', 3]] },
      { text: 'T', kind: 'tool', on: [['exit=0', 4], ['exit!=0', 4]] },
      { text: 'E' },
    ]);
    expect(checkPlan(ir)).toEqual([]);
  });
});

describe('dropped-dependency', () => {
  it('warns at each reference to itself, a later item, 0, an unknown anchor or a missing item', () => {
    const ir = plan([{ text: 'A', after: [1] }, { text: 'B', after: [3, 0, '#nope', 1, 9] }, { text: 'C' }]);
    const dropped = 'so the dependency was dropped; expected an earlier item';
    // A number past the last item: the hint says what the numbers are.
    const numbered = 'Items are numbered 1 to 3, counting every checkbox from the top, done ones too; name an earlier one by number or by its {#anchor}.';
    expect(checkPlan(ir)).toEqual([
      diag('dropped-dependency', 'warning', [3, 15, 3, 16], `item 1 ("A") depends on itself ("1"), ${dropped}`, [1]),
      diag('dropped-dependency', 'warning', [4, 15, 4, 16], `item 2 ("B") depends on "3", the later item 3 ("C"), ${dropped}`, [2]),
      { ...diag('dropped-dependency', 'warning', [4, 18, 4, 19], `item 2 ("B") depends on "0", which is not an item, ${dropped}`, [2]), hint: numbered },
      diag('dropped-dependency', 'warning', [4, 21, 4, 26], `item 2 ("B") depends on "#nope", which names no item, ${dropped}`, [2]),
      { ...diag('dropped-dependency', 'warning', [4, 31, 4, 32], `item 2 ("B") depends on "9", which is not an item, ${dropped}`, [2]), hint: numbered },
    ]);
  });

  it('treats a resolved index that is not an item like an unknown reference', () => {
    const ir = plan([{ text: 'A' }, { text: 'B', after: [1] }]);
    ir.items[1]!.depRefs[0]!.index = 7;
    ir.items[1]!.deps = [];
    expect(checkPlan(ir).map((d) => d.message)).toEqual([
      'item 2 ("B") depends on "1", which is not an item, so the dependency was dropped; expected an earlier item',
    ]);
  });

  it('accepts earlier items by number, #N and anchor, duplicates included', () => {
    expect(checkPlan(plan([{ anchor: 'a' }, { after: [1] }, { after: ['#a', '#2', 1, 1] }]))).toEqual([]);
  });
});

describe('orphan-marker and unknown-marker', () => {
  it('warns at stray marker lines the parser recorded', () => {
    const ir = plan([{ text: 'A' }], { strays: [stray('orphan', 'on', 1), stray('unknown', 'foo', 4, 1), stray('unknown', 'bar', 5)] });
    expect(checkPlan(ir)).toEqual([
      diag(
        'orphan-marker',
        'warning',
        [1, 1, 1, 14],
        'marker line "@on something" comes before the first item and was ignored; expected it below the item it belongs to',
      ),
      diag('unknown-marker', 'warning', [4, 1, 4, 15], 'unknown marker "@foo" under item 1 ("A") was ignored; expected a known marker', [1]),
      diag('unknown-marker', 'warning', [5, 1, 5, 15], 'unknown marker "@bar" was ignored; expected a known marker'),
    ]);
  });
});

describe('unknown-marker on a @node kind line', () => {
  it('names the unknown kind, or its absence, and the kinds there are', () => {
    const bad = (line: number, text: string, item: number) => ({
      ...stray('unknown', 'node', line, item),
      text,
      span: { line, column: 3, endLine: line, endColumn: 3 + text.length },
    });
    const ir = plan([{ text: 'A' }, { text: 'B' }], { strays: [bad(4, '@node', 1), bad(5, '@node robot arm', 2)] });
    const kinds = 'expected @node work, gate, verify, tool, human or feedback';
    expect(checkPlan(ir)).toEqual([
      diag('unknown-marker', 'warning', [4, 3, 4, 8], `unknown kind in "@node" under item 1 ("A") was ignored; ${kinds}`, [1]),
      diag('unknown-marker', 'warning', [5, 3, 5, 18], `unknown kind "robot" in "@node robot arm" under item 2 ("B") was ignored; ${kinds}`, [2]),
    ]);
  });
});

describe('numbering-changed', () => {
  const NOTE = 'expected the same lines, so (after: N) written for the old numbers may now name other items';

  it('stays quiet when the items are exactly the lines the old rule counted', () => {
    expect(checkPlan(plan([{}, {}, {}]))).toEqual([]);
  });

  it('gives one warning at the first item the old rule missed, naming both kinds of difference', () => {
    // Line 4 is a `* [ ]` item the old rule missed; line 9 a fenced `- [ ]` it counted.
    const ir = plan([{ text: 'A' }, { text: 'B' }, { text: 'C' }], { legacyItemLines: [3, 5, 9] });
    expect(checkPlan(ir)).toEqual([
      diag(
        'numbering-changed',
        'warning',
        [4, 1, 4, 8],
        `item numbers differ from the old "- [ ]" line rule from line 4 on (counted before but not items now: line 9; items now but not counted before: line 4); ${NOTE}`,
        [2, 3],
      ),
    ]);
  });

  it('points at a counted line that is no item when that is where the numberings part', () => {
    const ir = plan([{}, {}, {}], { legacyItemLines: [2, 3, 4, 5] });
    expect(checkPlan(ir)).toEqual([
      diag(
        'numbering-changed',
        'warning',
        [2, 1, 2, 1],
        `item numbers differ from the old "- [ ]" line rule from line 2 on (counted before but not items now: line 2); ${NOTE}`,
        [1, 2, 3],
      ),
    ]);
  });

  it('lists at most ten lines of each kind', () => {
    const ir = plan([{}], { legacyItemLines: [3, ...Array.from({ length: 12 }, (_, k) => 20 + k)] });
    expect(checkPlan(ir).map((d) => d.message)).toEqual([
      `item numbers differ from the old "- [ ]" line rule from line 20 on (counted before but not items now: lines 20, 21, 22, 23, 24, 25, 26, 27, 28, 29 and 2 more); ${NOTE}`,
    ]);
  });

  it('accompanies empty-plan when the old rule counted only fenced checkboxes', () => {
    expect(checkPlan(plan([], { legacyItemLines: [2] })).map((d) => [d.code, d.line, d.items])).toEqual([
      ['empty-plan', 1, []],
      ['numbering-changed', 2, []],
    ]);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../runtime/plan/parse/index.js';
import { checkPlan, reachableFrom, wavesOf } from '../../compiler/graph/index.js';

const EXAMPLE = new URL('../../fixtures/example/.leopold/PLAN.md', import.meta.url);

describe('through the real parser', () => {
  it('finds the routed example plan valid, with its waves and every item reachable', () => {
    const ir = parsePlan(readFileSync(EXAMPLE, 'utf8'), 'PLAN.md');
    expect(checkPlan(ir)).toEqual([]);
    expect(wavesOf(ir)).toEqual([['i2', 'i5', 'i6', 'i7', 'i8'], ['i3'], ['i4']]);
    expect([...reachableFrom(ir).items].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('points at the original CRLF positions of every problem in a broken plan', () => {
    const text = [
      '# P',
      '',
      '- [ ] A',
      '- [ ] (after: 1 3) @verify B',
      '  @on fail -> 1',
      '  @on maybe -> 9',
      '* [ ] C',
      '  @needs nothing',
      '',
    ].join('\r\n');
    const found = checkPlan(parsePlan(text, 'p.md')).map((d) => [d.line, d.column, d.code, d.severity, d.items, d.message]);
    expect(found).toEqual([
      [4, 17, 'dropped-dependency', 'warning', [2], 'item 2 ("B") depends on "3", the later item 3 ("C"), so the dependency was dropped; expected an earlier item'],
      [5, 3, 'cycle', 'error', [1, 2], 'item 1 ("A") leads back to itself: item 1 → item 2 → item 1; expected dependencies and routes never to return to an item'],
      [6, 3, 'dangling-edge', 'error', [2], 'item 2 ("B") routes "maybe" to "9", which is not an item; expected an item number from 1 to 3 or a known #anchor'],
      [6, 3, 'unroutable-signal', 'warning', [2], 'item 2 ("B") routes on status "maybe", which it never produces; expected one of ok, fail, pass'],
      [
        7,
        1,
        'numbering-changed',
        'warning',
        [3],
        'item numbers differ from the old "- [ ]" line rule from line 7 on (items now but not counted before: line 7); expected the same lines, so (after: N) written for the old numbers may now name other items',
      ],
      [8, 3, 'unmet-need', 'error', [3], 'item 3 ("C") needs key "nothing", which no item emits; expected an item with "@emit nothing"'],
    ]);
  });

  it('finds no error in a plain checklist', () => {
    const ir = parsePlan('- [x] One\n- [ ] (after: 1) Two\n- [ ] (after: 2 9) Three\n', 'p.md');
    expect(checkPlan(ir).map((d) => [d.code, d.severity])).toEqual([['dropped-dependency', 'warning']]);
    expect(wavesOf(ir)).toEqual([['i2'], ['i3']]);
  });
});

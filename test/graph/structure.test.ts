import { describe, expect, it } from 'vitest';
import { checkPlan } from '../../compiler/graph/index.js';
import { chain, diag, plan } from './factory.js';

const LOOP_EXPECTED = 'expected dependencies and routes never to return to an item';
const NEVER = 'expected every open item to become ready from the done items';

describe('empty-plan', () => {
  it('reports a plan without items at the top of the file', () => {
    expect(checkPlan(plan([]))).toEqual([
      diag('empty-plan', 'error', [1, 1, 1, 1], 'found no task items; expected at least one "- [ ]" item'),
    ]);
  });

  it('stays quiet when there is one item, even a done one', () => {
    expect(checkPlan(plan([{ done: true }]))).toEqual([]);
  });
});

describe('cycle', () => {
  it('names a self-loop and points at its route', () => {
    const ir = plan([{ text: 'Retry', on: [['fail', 1]] }]);
    expect(checkPlan(ir)).toEqual([
      diag('cycle', 'error', [4, 3, 4, 16], `item 1 ("Retry") leads back to itself: item 1 → item 1; ${LOOP_EXPECTED}`, [1]),
    ]);
  });

  it('names a two-item loop closed by a route, and reports nothing else about its members', () => {
    const ir = plan([{ text: 'Build' }, { text: 'Test', kind: 'verify', after: [1], on: [['fail', 1]] }]);
    expect(checkPlan(ir)).toEqual([
      diag(
        'cycle',
        'error',
        [5, 3, 5, 16],
        `item 1 ("Build") leads back to itself: item 1 → item 2 → item 1; ${LOOP_EXPECTED}`,
        [1, 2],
      ),
    ]);
  });

  it('names a loop mixing after and route edges in path order; what only the loop can dispatch is unreachable', () => {
    const ir = plan([
      { text: 'A' },
      { text: 'B', after: [1] },
      { text: 'C', kind: 'gate', after: [2], on: [['fail', 1], ['pass', 4]] },
      { text: 'D' },
    ]);
    expect(checkPlan(ir)).toEqual([
      diag('cycle', 'error', [6, 3, 6, 16], `item 1 ("A") leads back to itself: item 1 → item 2 → item 3 → item 1; ${LOOP_EXPECTED}`, [
        1, 2, 3,
      ]),
      diag(
        'unreachable',
        'error',
        [8, 7, 8, 8],
        `item 4 ("D") can never be dispatched: only routes can dispatch it and none of their sources (item 3) is ever reached; ${NEVER}`,
        [4],
      ),
    ]);
  });

  it('reports one diagnostic per strongly connected set, naming every member when the path is shorter', () => {
    const ir = plan([
      { text: 'Hub' },
      { text: 'Left', after: [1], on: [['fail', 1]] },
      { text: 'Right', after: [1], on: [['fail', 1]] },
    ]);
    expect(checkPlan(ir)).toEqual([
      diag(
        'cycle',
        'error',
        [5, 3, 5, 16],
        `item 1 ("Hub") leads back to itself: item 1 → item 2 → item 1 (items 1, 2, 3 all lie on loops through each other); ${LOOP_EXPECTED}`,
        [1, 2, 3],
      ),
    ]);
  });

  it('elides the middle of a long set of members', () => {
    const specs = Array.from({ length: 15 }, (_, at) => ({ text: `S${at + 1}`, ...(at > 0 ? { after: [1], on: [['fail', 1]] as [string, number][] } : {}) }));
    expect(checkPlan(plan(specs)).map((d) => d.message)).toEqual([
      `item 1 ("S1") leads back to itself: item 1 → item 2 → item 1 (items 1, 2, 3, 4, 5, 6, … 3 more …, 10, 11, 12, 13, 14, 15 all lie on loops through each other); ${LOOP_EXPECTED}`,
    ]);
  });

  it('reports two separate loops separately, in plan order', () => {
    const ir = plan([{ text: 'A', on: [['fail', 1]] }, { text: 'B' }, { text: 'C', after: [2], on: [['fail', 2]] }]);
    expect(checkPlan(ir).map((d) => [d.code, d.line, d.items])).toEqual([
      ['cycle', 4, [1]],
      ['cycle', 7, [2, 3]],
    ]);
  });

  it('accepts forward routes and a route back to a done item that is not upstream', () => {
    const ir = plan([{ text: 'Setup', done: true }, { text: 'Check', kind: 'gate', on: [['fail', 1], ['pass', 3]] }, { text: 'Ship' }]);
    expect(checkPlan(ir)).toEqual([]);
  });

  it('does not overflow on a 10,000-item chain closed by one route', () => {
    const specs = chain(10_000);
    specs[9_999] = { ...specs[9_999], on: [['fail', 1]] };
    const found = checkPlan(plan(specs));
    expect(found.map((d) => [d.code, d.items.length])).toEqual([['cycle', 10_000]]);
    expect(found[0]!.message).toBe(
      'item 1 ("Item 1") leads back to itself: item 1 → item 2 → item 3 → item 4 → item 5 → item 6 → … 9989 more … → item 9996 → item 9997 → item 9998 → item 9999 → item 10000 → item 1; expected dependencies and routes never to return to an item',
    );
  });
});

describe('dangling-edge', () => {
  it('points at every route whose target is not an item', () => {
    const ir = plan([
      { text: 'A', on: [['fail', 9]] },
      { text: 'B', on: [['ok', '']] },
      { text: 'C', on: [['ok', '#nope']] },
    ]);
    const expected = 'which is not an item; expected an item number from 1 to 3 or a known #anchor';
    expect(checkPlan(ir)).toEqual([
      diag('dangling-edge', 'error', [4, 3, 4, 16], `item 1 ("A") routes "fail" to "9", ${expected}`, [1]),
      diag('dangling-edge', 'error', [6, 3, 6, 12], `item 2 ("B") routes "ok" to no target, ${expected}`, [2]),
      diag('dangling-edge', 'error', [8, 3, 8, 18], `item 3 ("C") routes "ok" to "#nope", ${expected}`, [3]),
    ]);
  });

  it('accepts routes to an index, a #N and an anchor', () => {
    const ir = plan([{ text: 'A', on: [['fail', 2], ['ok', '#3']] }, { text: 'B', on: [['ok', '#c']] }, { text: 'C', anchor: 'c' }]);
    expect(checkPlan(ir)).toEqual([]);
  });
});

describe('unmet-need', () => {
  it('points at a needed key nobody emits; the tool exit key counts as emitted', () => {
    const ir = plan([{ text: 'A', needs: ['format', 'exit'] }, { text: 'Run', kind: 'tool', command: 'npm test' }]);
    expect(checkPlan(ir)).toEqual([
      diag('unmet-need', 'error', [4, 10, 4, 16], 'item 1 ("A") needs key "format", which no item emits; expected an item with "@emit format"', [1]),
    ]);
  });

  it('is satisfied by an emit anywhere in the plan, even a later or done item', () => {
    const ir = plan([{ text: 'Use', needs: ['format'] }, { text: 'Make', emit: ['format=json'] }]);
    expect(checkPlan(ir)).toEqual([]);
    expect(checkPlan(plan([{ text: 'Make', done: true, emit: ['format'] }, { text: 'Use', needs: ['format'] }]))).toEqual([]);
  });

  it('still names a done item whose need nothing emits, but never calls it unreachable', () => {
    expect(checkPlan(plan([{ text: 'Old', done: true, needs: ['gone'] }]))).toEqual([
      diag('unmet-need', 'error', [4, 10, 4, 14], 'item 1 ("Old") needs key "gone", which no item emits; expected an item with "@emit gone"', [1]),
    ]);
  });
});

describe('unreachable', () => {
  it('explains a dependency that is never reached, and leaves the unmet-need item to its own error', () => {
    const ir = plan([{ text: 'A', needs: ['x'] }, { text: 'B', after: [1] }]);
    expect(checkPlan(ir)).toEqual([
      diag('unmet-need', 'error', [4, 10, 4, 11], 'item 1 ("A") needs key "x", which no item emits; expected an item with "@emit x"', [1]),
      diag('unreachable', 'error', [5, 18, 5, 19], `item 2 ("B") can never be dispatched: its dependency item 1 is never reached; ${NEVER}`, [2]),
    ]);
  });

  it('explains a key emitted only by items that never run', () => {
    const ir = plan([{ text: 'Use', needs: ['k'] }, { text: 'Make', emit: ['k'], needs: ['z'] }]);
    expect(checkPlan(ir)).toEqual([
      diag(
        'unreachable',
        'error',
        [3, 7, 3, 10],
        `item 1 ("Use") can never be dispatched: needed key "k" is emitted only by items that are never reached; ${NEVER}`,
        [1],
      ),
      diag('unmet-need', 'error', [7, 10, 7, 11], 'item 2 ("Make") needs key "z", which no item emits; expected an item with "@emit z"', [2]),
    ]);
  });

  it('follows a route-gated chain from an item that never runs', () => {
    const ir = plan([{ text: 'A', needs: ['x'], on: [['ok', 2]] }, { text: 'B', on: [['ok', 3]] }, { text: 'C' }]);
    expect(checkPlan(ir).map((d) => [d.code, d.line, d.items, d.message])).toEqual([
      ['unmet-need', 5, [1], 'item 1 ("A") needs key "x", which no item emits; expected an item with "@emit x"'],
      [
        'unreachable',
        6,
        [2],
        `item 2 ("B") can never be dispatched: only routes can dispatch it and none of their sources (item 1) is ever reached; ${NEVER}`,
      ],
      [
        'unreachable',
        8,
        [3],
        `item 3 ("C") can never be dispatched: only routes can dispatch it and none of their sources (item 2) is ever reached; ${NEVER}`,
      ],
    ]);
  });

  it('never reports a done item, even one only an unreachable route leads to', () => {
    const ir = plan([{ text: 'A', needs: ['x'], on: [['ok', 2]] }, { text: 'B', done: true }]);
    expect(checkPlan(ir).map((d) => d.code)).toEqual(['unmet-need']);
  });

  it('accepts the routed example: a tool, a fix item, a gate and a rework item', () => {
    const ir = plan([
      { text: 'Setup', done: true, anchor: 'setup' },
      { text: 'Count', after: ['#setup'], emit: ['format=json'] },
      { text: 'npm test', kind: 'tool', after: [2], on: [['exit!=0', 4], ['exit=0', 5]] },
      { text: 'Fix', on: [['ok', 5]] },
      { text: 'Review', kind: 'gate', label: 'release', on: [['fail', 7], ['pass', 6]] },
      { text: 'Name it', kind: 'human', needs: ['format'] },
      { text: 'Rework' },
    ]);
    expect(checkPlan(ir)).toEqual([]);
  });
});

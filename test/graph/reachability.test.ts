import { describe, expect, it } from 'vitest';
import { reachableFrom } from '../../compiler/graph/index.js';
import { plan } from './factory.js';

const sorted = (set: Set<number>): number[] => [...set].sort((a, b) => a - b);

describe('reachableFrom', () => {
  it('reaches plain items through dependencies', () => {
    expect(sorted(reachableFrom(plan([{}, { after: [1] }, { after: [1, 2] }])).items)).toEqual([1, 2, 3]);
  });

  it('opens a route-gated item only through a route from a reached item', () => {
    const ir = plan([
      { text: 'Test', kind: 'tool', on: [['exit!=0', 2], ['exit=0', 3]] },
      { text: 'Fix', on: [['ok', 3]] },
      { text: 'Review', kind: 'gate', on: [['fail', 4]] },
      { text: 'Rework' },
    ]);
    const reach = reachableFrom(ir);
    expect([sorted(reach.items), [...reach.keys].sort()]).toEqual([[1, 2, 3, 4], ['exit']]);
  });

  it('does not let a self-route gate its own item', () => {
    expect(sorted(reachableFrom(plan([{ on: [['fail', 1]] }])).items)).toEqual([1]);
  });

  it('counts a need emitted by a done item', () => {
    const ir = plan([{ done: true, emit: ['format=json'] }, { needs: ['format'] }]);
    expect(sorted(reachableFrom(ir).items)).toEqual([1, 2]);
  });

  it('does not count a need emitted only by an item that is never reached', () => {
    const ir = plan([{ needs: ['k'] }, { emit: ['k'], needs: ['nobody'] }]);
    expect(sorted(reachableFrom(ir).items)).toEqual([]);
  });

  it('waits for every needed key, from different items', () => {
    const ir = plan([{ emit: ['a'] }, { needs: ['a', 'b'] }, { emit: ['b'], needs: ['c'] }]);
    expect(sorted(reachableFrom(ir).items)).toEqual([1]);
  });

  it('treats done items as reached even when nothing could dispatch them', () => {
    const ir = plan([{ needs: ['x'], on: [['ok', 2]] }, { done: true, on: [['ok', 3]] }, {}]);
    expect(sorted(reachableFrom(ir).items)).toEqual([2, 3]);
  });

  it('starts from a given done set instead of the checkboxes', () => {
    const ir = plan([{ needs: ['x'] }, { after: [1] }]);
    expect([sorted(reachableFrom(ir).items), sorted(reachableFrom(ir, [1]).items)]).toEqual([[], [1, 2]]);
  });

  it('ignores routes whose target is not an item', () => {
    expect(sorted(reachableFrom(plan([{ on: [['ok', 9]] }, {}])).items)).toEqual([1, 2]);
  });
});

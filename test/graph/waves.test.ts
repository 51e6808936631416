import { describe, expect, it } from 'vitest';
import { wavesOf } from '../../compiler/graph/index.js';
import { chain, plan } from './factory.js';

describe('wavesOf', () => {
  it('starts with the items whose dependencies are done and leaves done items out', () => {
    expect(wavesOf(plan([{ done: true }, { after: [1] }, { after: [2] }]))).toEqual([['i2'], ['i3']]);
  });

  it('layers a chain one item per wave', () => {
    expect(wavesOf(plan(chain(4)))).toEqual([['i1'], ['i2'], ['i3'], ['i4']]);
  });

  it('puts the two sides of a diamond in one wave', () => {
    expect(wavesOf(plan([{}, { after: [1] }, { after: [1] }, { after: [2, 3] }]))).toEqual([['i1'], ['i2', 'i3'], ['i4']]);
  });

  it('keeps plan order inside a wave', () => {
    expect(wavesOf(plan([{}, { after: [1] }, {}, { after: [1, 3] }, {}]))).toEqual([['i1', 'i3', 'i5'], ['i2', 'i4']]);
  });

  it('places an item after its deepest dependency', () => {
    expect(wavesOf(plan([{}, { after: [1] }, { after: [2] }, { after: [1, 3] }]))).toEqual([['i1'], ['i2'], ['i3'], ['i4']]);
  });

  it('treats a done dependency as satisfied even when it sits after an open one', () => {
    expect(wavesOf(plan([{}, { done: true, after: [1] }, { after: [2] }]))).toEqual([['i1', 'i3']]);
  });

  it('ignores routes and needs', () => {
    const ir = plan([{ text: 'Gate', kind: 'gate', on: [['fail', 3]] }, { needs: ['k'] }, { emit: ['k'] }]);
    expect(wavesOf(ir)).toEqual([['i1', 'i2', 'i3']]);
  });

  it('has no waves when everything is done or there is nothing', () => {
    expect(wavesOf(plan([{ done: true }, { done: true, after: [1] }]))).toEqual([]);
    expect(wavesOf(plan([]))).toEqual([]);
  });

  it('layers 10,000 chained items without recursion', () => {
    const waves = wavesOf(plan(chain(10_000)));
    expect([waves.length, waves[9_999]]).toEqual([10_000, ['i10000']]);
  });
});

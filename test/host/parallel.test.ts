import { describe, expect, it } from 'vitest';
import { resultOf, run } from './script.js';

const caught = (expression: string) =>
  `try { await ${expression}; return 'resolved'; } catch (e) { return [e instanceof Error, Object.isFrozen(e), e.name, e.message]; }`;

describe('parallel() (docs/host-contract.md)', () => {
  it('waits for every thunk, keeps order, and turns a throwing thunk into null', async () => {
    const result = await resultOf(`return await parallel([
      () => agent('a'),
      async () => { throw new Error('boom'); },
      () => { throw new Error('sync'); },
      () => agent('x', { effort: 'bogus' }),
      () => 42,
      async () => { await new Promise((r) => setTimeout(r, 5)); return 'late'; },
    ]);`);
    expect(result).toEqual(['ok', null, null, null, 42, 'late']);
  });

  it('throws a plain TypeError for a promise element or a non-function', async () => {
    expect(await resultOf(caught("parallel([() => 1, agent('started')])"))).toEqual([
      false, true, 'TypeError', 'parallel(): element 1 is a promise; pass a function that starts the work, () => agent(…)',
    ]);
    expect(await resultOf(caught("parallel([() => 1, 'text'])"))).toEqual([false, true, 'TypeError', 'parallel(): element 1 is not a function']);
    expect(await resultOf(caught('parallel(() => 1)'))).toEqual([false, true, 'TypeError', 'parallel(): expected an array of functions']);
  });

  it('refuses more than 4,096 thunks', async () => {
    expect(await resultOf('return (await parallel(Array(4096).fill(() => 1))).length;')).toBe(4096);
    expect(await resultOf(caught('parallel(Array(4097).fill(() => 1))'))).toEqual([
      false, true, 'RangeError', 'parallel(): 4097 elements; arrays crossing the host boundary hold at most 4096',
    ]);
  });
});

describe('pipeline() (docs/host-contract.md)', () => {
  it('calls each stage with (prev, item, index) and keeps order', async () => {
    const result = await resultOf(`return await pipeline(['a', 'b', 'c'],
      (prev, item, index) => prev + index,
      async (prev, item, index) => { await new Promise((r) => setTimeout(r, 30 - index * 10)); return [prev, item, index]; });`);
    expect(result).toEqual([['a0', 'a', 0], ['b1', 'b', 1], ['c2', 'c', 2]]);
  });

  it('skips the remaining stages after a null and makes a throwing item null', async () => {
    const outcome = await run(`const reached = [];
      const out = await pipeline([1, 2, 3],
        (prev) => (prev === 2 ? null : prev * 10),
        (prev, item) => { reached.push(item); if (item === 3) throw new Error('no'); return prev + 1; },
        (prev, item) => { reached.push('last ' + item); return prev; });
      return { out, reached };`);
    expect(outcome.result).toEqual({ out: [11, null, null], reached: [1, 3, 'last 1'] });
  });

  it('runs agents through stages and passes items through with no stages', async () => {
    const outcome = await run("return [await pipeline(['x', 'y'], (prev) => agent('review ' + prev)), await pipeline([1, 2])];");
    expect(outcome.result).toEqual([['ok', 'ok'], [1, 2]]);
    expect(outcome.journal.map((call) => call.prompt)).toEqual(['review x', 'review y']);
  });

  it('throws plain errors on a bad input or stage, and more than 4,096 items', async () => {
    expect(await resultOf(caught("pipeline('abc', (p) => p)"))).toEqual([false, true, 'TypeError', 'pipeline(): expected an array of items']);
    expect(await resultOf(caught("pipeline([1], (p) => p, 'stage')"))).toEqual([false, true, 'TypeError', 'pipeline(): stage 2 is not a function']);
    expect(await resultOf(caught('pipeline(Array(4097).fill(1), (p) => p)'))).toEqual([
      false, true, 'RangeError', 'pipeline(): 4097 elements; arrays crossing the host boundary hold at most 4096',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { routeDecision, routeMatches, nextWave, hasGraph, type NodeOutcome } from '../../../runtime/run/index.js';
import { emptyState, type RoutingMemory as RoutingState } from '../../../runtime/state/index.js';
import type { PlanItem } from '../../../runtime/plan/schema.js';
import { emit, item, need, route as on } from '../../support/plan-items.js';

const fresh = (): RoutingState => emptyState().routing;

/** Runs the loop: dispatch next[0], finish it with the scripted outcome, until complete. */
function drive(items: PlanItem[], outcomes: Record<number, Omit<NodeOutcome, 'index'>>) {
  const order: number[] = [];
  let step = routeDecision({ items, routing: fresh() });
  while (step.next.length > 0) {
    const index = step.next[0]!;
    order.push(index);
    step = routeDecision({ items, routing: step.routing, finished: { index, ...(outcomes[index] ?? { status: 'ok' }) } });
  }
  return { order, last: step };
}

describe('route conditions', () => {
  it('status: ok and pass match success, fail matches failure, other words verbatim', () => {
    expect(routeMatches(on('ok', 2), 'ok', {})).toBe(true);
    expect(routeMatches(on('ok', 2), 'pass', {})).toBe(true);
    expect(routeMatches(on('pass', 2), 'ok', {})).toBe(true);
    expect(routeMatches(on('fail', 2), 'fail', {})).toBe(true);
    expect(routeMatches(on('fail', 2), 'ok', {})).toBe(false);
    expect(routeMatches(on('ok', 2), 'fail', {})).toBe(false);
    expect(routeMatches(on('blocked', 2), 'blocked', {})).toBe(true);
    expect(routeMatches(on('blocked', 2), 'fail', {})).toBe(false);
    expect(routeMatches(on('OK', 2), 'ok', {})).toBe(true);
  });

  it('signal: = and != compare the source signal', () => {
    expect(routeMatches(on('exit=0', 2), 'ok', { exit: '0' })).toBe(true);
    expect(routeMatches(on('exit=0', 2), 'ok', { exit: '1' })).toBe(false);
    expect(routeMatches(on('exit!=0', 2), 'fail', { exit: '1' })).toBe(true);
    expect(routeMatches(on('exit!=0', 2), 'fail', { exit: '0' })).toBe(false);
  });

  it('an absent key makes both = and != false', () => {
    expect(routeMatches(on('exit=0', 2), 'ok', {})).toBe(false);
    expect(routeMatches(on('exit!=0', 2), 'ok', {})).toBe(false);
    expect(routeMatches(on('verdict!=bad', 2), 'ok', { other: 'x' })).toBe(false);
  });
});

describe('routeDecision', () => {
  it('plain checklist: ascending index, then plan_complete', () => {
    const items = [item(1), item(2, { deps: [1] }), item(3)];
    const { order, last } = drive(items, {});
    expect(order).toEqual([1, 2, 3]);
    expect(last.complete).toEqual({ reason: 'plan_complete', stranded: [], routedAround: [], failed: [], waiting: [] });
  });

  it('status routes: a failing gate takes its fail route; the ok branch is routed around', () => {
    const items = [item(1, { kind: 'gate', routes: [on('pass', 2), on('fail', 3)] }), item(2), item(3)];
    const { order, last } = drive(items, { 1: { status: 'fail' } });
    expect(order).toEqual([1, 3]);
    expect(last.complete?.reason).toBe('routed_complete');
    expect(last.complete?.routedAround).toEqual([2]);
    expect(last.complete?.failed).toEqual([1]);
    expect(last.routing.taken).toEqual([{ from: 1, route: 1, to: 3, when: 'fail' }]);
  });

  it('signal routes read the source @tool exit, sent whatever the status', () => {
    const items = [item(1, { kind: 'tool', routes: [on('exit=0', 2), on('exit!=0', 3)] }), item(2), item(3)];
    const step = routeDecision({ items, routing: fresh(), finished: { index: 1, status: 'fail', signals: { exit: '2' } } });
    expect(step.taken.map((t) => t.to)).toEqual([3]);
    expect(step.next).toEqual([3]);
    expect(step.routing.signals['1']).toEqual({ exit: '2' });
    expect(step.routing.channel).toEqual({ exit: '2' });
  });

  it('@emit keys are sent on success only; an absent key takes neither = nor !=', () => {
    const items = [
      item(1, { emits: [emit('verdict', 'good')], routes: [on('verdict=good', 2), on('verdict!=good', 3)] }),
      item(2),
      item(3),
    ];
    const ok = routeDecision({ items, routing: fresh(), finished: { index: 1, status: 'ok' } });
    expect(ok.taken.map((t) => t.to)).toEqual([2]);
    const failed = routeDecision({ items, routing: fresh(), finished: { index: 1, status: 'fail' } });
    expect(failed.taken).toEqual([]);
    expect(failed.next).toEqual([]);
    expect(failed.complete).toMatchObject({ reason: 'routed_complete', routedAround: [2, 3] });
  });

  it('a reported value for a declared @emit key wins; undeclared keys are ignored', () => {
    const items = [item(1, { emits: [emit('verdict', 'good')], routes: [on('verdict=bad', 2)] }), item(2)];
    const step = routeDecision({
      items,
      routing: fresh(),
      finished: { index: 1, status: 'ok', signals: { verdict: 'bad', sneaky: 'x' } },
    });
    expect(step.taken.map((t) => t.to)).toEqual([2]);
    expect(step.routing.channel).toEqual({ verdict: 'bad' });
  });

  it('fan-out: every matching route is taken, in declaration order', () => {
    const items = [item(1, { routes: [on('ok', 3), on('fail', 2), on('pass', 4)] }), item(2), item(3), item(4)];
    const step = routeDecision({ items, routing: fresh(), finished: { index: 1, status: 'ok' } });
    expect(step.taken.map((t) => t.to)).toEqual([3, 4]);
    expect(step.next).toEqual([3, 4]);
  });

  it('routed targets come first, in the order taken, then other eligible items ascending', () => {
    const items = [
      item(1, { routes: [on('ok', 5), on('ok', 4)] }),
      item(2),
      item(3),
      item(4),
      item(5),
    ];
    const step = routeDecision({ items, routing: fresh(), finished: { index: 1, status: 'ok' } });
    expect(step.next).toEqual([5, 4, 2, 3]);
  });

  it('latching: a taken route is never un-taken, even when its source finishes again differently', () => {
    const items = [item(1, { routes: [on('fail', 2), on('ok', 3)] }), item(2), item(3)];
    const first = routeDecision({ items, routing: fresh(), finished: { index: 1, status: 'fail' } });
    expect(first.taken).toHaveLength(1);
    const again = routeDecision({ items, routing: first.routing, finished: { index: 1, status: 'ok' } });
    expect(again.routing.taken.map((t) => t.to)).toEqual([2, 3]);
    expect(again.taken.map((t) => t.to)).toEqual([3]); // only the new one is reported
    expect(again.next).toEqual([2, 3]);
    // The same outcome twice latches nothing twice.
    const thrice = routeDecision({ items, routing: again.routing, finished: { index: 1, status: 'fail' } });
    expect(thrice.taken).toEqual([]);
    expect(thrice.routing.taken).toHaveLength(2);
    // The input state is never mutated.
    expect(first.routing.taken).toHaveLength(1);
  });

  it('@needs waits for the key on the channel from a completed node', () => {
    const items = [item(1, { needs: [need('schema')] }), item(2, { emits: [emit('schema', 'v2')] })];
    const start = routeDecision({ items, routing: fresh() });
    expect(start.next).toEqual([2]);
    const after = routeDecision({ items, routing: start.routing, finished: { index: 2, status: 'ok' } });
    expect(after.routing.channel).toEqual({ schema: 'v2' });
    expect(after.next).toEqual([1]);
  });

  it('a need whose only emitter failed strands the item', () => {
    const items = [item(1, { emits: [emit('schema')] }), item(2, { needs: [need('schema')] })];
    const step = routeDecision({ items, routing: fresh(), finished: { index: 1, status: 'fail' } });
    expect(step.complete).toMatchObject({ reason: 'routed_complete', stranded: [2], failed: [1] });
  });

  it('a failed dependency strands its dependents', () => {
    const items = [item(1), item(2, { deps: [1] }), item(3, { deps: [2] })];
    const step = routeDecision({ items, routing: fresh(), finished: { index: 1, status: 'fail' } });
    expect(step.next).toEqual([]);
    expect(step.complete).toMatchObject({ reason: 'routed_complete', stranded: [2, 3] });
  });

  it('a route-gated node needs its deps too', () => {
    const items = [item(1, { routes: [on('ok', 3)] }), item(2), item(3, { deps: [2] })];
    const step = routeDecision({ items, routing: fresh(), finished: { index: 1, status: 'ok' } });
    expect(step.next).toEqual([2]);
    const after = routeDecision({ items, routing: step.routing, finished: { index: 2, status: 'ok' } });
    expect(after.next).toEqual([3]);
  });

  it('a ticked item with no recorded outcome counts as finished ok and takes its ok routes', () => {
    const items = [item(1, { done: true, routes: [on('ok', 2), on('fail', 3)], emits: [emit('k')] }), item(2), item(3)];
    const step = routeDecision({ items, routing: fresh() });
    expect(step.next).toEqual([2]);
    expect(step.routing.statuses).toEqual({ '1': 'ok' });
    expect(step.routing.channel).toEqual({ k: 'true' });
  });

  it('a self-route does not gate its own node; dangling targets are ignored', () => {
    const items = [item(1, { routes: [on('fail', 1), on('ok', 0), on('ok', 9)] }), item(2)];
    const step = routeDecision({ items, routing: fresh() });
    expect(step.next).toEqual([1, 2]);
    const after = routeDecision({ items, routing: step.routing, finished: { index: 1, status: 'ok' } });
    expect(after.taken).toEqual([]);
  });

  it('items waiting on each other are a deadlock', () => {
    const items = [item(1, { needs: [need('a')], emits: [emit('b')] }), item(2, { needs: [need('b')], emits: [emit('a')] })];
    const step = routeDecision({ items, routing: fresh() });
    expect(step.complete).toMatchObject({ reason: 'deadlock', waiting: [1, 2] });
  });

  it('an unknown finished index is a programming error', () => {
    expect(() => routeDecision({ items: [item(1)], routing: fresh(), finished: { index: 7, status: 'ok' } })).toThrow(RangeError);
  });
});

describe('waves', () => {
  it('next wave: open items whose deps are done, plan order', () => {
    const items = [item(1, { done: true }), item(2, { deps: [1] }), item(3, { deps: [2] }), item(4)];
    expect(nextWave(items)).toEqual([2, 4]);
    expect(nextWave(items, new Set([2]))).toEqual([4]);
  });

  it('hasGraph tells the routed loop from the wave loop', () => {
    expect(hasGraph([item(1), item(2, { deps: [1] })])).toBe(false);
    expect(hasGraph([item(1, { kind: 'gate' })])).toBe(true);
    expect(hasGraph([item(1, { needs: [need('x')] })])).toBe(true);
  });
});

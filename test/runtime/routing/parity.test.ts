import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reachableFrom } from '../../../compiler/graph/reachability.js';
import type { PlanIR, PlanItem } from '../../../runtime/plan/schema.js';
import { routeDecision } from '../../../runtime/run/index.js';
import { emptyState } from '../../../runtime/state/index.js';
import { emit, item, need, route as on } from '../../support/plan-items.js';

// Small random graphs: deps on earlier items, routes on status or a signal, emits and needs
// over a tiny key set, and a scripted outcome per node.
const KEYS = ['a', 'b'];
const graph = fc.integer({ min: 1, max: 7 }).chain((n) =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) =>
      fc.record({
        done: fc.boolean(),
        kind: fc.constantFrom('work', 'gate', 'tool') as fc.Arbitrary<PlanItem['kind']>,
        deps: fc.subarray(Array.from({ length: i }, (_, d) => d + 1)),
        routes: fc.array(
          fc.tuple(fc.constantFrom('ok', 'fail', 'pass', 'a=true', 'a!=true', 'exit=0', 'exit!=0'), fc.integer({ min: 0, max: n + 1 })),
          { maxLength: 2 },
        ),
        emits: fc.subarray(KEYS),
        needs: fc.subarray(KEYS, { maxLength: 1 }),
        status: fc.constantFrom('ok', 'fail', 'pass'),
        exit: fc.constantFrom('0', '1'),
      }),
    ),
  ),
);

describe('routeDecision agrees with the compiler reachability fix-point', () => {
  it('never dispatches an item the compiler calls unreachable, and always terminates', () => {
    fc.assert(
      fc.property(graph, (specs) => {
        const items = specs.map((s, i) =>
          item(i + 1, {
            done: s.done,
            kind: s.kind,
            deps: s.deps,
            routes: s.routes.map(([when, target]) => on(when, target)),
            emits: s.emits.map((k) => emit(k)),
            needs: s.needs.map(need),
          }),
        );
        const ir: PlanIR = { file: 'PLAN.md', items, strays: [], legacyItemLines: [] };
        const reachable = reachableFrom(ir).items;
        let step = routeDecision({ items, routing: emptyState().routing });
        const dispatched: number[] = [];
        for (let guard = 0; step.next.length > 0; guard += 1) {
          expect(guard).toBeLessThan(items.length + 1);
          const index = step.next[0]!;
          dispatched.push(index);
          const spec = specs[index - 1]!;
          step = routeDecision({
            items,
            routing: step.routing,
            finished: { index, status: spec.status, signals: spec.kind === 'tool' ? { exit: spec.exit } : {} },
          });
        }
        for (const index of dispatched) expect(reachable.has(index)).toBe(true);
        expect(step.complete).not.toBeNull();
      }),
      { numRuns: 500 },
    );
  });
});

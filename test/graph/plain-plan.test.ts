import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPlan, reachableFrom, wavesOf } from '../../compiler/graph/index.js';
import { plan, stray, type ItemSpec } from './factory.js';

/**
 * docs/plan-language.md: a plan with no route, emit, needs or non-work kind can never produce an
 * error beyond empty-plan, whatever its dependencies, strays or old numbering.
 */
const plainPlan = fc.integer({ min: 0, max: 25 }).chain((count) =>
  fc.record({
    specs: fc.array(
      fc.record({
        done: fc.boolean(),
        after: fc.array(fc.oneof(fc.integer({ min: -1, max: count + 2 }), fc.constantFrom('#a1', '#a5', '#missing', '#3')), {
          maxLength: 4,
        }),
        withAnchor: fc.boolean(),
        writes: fc.array(fc.constantFrom('src/**', 'src/a.ts', '*.md', 'docs/{a,b}.md'), { maxLength: 2 }),
      }),
      { minLength: count, maxLength: count },
    ),
    strays: fc.array(
      fc.record({ reason: fc.constantFrom('orphan' as const, 'unknown' as const), line: fc.integer({ min: 1, max: 200 }) }),
      { maxLength: 3 },
    ),
    legacyShift: fc.integer({ min: -2, max: 2 }),
  }),
);

describe('plain plans', () => {
  it('never produce an error beyond empty-plan (property)', () => {
    fc.assert(
      fc.property(plainPlan, ({ specs, strays, legacyShift }) => {
        const items: ItemSpec[] = specs.map((spec, at) => ({
          done: spec.done,
          after: spec.after,
          writes: spec.writes,
          ...(spec.withAnchor ? { anchor: `a${at + 1}` } : {}),
        }));
        const lines = plan(items).items.map((item) => item.line);
        const legacy = legacyShift >= 0 ? [1, ...lines].slice(legacyShift) : lines.slice(0, lines.length + legacyShift);
        const ir = plan(items, {
          strays: strays.map((s) => stray(s.reason, 'zap', s.line, s.reason === 'unknown' && items.length > 0 ? 1 : null)),
          legacyItemLines: legacy,
        });
        const errors = checkPlan(ir).filter((d) => d.severity === 'error');
        expect(errors.map((d) => d.code)).toEqual(items.length === 0 ? ['empty-plan'] : []);
        // And every open item runs: the fix-point reaches all, the waves place all.
        expect(reachableFrom(ir).items.size).toBe(items.length);
        expect(wavesOf(ir).flat().length).toBe(ir.items.filter((item) => !item.done).length);
      }),
      { numRuns: 500 },
    );
  });
});

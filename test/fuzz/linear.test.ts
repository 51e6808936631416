import fc from 'fast-check';
import { Graph } from '@dagrejs/graphlib';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { analyzePlan } from '../../compiler/index.js';
import { generatePlan } from '../../bench/plans.js';
import { planTextWith } from './arbitraries.js';

// "Never more than linear time", checked without a clock (tests never assert on time):
// while analyzePlan runs, the scanning built-ins are wrapped to add up the elements or
// characters each call can visit (Array search/iteration by length, String search from
// its start index to the hit, split/replace/match by length) plus one per graphlib call.
// That sum is deterministic. Parsing 4n copies of a plan instead of n must grow the sum
// by well under the 16x a quadratic step would give.
// Blind spots, on purpose: Array.prototype.slice is not counted (micromark's EditMap and
// splice buffers re-slice event lists, which this weight would call super-linear although
// remark's time is not); loops written as plain `for` over indices are invisible; and
// @writes is left out of the random plans, because write-scope-overlap compares the
// scopes of one wave pairwise, which is quadratic in @writes items per wave by nature.
// The timing side lives in bench/parse.bench.ts.

type Fn = (this: unknown, ...args: unknown[]) => unknown;
let work = 0;

function lengthOf(self: unknown): number {
  const n = (self as { length?: unknown }).length;
  return typeof n === 'number' ? n : 0;
}

/** Weight: the whole receiver. */
const whole = (self: unknown): number => lengthOf(self);
/** Weight: from the start index to the hit (or the end), for indexOf-style searches. */
function forward(self: unknown, args: unknown[], result: unknown): number {
  const len = lengthOf(self);
  const raw = typeof args[1] === 'number' ? Math.trunc(args[1]) : 0;
  const from = raw < 0 ? Math.max(0, len + raw) : Math.min(raw, len);
  const hit = typeof result === 'number' && result >= 0 ? result + 1 : len;
  return Math.max(1, hit - from);
}

const WRAPPED: [object, string, (self: unknown, args: unknown[], result: unknown) => number][] = [
  ...['find', 'findIndex', 'findLast', 'findLastIndex', 'filter', 'some', 'every', 'map', 'forEach', 'reduce', 'flatMap', 'join', 'lastIndexOf']
    .map((m): [object, string, typeof whole] => [Array.prototype, m, whole]),
  [Array.prototype, 'indexOf', forward],
  [Array.prototype, 'includes', (self, args) => lengthOf(self) - (typeof args[1] === 'number' ? Math.max(0, args[1]) : 0)],
  ...['split', 'replace', 'replaceAll', 'match', 'matchAll', 'search', 'lastIndexOf'].map((m): [object, string, typeof whole] => [String.prototype, m, whole]),
  [String.prototype, 'indexOf', forward],
  [String.prototype, 'includes', (self, args) => lengthOf(self) - (typeof args[1] === 'number' ? Math.max(0, args[1]) : 0)],
  ...Object.getOwnPropertyNames(Graph.prototype)
    .filter((m) => m !== 'constructor' && typeof (Graph.prototype as unknown as Record<string, unknown>)[m] === 'function')
    .map((m): [object, string, typeof whole] => [Graph.prototype, m, () => 1]),
];

/** Runs `fn` with the counters on and returns the work it did. */
function measure(fn: () => void): number {
  const saved: [object, string, Fn][] = [];
  for (const [target, name, weigh] of WRAPPED) {
    const original = (target as Record<string, Fn>)[name] as Fn;
    saved.push([target, name, original]);
    (target as Record<string, Fn>)[name] = function (this: unknown, ...args: unknown[]) {
      const result = Reflect.apply(original, this, args);
      work += weigh(this, args, result);
      return result;
    };
  }
  work = 0;
  try {
    fn();
  } finally {
    for (const [target, name, original] of saved) (target as Record<string, Fn>)[name] = original;
  }
  return work;
}

const bareRemark = unified().use(remarkParse).use(remarkGfm);
const copies = (text: string, n: number): string => `${text}\n`.repeat(n);
/** Growth of the work from n to 4n copies. Linear is about 4; quadratic about 16. */
function growth(text: string, n: number, run: (t: string) => void): number {
  const small = measure(() => run(copies(text, n)));
  const large = measure(() => run(copies(text, 4 * n)));
  return large / Math.max(1, small);
}

const analyze = (t: string): void => void analyzePlan(t, 'PLAN.md');
const remarkOnly = (t: string): void => void bareRemark.parse(t);

describe('work grows linearly with the plan', () => {
  it('the counter sees a quadratic loop (self-check)', () => {
    const quadratic = (t: string): void => {
      const lines = t.split('\n');
      lines.forEach(() => lines.includes('\u0000'));
    };
    expect(growth(generatePlan(50), 2, quadratic)).toBeGreaterThan(12);
    expect(growth(generatePlan(50), 2, remarkOnly)).toBeLessThan(6);
  });

  it('generated realistic plans: 500 -> 2,000 items', () => {
    expect(growth(generatePlan(100), 5, analyze)).toBeLessThan(6);
  });

  it('every item refers to a slip of a distinct anchor: one dangling-edge naming it each, still linear', () => {
    const slips = (n: number): string =>
      Array.from({ length: n }, (_, i) => `- [ ] Step ${i} {#step-${i}-done}\n  @on fail -> #setp-${i}-done\n`).join('');
    const small = measure(() => analyze(slips(300)));
    const large = measure(() => analyze(slips(1_200)));
    expect(large / small).toBeLessThan(6);
    expect(analyzePlan(slips(3), 'PLAN.md').diagnostics.map((d) => [d.code, d.hint])).toEqual(
      [0, 1, 2].map((i) => ['dangling-edge', `Did you mean "#step-${i}-done"? Item ${i + 1} is {#step-${i}-done}.`]),
    );
  });

  it('item texts full of dependency markers that are not read (misspelt, unclosed, misplaced): still linear', () => {
    const text = (n: number): string =>
      `- [ ] Build {#build}\n- [ ] Write it${' (after: 1) and (afer: #build) and (deps 1'.repeat(n)}\n- [ ] (afer: #build)${' (after: #build)'.repeat(n)}\n- [ ] (after: #build Write it${' and 1 #build'.repeat(n)}\n`;
    const small = measure(() => analyze(text(300)));
    const large = measure(() => analyze(text(1_200)));
    expect(large / small).toBeLessThan(6);
    expect(analyzePlan(text(2), 'PLAN.md').diagnostics.map((d) => d.code)).toEqual(['did-you-mean', 'did-you-mean', 'did-you-mean']);
  });

  it('random plan-ish markdown repeated n and 4n times', () => {
    fc.assert(
      fc.property(planTextWith({ writes: false }), (text) => {
        // Tiny inputs have fixed costs that hide the slope; repeat until there is enough.
        const n = Math.max(8, Math.ceil(3_000 / Math.max(1, text.length)));
        const g = growth(text, n, analyze);
        expect(g).toBeLessThan(6);
      }),
      {
        numRuns: Math.ceil(Number(process.env.FUZZ_RUNS ?? 60) / 3),
        // Found in CI: a reference that names no anchor, beside many copies of one anchor,
        // was matched against every anchor for its did-you-mean (growth 13 for 4x).
        examples: [['- [ ] (after:#build0, )  {#build}']],
      },
    );
  });
});

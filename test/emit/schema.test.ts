import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CompiledPlanSchema,
  GraphNodeSchema,
  stableStringify,
  type CompiledPlan,
  type GraphNode,
} from '../../compiler/emit/schema.js';
import { embeddedPlanJson, renderWorkflowArgs, scriptHead, WorkflowArgsSchema } from '../../compiler/emit/index.js';

const node: GraphNode = {
  id: 'i2',
  index: 2,
  text: 'Run the tests',
  kind: 'tool',
  label: null,
  command: 'npm test',
  deps: [1],
  needs: ['built'],
  emits: [{ key: 'suite', value: 'unit' }],
  routes: [
    { when: 'exit!=0', kind: 'signal', key: 'exit', op: '!=', value: '0', target: 3 },
    { when: 'ok', kind: 'status', target: 4 },
  ],
  scenarios: [],
  writes: [],
  done: false,
  effort: 'medium',
  critical: false,
  sensitive: false,
};

const plan: CompiledPlan = {
  version: 3,
  source: { plan: '.leopold/PLAN.md', sha256: 'a'.repeat(64) },
  mission: 'Ship the tally CLI.',
  charter: '# Charter\nNever push.',
  charterRules: ['Never push.'],
  maxReviewRounds: 2,
  autonomy: 'full',
  limits: { maxIterations: 50, maxFailures: 3, maxNoProgress: 6 },
  items: [node],
  waves: [[1]],
  graph: true,
};

/** The same value with every object's keys in a different (reversed or shuffled) order. */
function reorderKeys(value: unknown, order: (keys: string[]) => string[]): unknown {
  if (Array.isArray(value)) return value.map((entry) => reorderKeys(entry, order));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const byKey = new Map(entries);
  return Object.fromEntries(order(entries.map(([key]) => key)).map((key) => [key, reorderKeys(byKey.get(key), order)]));
}

describe('CompiledPlanSchema', () => {
  it('accepts a routed plan and a plain checklist', () => {
    expect(CompiledPlanSchema.parse(plan)).toEqual(plan);
    const plain = { ...plan, graph: false };
    expect(CompiledPlanSchema.parse(plain)).toEqual(plain);
  });

  it.each([
    ['an absolute plan path', { ...plan, source: { ...plan.source, plan: '/home/me/.leopold/PLAN.md' } }],
    ['a Windows plan path', { ...plan, source: { ...plan.source, plan: 'C:\\repo\\.leopold\\PLAN.md' } }],
    ['a backslash plan path', { ...plan, source: { ...plan.source, plan: '.leopold\\PLAN.md' } }],
    ['an upper-case sha256', { ...plan, source: { ...plan.source, sha256: 'A'.repeat(64) } }],
    ['an unknown top-level key', { ...plan, timestamp: '2026-01-01' }],
    ['an unknown node key', { ...plan, items: [{ ...node, span: {} }] }],
    ['a dangling route target', { ...plan, items: [{ ...node, routes: [{ when: 'ok', kind: 'status', target: 0 }] }] }],
    ['an unknown effort', { ...plan, items: [{ ...node, effort: 'xhigh' }] }],
    ['a wave holding an item instead of its index', { ...plan, waves: [[node]] }],
    ['an unknown autonomy', { ...plan, autonomy: 'halt' }],
    ['zero iterations', { ...plan, limits: { maxIterations: 0, maxFailures: 3, maxNoProgress: 6 } }],
    ['no max_no_progress', { ...plan, limits: { maxIterations: 50, maxFailures: 3 } }],
    ['another version', { ...plan, version: 1 }],
  ])('refuses %s', (_, value) => {
    expect(CompiledPlanSchema.safeParse(value).success).toBe(false);
  });
});

describe('stableStringify', () => {
  it('orders keys as the schema does, whatever order the value was built in', () => {
    const expected = stableStringify(CompiledPlanSchema, plan);
    const reversed = reorderKeys(plan, (keys) => [...keys].reverse()) as CompiledPlan;
    expect(JSON.stringify(reversed)).not.toBe(JSON.stringify(plan));
    expect(stableStringify(CompiledPlanSchema, reversed)).toBe(expected);
    expect(Object.keys(JSON.parse(expected))).toEqual(Object.keys(CompiledPlanSchema.shape));
    expect(Object.keys(JSON.parse(expected).items[0])).toEqual(Object.keys(GraphNodeSchema.shape));
    expect(Object.keys(JSON.parse(expected).items[0].routes[0])).toEqual(['when', 'kind', 'key', 'op', 'value', 'target']);
  });

  it('is byte-stable under any key permutation (property)', () => {
    const expected = stableStringify(CompiledPlanSchema, plan, 2);
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        let state = seed;
        const shuffle = (keys: string[]) =>
          [...keys]
            .map((key) => {
              state = (Math.imul(state, 1103515245) + 12345) | 0;
              return { key, rank: state };
            })
            .sort((a, b) => a.rank - b.rank)
            .map(({ key }) => key);
        const shuffled = reorderKeys(plan, shuffle) as CompiledPlan;
        expect(stableStringify(CompiledPlanSchema, shuffled, 2)).toBe(expected);
      }),
    );
  });

  it('writes compact or 2-space JSON and omits absent optional keys', () => {
    const compact = stableStringify(CompiledPlanSchema, plan);
    expect(compact).not.toContain('\n');
    expect(compact).toContain('{"when":"ok","kind":"status","target":4}');
    const pretty = stableStringify(CompiledPlanSchema, plan, 2);
    expect(pretty.split('\n')[1]).toBe('  "version": 3,');
    expect(JSON.parse(pretty)).toEqual(JSON.parse(compact));
  });

  it('throws on an invalid value instead of emitting it', () => {
    expect(() => stableStringify(CompiledPlanSchema, { ...plan, autonomy: 'never' } as never)).toThrow();
  });
});

describe('the emit path writes the parsed plan without parsing it again', () => {
  // buildCompiledPlan parses its output with CompiledPlanSchema once; the script's PLAN
  // and the args file are then written from it directly. Their bytes must be what parsing
  // again would give, whatever order the plan was built in.
  const reversedKeys = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(reversedKeys)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversedKeys(v)]))
        : value;

  it('PLAN in the script head is embeddedPlanJson, the args file stableStringify of WorkflowArgsSchema', () => {
    const built = CompiledPlanSchema.parse(reversedKeys(plan));
    const planLine = scriptHead(built).lines.find((line) => line.startsWith('const PLAN = '));
    expect(planLine).toBe(`const PLAN = ${embeddedPlanJson(reversedKeys(plan) as CompiledPlan)};`);
    const { mission, charter, maxReviewRounds, items, waves, autonomy, graph } = reversedKeys(plan) as CompiledPlan;
    const args = { mission, charter, maxReviewRounds, items, waves, autonomy, graph };
    expect(renderWorkflowArgs(built)).toBe(`${stableStringify(WorkflowArgsSchema, args, 2)}\n`);
  });
});

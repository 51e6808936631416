import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { COMPILED_PLAN_VERSION, compactNode, compactPlan, expandNode, expandPlan, NODE_DEFAULTS } from '../../../runtime/plan/compact.js';
import { CompiledPlanSchema, GraphNodeSchema, type CompiledPlan, type GraphNode } from '../../../runtime/plan/compiled.js';

const plain = (index: number): GraphNode => ({
  id: `i${index}`,
  index,
  text: `Step ${index}`,
  kind: 'work',
  label: null,
  command: null,
  deps: [],
  needs: [],
  emits: [],
  routes: [],
  scenarios: [],
  writes: [],
  done: false,
  effort: 'medium',
  critical: false,
  sensitive: false,
});

const tool: GraphNode = {
  ...plain(2),
  kind: 'tool',
  label: 'ci',
  command: 'npm test',
  deps: [1],
  needs: ['built'],
  emits: [{ key: 'suite', value: 'unit' }],
  routes: [{ when: 'exit!=0', kind: 'signal', key: 'exit', op: '!=', value: '0', target: 1 }],
  scenarios: ['it passes'],
  writes: ['src/**'],
  done: true,
  effort: 'high',
  critical: true,
  sensitive: true,
};

const plan = (items: GraphNode[]): CompiledPlan => ({
  version: COMPILED_PLAN_VERSION,
  source: { plan: '.leopold/PLAN.md', sha256: 'a'.repeat(64) },
  mission: 'Ship it.',
  charter: '',
  charterRules: [],
  maxReviewRounds: 2,
  autonomy: 'full',
  limits: { maxIterations: 50, maxFailures: 3, maxNoProgress: 6 },
  items,
  waves: [[1]],
  graph: true,
});

// Any valid item at any position: every field at its default or not, id and index derived or not.
const nodeAt = fc.record({
  position: fc.nat(50),
  shifted: fc.boolean(),
  ownId: fc.option(fc.constantFrom('i0', 'x', 'i1 ')),
  kind: fc.constantFrom('work', 'gate', 'tool', 'verify', 'human', 'feedback'),
  label: fc.option(fc.string()),
  command: fc.option(fc.string()),
  deps: fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 3 }),
  needs: fc.array(fc.string(), { maxLength: 2 }),
  emits: fc.array(fc.record({ key: fc.string(), value: fc.string() }), { maxLength: 2 }),
  routes: fc.array(
    fc.oneof(
      fc.record({ when: fc.constantFrom('ok', 'fail', 'done'), kind: fc.constant('status' as const), target: fc.integer({ min: 1, max: 9 }) }),
      fc.record({ key: fc.constantFrom('exit', 'k'), op: fc.constantFrom('=' as const, '!=' as const), value: fc.constantFrom('0', 'yes'), target: fc.integer({ min: 1, max: 9 }), spaced: fc.boolean() }).map(({ spaced, ...r }) => ({
        when: spaced ? `${r.key} ${r.op} ${r.value}` : `${r.key}${r.op}${r.value}`,
        kind: 'signal' as const,
        ...r,
      })),
    ),
    { maxLength: 3 },
  ),
  scenarios: fc.array(fc.string(), { maxLength: 2 }),
  writes: fc.array(fc.string(), { maxLength: 2 }),
  done: fc.boolean(),
  effort: fc.constantFrom('low', 'medium', 'high', 'max'),
  critical: fc.boolean(),
  sensitive: fc.boolean(),
});

describe('the embedded plan (runtime/plan/compact.ts)', () => {
  it('leaves out every field at its default, and a derived id and index', () => {
    expect(compactNode(plain(7), 6)).toEqual({ text: 'Step 7' });
    expect(JSON.stringify(compactNode(plain(7), 6))).toBe('{"text":"Step 7"}');
    // Not at its position (an item the run appended): index and id stay.
    expect(compactNode(plain(7), 2)).toEqual({ index: 7, text: 'Step 7' });
    expect(compactNode({ ...plain(7), id: 'custom' }, 6)).toEqual({ id: 'custom', text: 'Step 7' });
  });

  it('keeps every field that differs, in the CompiledPlan key order', () => {
    const compact = compactNode(tool, 1);
    expect(Object.keys(compact)).toEqual(Object.keys(GraphNodeSchema.shape).filter((key) => key !== 'id' && key !== 'index'));
    expect(expandNode(compact, 1)).toEqual(tool);
  });

  it('embeds a signal route without its kind, and without a when that only repeats it; a status route whole', () => {
    const routes: GraphNode['routes'] = [
      { when: 'exit!=0', kind: 'signal', key: 'exit', op: '!=', value: '0', target: 1 },
      { when: 'exit != 0', kind: 'signal', key: 'exit', op: '!=', value: '0', target: 1 },
      { when: 'fail', kind: 'status', target: 3 },
    ];
    const compact = compactNode({ ...tool, routes }, 1);
    expect(JSON.stringify(compact.routes)).toBe('[{"key":"exit","op":"!=","value":"0","target":1},{"when":"exit != 0","key":"exit","op":"!=","value":"0","target":1},{"when":"fail","kind":"status","target":3}]');
    const back = expandNode(JSON.parse(JSON.stringify(compact)), 1);
    expect(back.routes).toEqual(routes);
    expect(back.routes.map((route) => Object.keys(route))).toEqual(routes.map((route) => Object.keys(route)));
  });

  it('round-trips any item, keys in schema order', () => {
    fc.assert(
      fc.property(nodeAt, (n) => {
        const index = n.shifted ? n.position + 3 : n.position + 1;
        const node: GraphNode = GraphNodeSchema.parse({
          ...plain(index),
          ...(n.ownId === null ? {} : { id: n.ownId }),
          kind: n.kind,
          label: n.label,
          command: n.command,
          deps: n.deps,
          needs: n.needs,
          emits: n.emits,
          routes: n.routes,
          scenarios: n.scenarios,
          writes: n.writes,
          done: n.done,
          effort: n.effort,
          critical: n.critical,
          sensitive: n.sensitive,
        });
        const back = expandNode(JSON.parse(JSON.stringify(compactNode(node, n.position))), n.position);
        expect(back).toEqual(node);
        expect(Object.keys(back)).toEqual(Object.keys(GraphNodeSchema.shape));
      }),
    );
  });

  it('gives each expanded item arrays of its own', () => {
    const [a, b] = expandPlan(compactPlan(plan([plain(1), plain(2)]))).items;
    a!.deps.push(9);
    expect(b!.deps).toEqual([]);
    expect(NODE_DEFAULTS.deps).toEqual([]);
  });

  it('expands a whole plan back to the CompiledPlan; a full plan passes through', () => {
    const whole = plan([plain(1), tool]);
    expect(CompiledPlanSchema.parse(expandPlan(compactPlan(whole)))).toEqual(whole);
    expect(expandPlan(whole)).toEqual(whole);
  });

  it('refuses a plan of another CompiledPlan version', () => {
    const old = { ...compactPlan(plan([plain(1)])), version: 2 } as unknown as CompiledPlan;
    expect(() => expandPlan(old)).toThrow(/version 2, this runtime reads version 3; run `leopold compile` again/);
  });
});

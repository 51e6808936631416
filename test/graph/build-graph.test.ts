import { describe, expect, it } from 'vitest';
import { analyzeGraph, buildGraph, checkPlan, wavesOf } from '../../compiler/graph/index.js';
import { plan } from './factory.js';

describe('buildGraph', () => {
  it('has one node per item labelled with the item, after edges and one route edge per route', () => {
    const ir = plan([{ text: 'A' }, { text: 'B', after: [1], on: [['fail', 1], ['ok', 3], ['exit=1', 3], ['ok', 9]] }, { text: 'C' }]);
    const { graph, ir: same } = buildGraph(ir);
    expect(same).toBe(ir);
    expect(graph.isMultigraph()).toBe(true);
    expect(graph.nodes()).toEqual(['i1', 'i2', 'i3']);
    expect(graph.node('i2')).toBe(ir.items[1]);
    const edges = graph.edges().map((edge) => {
      const label = graph.edge(edge);
      return [edge.v, edge.w, edge.name, label.kind, label.route?.when];
    });
    expect(edges).toEqual([
      ['i1', 'i2', 'after', 'after', undefined],
      ['i2', 'i1', 'route:0', 'route', 'fail'],
      ['i2', 'i3', 'route:1', 'route', 'ok'],
      ['i2', 'i3', 'route:2', 'route', 'exit=1'],
    ]);
  });
});

describe('analyzeGraph', () => {
  it('returns what buildGraph, checkPlan and wavesOf return, from one pass', () => {
    const ir = plan([{ text: 'A', needs: ['x'] }, { text: 'B', after: [1] }, { text: 'C', on: [['ok', 1]] }]);
    const all = analyzeGraph(ir);
    expect([all.ir, all.graph.nodes(), all.diagnostics, all.waves]).toEqual([ir, ['i1', 'i2', 'i3'], checkPlan(ir), wavesOf(ir)]);
    expect(all.waves).toEqual([['i1', 'i3'], ['i2']]);
  });
});

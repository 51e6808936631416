import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../compiler/graph/index.js';
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

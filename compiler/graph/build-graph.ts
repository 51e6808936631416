import { Graph } from '@dagrejs/graphlib';
import type { PlanIR, PlanItem, Route } from '../../runtime/plan/schema.js';

/** An edge label: `after` (dependency -> item) or `route` (source -> target, with its route). */
export interface PlanEdge {
  kind: 'after' | 'route';
  route?: Route;
}

/** The graphlib multigraph of a plan: node id = item id, node label = the PlanItem. */
export type PlanDag = Graph<string, PlanItem, PlanEdge>;

/** A plan and its graph. */
export interface PlanGraph {
  ir: PlanIR;
  graph: PlanDag;
}

/** Items by index; the IR numbers items 1..n but a lookup keeps hand-built IRs honest. */
export function itemsByIndex(ir: PlanIR): Map<number, PlanItem> {
  return new Map(ir.items.map((item) => [item.index, item]));
}

/**
 * Builds the graph: one node per item, an `after` edge per valid dependency and a `route`
 * edge per route whose target is an item. Dangling routes get no edge (graphlib would
 * invent a node for them); the dangling-edge check reports them from the IR.
 */
export function buildGraph(ir: PlanIR): PlanGraph {
  const graph: PlanDag = new Graph<string, PlanItem, PlanEdge>({ directed: true, multigraph: true });
  const byIndex = itemsByIndex(ir);
  for (const item of ir.items) graph.setNode(item.id, item);
  for (const item of ir.items) {
    for (const dep of item.deps) {
      const from = byIndex.get(dep);
      if (from) graph.setEdge(from.id, item.id, { kind: 'after' }, 'after');
    }
    item.routes.forEach((route, position) => {
      const to = byIndex.get(route.target);
      // The name keeps two routes between the same pair apart (multigraph).
      if (to) graph.setEdge(item.id, to.id, { kind: 'route', route }, `route:${position}`);
    });
  }
  return { ir, graph };
}

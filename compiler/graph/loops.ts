import type { Edge } from '@dagrejs/graphlib';
import type { PlanItem } from '../../runtime/plan/schema.js';
import type { PlanDag, PlanEdge } from './build-graph.js';

/** A strongly connected set of items (or one item routing to itself) and one loop through it. */
export interface Loop {
  /** Every item of the set, in plan order. */
  members: PlanItem[];
  /** A shortest loop from the set's first item back to it: first and last are the same item. */
  path: PlanItem[];
  /** The edge that closes the loop (last step of `path`), preferring a route edge. */
  closing: PlanEdge;
}

/**
 * Strongly connected components by Tarjan's algorithm, iteratively. graphlib's alg.tarjan
 * recurses once per node on a path and overflows the stack on a 10,000-item chain, which
 * is exactly the plan shape the benchmark feeds us. O(nodes + edges).
 */
export function stronglyConnected(graph: PlanDag): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;

  for (const root of graph.nodes()) {
    if (order.has(root)) continue;
    // Each frame: the node and its successors still to visit.
    const frames: { node: string; next: string[]; at: number }[] = [];
    const enter = (node: string): void => {
      order.set(node, counter);
      low.set(node, counter);
      counter += 1;
      stack.push(node);
      onStack.add(node);
      frames.push({ node, next: graph.successors(node) ?? [], at: 0 });
    };
    enter(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      if (frame.at < frame.next.length) {
        const succ = frame.next[frame.at]!;
        frame.at += 1;
        if (!order.has(succ)) enter(succ);
        else if (onStack.has(succ)) low.set(frame.node, Math.min(low.get(frame.node)!, order.get(succ)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === order.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  return components;
}

/** Every loop of the graph: one per strongly connected set of two or more items or self-loop. */
export function findLoops(graph: PlanDag): Loop[] {
  const loops: Loop[] = [];
  for (const component of stronglyConnected(graph)) {
    const isLoop = component.length > 1 || (graph.outEdges(component[0]!, component[0]!) ?? []).length > 0;
    if (isLoop) loops.push(loopThrough(graph, component));
  }
  return loops.sort((a, b) => a.members[0]!.index - b.members[0]!.index);
}

/** A shortest loop from the set's first item back to itself, by breadth-first search inside the set. */
function loopThrough(graph: PlanDag, component: string[]): Loop {
  const members = component.map((id) => graph.node(id)).sort((a, b) => a.index - b.index);
  const start = members[0]!.id;
  const inSet = new Set(component);
  const parent = new Map<string, string>();
  const queue = [start];
  let last: string | undefined;
  for (let head = 0; head < queue.length && last === undefined; head += 1) {
    const node = queue[head]!;
    for (const succ of sortedSuccessors(graph, node)) {
      if (succ === start) {
        last = node;
        break;
      }
      if (inSet.has(succ) && !parent.has(succ)) {
        parent.set(succ, node);
        queue.push(succ);
      }
    }
  }
  // A strongly connected set always leads back to its start; `last` is set.
  const ids = [start];
  for (let node = last!; node !== start; node = parent.get(node)!) ids.push(node);
  ids.push(start);
  const path = [ids[0]!, ...ids.slice(1, -1).reverse(), start].map((id) => graph.node(id));
  return { members, path, closing: closingEdge(graph.outEdges(last!, start) ?? [], graph) };
}

/** Successors in plan order, so the reported loop does not depend on insertion order. */
function sortedSuccessors(graph: PlanDag, node: string): string[] {
  return (graph.successors(node) ?? [])
    .map((id) => graph.node(id))
    .sort((a, b) => a.index - b.index)
    .map((item) => item.id);
}

/** The route edge among these (it has a marker to point at), else the first edge. */
function closingEdge(edges: Edge[], graph: PlanDag): PlanEdge {
  const labels = edges.map((edge) => graph.edge(edge));
  return labels.find((label) => label.kind === 'route') ?? labels[0]!;
}

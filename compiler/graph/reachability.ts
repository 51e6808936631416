import type { PlanIR, PlanItem } from '../../runtime/plan/schema.js';
import { itemsByIndex } from './build-graph.js';
import { emittedKeysOf } from '../../runtime/plan/kind-facts.js';

/** The indices of the items the runtime could ever complete, and the keys they emit. */
export interface Reach {
  items: Set<number>;
  keys: Set<string>;
}

/**
 * The static, optimistic reachability fix-point the runtime's routing makes true: starting
 * from the done items, an open item joins when all its dependencies have joined, every key
 * it needs is emitted by an item that has joined, and — when another item routes to it
 * (route-gated) — some item routing to it has joined. `done` defaults to the plan's
 * checked items. A worklist with per-item counters keeps it O(items + edges + keys).
 */
export function reachableFrom(ir: PlanIR, done: Iterable<number> = doneIndices(ir)): Reach {
  const byIndex = itemsByIndex(ir);
  const dependents = new Map<number, number[]>();
  const needers = new Map<string, number[]>();
  const pendingDeps = new Map<number, number>();
  const pendingKeys = new Map<number, number>();
  const gated = new Set<number>();
  const gateOpen = new Set<number>();

  for (const item of ir.items) {
    const deps = new Set(item.deps.filter((dep) => byIndex.has(dep)));
    for (const dep of deps) push(dependents, dep, item.index);
    pendingDeps.set(item.index, deps.size);
    const keys = new Set(item.needs.map((need) => need.key));
    for (const key of keys) push(needers, key, item.index);
    pendingKeys.set(item.index, keys.size);
    for (const route of item.routes) {
      // A route from an item to itself cannot be what first dispatches it.
      if (route.target !== item.index && byIndex.has(route.target)) gated.add(route.target);
    }
  }

  const reach: Reach = { items: new Set(), keys: new Set() };
  const queue: PlanItem[] = [];
  const join = (index: number): void => {
    const item = byIndex.get(index);
    if (item && !reach.items.has(index)) {
      reach.items.add(index);
      queue.push(item);
    }
  };
  const joinIfReady = (index: number): void => {
    const ready =
      pendingDeps.get(index) === 0 &&
      pendingKeys.get(index) === 0 &&
      (!gated.has(index) || gateOpen.has(index));
    if (ready) join(index);
  };

  for (const index of done) join(index);
  for (const item of ir.items) joinIfReady(item.index);

  for (let head = 0; head < queue.length; head += 1) {
    const item = queue[head]!;
    for (const dependent of dependents.get(item.index) ?? []) {
      pendingDeps.set(dependent, pendingDeps.get(dependent)! - 1);
      joinIfReady(dependent);
    }
    for (const key of emittedKeysOf(item)) {
      if (reach.keys.has(key)) continue;
      reach.keys.add(key);
      for (const needer of needers.get(key) ?? []) {
        pendingKeys.set(needer, pendingKeys.get(needer)! - 1);
        joinIfReady(needer);
      }
    }
    for (const route of item.routes) {
      if (route.target === item.index || !gated.has(route.target)) continue;
      gateOpen.add(route.target);
      joinIfReady(route.target);
    }
  }
  return reach;
}

/** The indices of the plan's checked items. */
export function doneIndices(ir: PlanIR): number[] {
  return ir.items.filter((item) => item.done).map((item) => item.index);
}

function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

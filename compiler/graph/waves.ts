import type { PlanIR } from '../../runtime/plan/schema.js';
import { itemsByIndex } from './build-graph.js';

/**
 * The waves of a plan as item ids (docs/plan-language.md): wave 1 is every open item whose
 * dependencies are all done, wave k+1 every open item whose dependencies are placed.
 * Routes and needs do not shape waves; plan order inside a wave; done items are in none.
 */
export function wavesOf(ir: PlanIR): string[][] {
  const byIndex = itemsByIndex(ir);
  const dependents = new Map<number, number[]>();
  const waiting = new Map<number, number>();
  const wave = new Map<number, number>();
  let frontier: number[] = [];

  // Kahn's algorithm over open dependencies only: a done dependency is already satisfied.
  for (const item of ir.items) {
    if (item.done) continue;
    const openDeps = new Set(item.deps.filter((dep) => byIndex.get(dep)?.done === false));
    for (const dep of openDeps) {
      const list = dependents.get(dep);
      if (list) list.push(item.index);
      else dependents.set(dep, [item.index]);
    }
    waiting.set(item.index, openDeps.size);
    if (openDeps.size === 0) frontier.push(item.index);
  }
  for (let level = 0; frontier.length > 0; level += 1) {
    const next: number[] = [];
    for (const index of frontier) {
      wave.set(index, level);
      for (const dependent of dependents.get(index) ?? []) {
        const left = waiting.get(dependent)! - 1;
        waiting.set(dependent, left);
        if (left === 0) next.push(dependent);
      }
    }
    frontier = next;
  }

  // One pass in plan order buckets items, so plan order inside a wave costs no sort.
  const waves: string[][] = [];
  for (const item of ir.items) {
    const level = wave.get(item.index);
    if (level === undefined) continue;
    (waves[level] ??= []).push(item.id);
  }
  return waves;
}

import type { PlanItem } from '../../plan/schema.js';

/** Each item's wave in `waves`, counted from 0 (an item in none is absent). */
export function waveIndex(waves: readonly (readonly number[])[]): Map<number, number> {
  const waveOf = new Map<number, number>();
  waves.forEach((wave, w) => wave.forEach((index) => waveOf.set(index, w)));
  return waveOf;
}

/**
 * The wave loop's next wave for a plan without a graph: every open item whose
 * dependencies are all done, in plan order (routes and needs do not shape waves).
 * `finished` lists items already handled this run that the plan does not show as done.
 */
export function nextWave(items: readonly PlanItem[], finished: ReadonlySet<number> = new Set()): number[] {
  const done = new Set(items.filter((item) => item.done).map((item) => item.index));
  return [...items]
    .sort((a, b) => a.index - b.index)
    .filter((item) => !item.done && !finished.has(item.index) && item.deps.every((dep) => done.has(dep)))
    .map((item) => item.index);
}

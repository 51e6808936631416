import { stagesOf } from '../routing/stages.js';
import type { EmbeddedPlan } from './plan.js';

const cache = new WeakMap<EmbeddedPlan, { count: number; stageOf: Map<number, number> }>();

/**
 * The phase a dispatch runs in, as `meta.phases` (compiler/emit/script.ts, metaOf) names
 * them: a plain checklist's wave (`Wave N`); in a routed plan, its stage (`Stage N`:
 * dependencies and routes, so a route target reads after its source). Phases only move
 * forward: an item that could have run in an earlier stage but is dispatched later runs in
 * the stage the run has reached, so the phases read in order.
 */
export function phaseTitle(plan: EmbeddedPlan, index: number, waveOf: ReadonlyMap<number, number>, previous: string): string {
  if (!plan.graph) return `Wave ${waveOf.get(index) ?? 1}`;
  let known = cache.get(plan);
  if (known === undefined || known.count !== plan.items.length) {
    known = { count: plan.items.length, stageOf: stagesOf(plan.items).stageOf };
    cache.set(plan, known);
  }
  const reached = Number(/^Stage (\d+)$/.exec(previous)?.[1] ?? 0);
  return `Stage ${Math.max(reached, known.stageOf.get(index) ?? 1)}`;
}

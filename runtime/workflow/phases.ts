import { stagesOf } from '../run/index.js';
import { waveIndex } from '../run/index.js';
import type { EmbeddedPlan } from './plan.js';

const cache = new WeakMap<EmbeddedPlan, { count: number; phaseOf: Map<number, number> }>();

/**
 * The phase a dispatch runs in, as `meta.phases` (compiler/emit/script.ts, metaOf) names
 * them: a plain checklist's wave (`Wave N`); in a routed plan, its stage (`Stage N`:
 * dependencies and routes, so a route target reads after its source). Phases only move
 * forward: an item that could have run in an earlier stage but is dispatched later runs in
 * the stage the run has reached, so the phases read in order. Each plan's waves or stages
 * are worked out once, and again when work is appended.
 */
export function phaseTitle(plan: EmbeddedPlan, index: number, previous: string): string {
  let known = cache.get(plan);
  if (known === undefined || known.count !== plan.items.length) {
    // Phase numbers as titled, from 1: stages already are; waves are counted from 0.
    const phaseOf = plan.graph ? stagesOf(plan.items).stageOf : new Map([...waveIndex(plan.waves)].map(([item, wave]) => [item, wave + 1]));
    known = { count: plan.items.length, phaseOf };
    cache.set(plan, known);
  }
  if (!plan.graph) return `Wave ${known.phaseOf.get(index) ?? 1}`;
  const reached = Number(/^Stage (\d+)$/.exec(previous)?.[1] ?? 0);
  return `Stage ${Math.max(reached, known.phaseOf.get(index) ?? 1)}`;
}

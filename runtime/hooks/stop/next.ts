import type { PlanItem } from '../../plan/schema.js';
import { routeDecision, type NodeOutcome } from '../../routing/decide.js';
import { hasGraph, isSuccess } from '../../routing/facts.js';
import { nextWave } from '../../routing/waves.js';
import type { RoutingState, TakenRoute } from '../../state/schema.js';

/** Why nothing is left to hand out, as the workflow words it. */
export interface Completion {
  reason: 'plan_complete' | 'routed_complete' | 'deadlock';
  detail: string;
  stranded: number[];
  routedAround: number[];
}

/** The next item to hand the session, or why there is none. */
export interface NextStep {
  next: PlanItem | null;
  routing: RoutingState;
  taken: TakenRoute[];
  complete: Completion | null;
}

/**
 * A plain checklist's waves as the compiler computes them, built from the runtime's own
 * `nextWave`: wave 1 is every open item whose dependencies are done, wave k+1 every open
 * item whose dependencies are placed. Frozen at the first turn, as compile freezes them.
 */
export function freezeWaves(items: readonly PlanItem[]): number[][] {
  const waves: number[][] = [];
  const placed = new Set<number>();
  for (;;) {
    const view = items.map((item) => (placed.has(item.index) ? { ...item, done: true } : item));
    const wave = nextWave(view);
    if (wave.length === 0) return waves;
    waves.push(wave);
    for (const index of wave) placed.add(index);
  }
}

/**
 * THE next step, with the same functions and rules as the workflow engine: a plan with a
 * graph asks `routeDecision` (routed targets first, then ascending index; routes latch); a
 * plain checklist walks its frozen waves in order, items in plan order, and an item left
 * open strands the later waves (the workflow's wave loop).
 */
export function nextStep(items: readonly PlanItem[], routing: RoutingState, finished: NodeOutcome | null, waves: readonly number[][]): NextStep {
  const byIndex = new Map(items.map((item) => [item.index, item]));
  if (hasGraph(items)) {
    const step = routeDecision({ items, routing, finished: finished && byIndex.has(finished.index) ? finished : null });
    const complete = step.complete;
    return {
      next: step.next.length > 0 ? byIndex.get(step.next[0]!)! : null,
      routing: step.routing,
      taken: step.taken,
      complete: complete
        ? {
            reason: complete.reason,
            detail:
              complete.reason === 'plan_complete'
                ? 'every item is done'
                : complete.reason === 'deadlock'
                  ? `items ${complete.waiting.join(', ')} wait on each other`
                  : `nothing left to dispatch (failed: ${complete.failed.join(', ') || 'none'}; stranded: ${complete.stranded.join(', ') || 'none'}; routed around: ${complete.routedAround.join(', ') || 'none'})`,
            stranded: complete.stranded,
            routedAround: complete.routedAround,
          }
        : null,
    };
  }

  const statuses = { ...routing.statuses };
  if (finished) statuses[String(finished.index)] = finished.status;
  const next: RoutingState = { ...routing, statuses };
  const done = (index: number) => byIndex.get(index)?.done === true;
  for (const [w, wave] of waves.entries()) {
    const open = wave.filter((index) => byIndex.has(index) && !done(index) && statuses[String(index)] === undefined);
    if (open.length > 0) return { next: byIndex.get(open[0]!)!, routing: next, taken: [], complete: null };
    const leftOpen = wave.filter((index) => byIndex.has(index) && !done(index) && !isSuccess(statuses[String(index)]));
    if (leftOpen.length > 0) {
      const stranded = waves.slice(w + 1).flat().filter((index) => byIndex.has(index) && !done(index));
      return {
        next: null,
        routing: next,
        taken: [],
        complete: { reason: 'routed_complete', detail: `items ${leftOpen.join(', ')} were left open after review; later waves cannot run`, stranded, routedAround: [] },
      };
    }
  }
  return { next: null, routing: next, taken: [], complete: { reason: 'plan_complete', detail: 'every item is done', stranded: [], routedAround: [] } };
}

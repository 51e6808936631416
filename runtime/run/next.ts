import { AMENDMENT_BUDGET } from '../amend/limits.js';
import type { PlanItem } from '../plan/schema.js';
import { evidenceFor, type Evidence } from './evidence.js';
import { reduce, reduceAll, type RunEvent } from './model.js';
import { rescueVerdict } from './rescue.js';
import { doneCount, itemAt, routeDecision, unseenTicks, type Completion as RouteCompletion } from './routing/decide.js';
import { hasGraph } from './routing/facts.js';
import { nextWave, waveIndex } from './routing/waves.js';
import type { RunModel } from './schema.js';
import { gatedBy, stopCondition, type StopLimits, type StopVerdict } from './stop.js';

/** The plan as a run sees it now: every item (done ones too) and, for a plain checklist, its waves. */
export interface PlanView {
  items: readonly PlanItem[];
  /** A plain checklist's waves (item indexes), frozen when the run began; they order dispatch, never gate it. */
  waves: readonly (readonly number[])[];
}

/** Facts only the engine's host can see; absent facts never stop a run. */
export interface HostFacts {
  /** `.leopold/STOP` exists (the Stop hook reads it; the workflow script cannot). */
  killSwitch?: boolean;
  /**
   * An agent of the run died on an API error: the kind the workflow's scribe reported in
   * its ack (`leopold record` reads it from state.json, where the StopFailure hook put it).
   */
  apiError?: { error: string } | null;
  /** The host's token budget is spent. */
  budgetExceeded?: boolean;
  /** Size of the session transcript in bytes (session engine). */
  transcriptBytes?: number;
  /**
   * The workflow run's agent budget: agents left (the stop's own scribe call already set
   * aside) and the most agents a dispatch of this item can take (rescue included). The
   * Stop hook's session has no such cap.
   */
  agents?: { left: number; worstCase(item: PlanItem, rescue: boolean): number };
}

/** Why nothing is left to hand out, in the words both engines report. */
export interface Completion {
  reason: 'plan_complete' | 'routed_complete' | 'deadlock';
  detail: string;
  /** Open items that can never run: a dependency was left open or failed, or a need nobody can send. */
  stranded: number[];
  /** Open route-gated items none of whose routes was taken, and none still can be. */
  routedAround: number[];
}

/** What the engine does once the step's events are folded in. */
export type Effect =
  /**
   * Hand out one item: an agent() call (workflow) or a block reason (session). `turn` is the
   * iteration this dispatch is; `rescue` is set when it is the run's one rescue; `evidence`
   * is why it failed last time and why each taken route into it was taken.
   */
  | { type: 'dispatch'; item: PlanItem; turn: number; rescue: { kind: string; failures: number } | null; evidence: Evidence[] }
  /**
   * Open items wait on each other: before stopping with `deadlock`, the run's one runtime
   * repair (bounded amendments, context `runtime`, within the shared budget) is asked for.
   */
  | { type: 'repair'; waiting: number[]; left: number }
  /**
   * Every item is done: before `plan_complete`, the run's one final review of the whole
   * change (the SDD protocol's final branch review). `left`: plan changes the run has left
   * for an item that fixes its blocking findings.
   */
  | { type: 'final-review'; left: number }
  /** The run ends. */
  | { type: 'stop'; verdict: StopVerdict; completion: Completion | null };

/** One step of a run: the events that happen now (fold them in, in order), then the effect to perform. */
export interface Step {
  events: RunEvent[];
  effect: Effect;
}

export interface NextInput {
  model: RunModel;
  plan: PlanView;
  limits: StopLimits;
  autonomy: 'full' | 'ask';
  facts?: HostFacts;
}

/**
 * THE decision of what happens next, for both engines, as events and one effect. Items the
 * plan shows done that the run has not seen finish are recorded first (`ticked`); then the
 * next item is picked (a plan with a graph: routed targets first, then ascending index,
 * routes latch; a plain checklist: wave by wave, plan order inside a wave, an item left open
 * blocking only what depends on it), the stop conditions are checked in their one order,
 * and a dispatch says whether it is the run's one rescue (`rescue-granted`) and counts
 * itself (`dispatched`); the deadlock repair is asked once (`repair-tried`); a run that did
 * work and has every item done gets its one final review (`final-review`) before it stops
 * with `plan_complete`. Pure: the
 * engines fold `events` into their model with the one reducer and perform `effect`.
 */
export function decideNext(input: NextInput): Step {
  const { plan } = input;
  const ticked = unseenTicks(plan.items, input.model.routing);
  const events: RunEvent[] = ticked.length > 0 ? [{ type: 'ticked', items: ticked }] : [];
  const model = reduceAll(input.model, events, plan.items);
  const graph = hasGraph(plan.items);
  const step = routeDecision({ items: plan.items, routing: model.routing, ...(graph ? {} : { rank: waveRank(plan.waves) }) });
  const next = step.next.length > 0 ? itemAt(plan.items, step.next[0]!)! : null;
  const completion = step.complete ? completionOf(step.complete, graph) : null;
  const facts = input.facts ?? {};
  const gate = next ? gatedBy(next, input.limits.gated) : null;
  const rescue =
    next !== null && rescueVerdict({ state: model, maxFailures: input.limits.maxFailures, autonomy: input.autonomy }) === 'rescue'
      ? { kind: model.consecutive_failures.kind!, failures: model.consecutive_failures.count }
      : null;
  const found = stopCondition({
    state: model,
    limits: input.limits,
    autonomy: input.autonomy,
    facts: {
      killSwitch: facts.killSwitch === true,
      apiError: facts.apiError ?? null,
      budgetExceeded: facts.budgetExceeded === true,
      halt: model.halt,
      planComplete: completion?.reason === 'plan_complete',
      routedComplete: completion?.reason === 'routed_complete',
      deadlock: completion?.reason === 'deadlock',
      nextIsHuman: next?.kind === 'human',
      nextGated: gate,
      ...(facts.transcriptBytes !== undefined ? { transcriptBytes: facts.transcriptBytes } : {}),
      ...(facts.agents && next ? { runBudget: { needed: facts.agents.worstCase(next, rescue !== null), left: facts.agents.left } } : {}),
    },
  });
  const left = AMENDMENT_BUDGET - model.amendments_used;
  if (found?.reason === 'deadlock' && model.deadlock_repairs === 0 && left > 0) {
    const waiting = step.complete!.waiting;
    return { events: [...events, { type: 'repair-tried', waiting }], effect: { type: 'repair', waiting, left } };
  }
  // The run did work and every item is done: its one final review comes before plan_complete.
  if (found?.reason === 'plan_complete' && model.final_reviews === 0 && model.iteration > 0) {
    return { events: [...events, { type: 'final-review' }], effect: { type: 'final-review', left } };
  }
  if (found || next === null) {
    const verdict = found ?? { reason: completion!.reason, detail: completion!.detail };
    return { events, effect: { type: 'stop', verdict: withDetail(verdict, completion, next, gate), completion } };
  }
  const dispatch: RunEvent[] = [
    ...(rescue ? [{ type: 'rescue-granted', item: next.index } as const] : []),
    { type: 'dispatched', item: next.index, done: doneCount(plan.items, model.routing) },
  ];
  const after = reduceAll(model, dispatch, plan.items);
  return {
    events: [...events, ...dispatch],
    effect: { type: 'dispatch', item: next, turn: after.iteration, rescue, evidence: evidenceFor(after, next.index) },
  };
}

/** Folds a step's events into `model` with the one reducer: what both engines do with a Step. */
export function applyStep<M extends RunModel>(model: M, step: Step, items: readonly PlanItem[]): M {
  return step.events.reduce((m, event) => reduce(m, event, items), model);
}

// A plain checklist's order: its wave, then its index; an item no wave holds (appended
// since the waves were laid out) after every wave. One function per waves list, so routing
// sorts the plan once for it, not at every step.
const waveRanks = new WeakMap<readonly (readonly number[])[], { size: number; rank: (index: number) => number }>();
function waveRank(waves: readonly (readonly number[])[]): (index: number) => number {
  const size = waves.reduce((n, wave) => n + wave.length, 0);
  const known = waveRanks.get(waves);
  if (known && known.size === size) return known.rank;
  const waveOf = waveIndex(waves);
  const rank = (index: number) => waveOf.get(index) ?? waves.length;
  waveRanks.set(waves, { size, rank });
  return rank;
}

/**
 * A plain checklist's waves as the compiler computes them: wave 1 is every open item whose
 * dependencies are done, wave k+1 every open item whose dependencies are placed.
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

function completionOf(complete: RouteCompletion, graph: boolean): Completion {
  const { reason, stranded, routedAround, failed, waiting } = complete;
  const list = (xs: readonly number[]) => xs.join(', ') || 'none';
  const detail =
    reason === 'plan_complete'
      ? 'every item is done'
      : reason === 'deadlock'
        ? `items ${list(waiting)} wait on each other`
        : graph
          ? `nothing left to dispatch (failed: ${list(failed)}; stranded: ${list(stranded)}; routed around: ${list(routedAround)})`
          : `items ${list(failed)} were left open after review; they block items ${list(stranded)}, which depend on them`;
  return { reason, detail, stranded, routedAround };
}

// The evaluator's one-liners, made as specific as the run knows.
function withDetail(verdict: StopVerdict, completion: Completion | null, next: PlanItem | null, gate: string | null): StopVerdict {
  if (completion && verdict.reason === completion.reason) return { reason: verdict.reason, detail: completion.detail };
  if (verdict.reason === 'awaiting_human' && next && gate !== null && next.kind !== 'human') {
    return { reason: verdict.reason, detail: `item ${next.index} ("${next.text}") is work GUARDRAILS.md gates (gated: ${gate}): a person does it; mark it [x] when done and start the run again` };
  }
  if (verdict.reason === 'awaiting_human' && next) {
    return { reason: verdict.reason, detail: `item ${next.index} ("${next.text}") is a @human node and autonomy is ask` };
  }
  return verdict;
}

import type { PlanItem } from '../plan/schema.js';
import { itemAt, recordOutcome, type NodeOutcome } from '../routing/decide.js';
import { isSuccess } from '../routing/facts.js';
import { tailOf } from './evidence.js';

/**
 * THE run model both engines share: what a run remembers between dispatches, the events
 * that change it, and one pure reducer. No zod and no I/O, so the workflow script bundles
 * it; `.leopold/state.json` (runtime/state) is this model plus the session engine's own
 * fields, validated with zod at the edge where it is read.
 */

/** A route that was taken; once latched it is never un-taken. */
export interface TakenRoute {
  /** Index of the node whose route this is. */
  from: number;
  /** Position of the route among the source's `routes` (0-based). */
  route: number;
  /** The target item index. */
  to: number;
  /** The condition as written, for humans reading the file. */
  when: string;
}

/** What routing remembers: node outcomes, their signals, the channel and latched routes. */
export interface RoutingMemory {
  /** Item index (as a string key) -> the status it finished with (`ok`, `fail`, `pass`, …). */
  statuses: Record<string, string>;
  /** Item index -> the signals it sent when it finished. */
  signals: Record<string, Record<string, string>>;
  /** Every key sent so far by a finished node, with its latest value (what `@needs` reads). */
  channel: Record<string, string>;
  /** Latched routes in the order they were taken. */
  taken: TakenRoute[];
}

/** A stop an event asked for: the fork nobody could settle, or the rescue that found no approach. */
export interface Halt {
  reason: 'escalation' | 'repeated_failure';
  item: number;
  detail: string;
}

/** The run model (state.json holds it, plus the session engine's windows and hook memory). */
export interface RunModel {
  /** Dispatches so far (a turn of the session engine, an attempt or node of the workflow). */
  iteration: number;
  /** Failures of each kind over the whole run. */
  failures: Record<string, number>;
  /** The streak of consecutive failures of one kind (reset by any success). */
  consecutive_failures: { kind: string | null; count: number };
  /** Dispatches in a row that changed nothing in the plan. */
  no_progress: number;
  /** How many items were done at the last dispatch, to tell progress from none. */
  last_done: number;
  /** The one repeated-failure rescue per run. */
  rescue_used: boolean;
  /** The rescue granted for the current streak: its kind and length when it was bought. */
  rescue_for: { kind: string; failures: number } | null;
  /** Plan changes spent this run (ROUTE + ADD, all sources); the budget is 3. */
  amendments_used: number;
  /** Runtime deadlock repairs tried this run (one: a repair that did not unstick the plan is not asked again). */
  deadlock_repairs: number;
  routing: RoutingMemory;
  /** Item index -> why it last failed (evidence.ts): handed to its next attempt and to the items its taken routes send to. */
  evidence: Record<string, string>;
  /** Set by an event that ends the run whatever else holds. */
  halt: Halt | null;
}

/**
 * Everything that happens to a run, as both engines report it. The workflow turns agent
 * answers into these; the Stop hook turns the session's reports (PLAN.md ticks and
 * events.jsonl lines) into the same ones.
 */
export type RunEvent =
  /** An item was handed out (one iteration); `done` is how many plan items are done at that moment. */
  | { type: 'dispatched'; item: number; done: number }
  /** The run's one rescue was bought for the current streak (before the rescued attempt). */
  | { type: 'rescue-granted'; item: number }
  /** An attempt at a work item failed (`kind`: implementer, blocked, partial, verification, review), and what showed it. */
  | { type: 'failed'; item: number; kind: string; evidence?: string }
  /** A work item was accepted: the streak (and a granted rescue's hold) ends. */
  | { type: 'succeeded'; item: number }
  /** A node finished with a status (and the signals it sent): routing records it and latches routes; a failed one says why. */
  | { type: 'finished'; outcome: NodeOutcome; evidence?: string }
  /** A fork nobody could settle (no usable decision, or an irreversible one the charter is silent on). */
  | { type: 'escalated'; item: number; question: string }
  /** The rescue found no genuinely different approach. */
  | { type: 'no-approach'; item: number }
  /** `count` plan changes were applied (a @feedback node, a repair). */
  | { type: 'amended'; count: number }
  /** The runtime deadlock repair was asked for (whatever it came to). */
  | { type: 'repair-tried'; waiting: number[] };

/** A new run's model: every counter, the rescue, the add budget and routing zeroed. */
export function initialModel(): RunModel {
  return {
    iteration: 0,
    failures: {},
    consecutive_failures: { kind: null, count: 0 },
    no_progress: 0,
    last_done: 0,
    rescue_used: false,
    rescue_for: null,
    amendments_used: 0,
    deadlock_repairs: 0,
    routing: { statuses: {}, signals: {}, channel: {}, taken: [] },
    evidence: {},
    halt: null,
  };
}

/**
 * THE reducer: `(model, event) -> model`, pure. `items` is the plan as it is now (routing
 * needs the finished node's routes and emits). Fields of `model` it does not know (the
 * session engine's windows and hook memory) are kept.
 */
export function reduce<M extends RunModel>(model: M, event: RunEvent, items: readonly PlanItem[]): M {
  switch (event.type) {
    case 'dispatched': {
      const progressed = event.done !== model.last_done;
      return { ...model, iteration: model.iteration + 1, no_progress: progressed ? 0 : model.no_progress + 1, last_done: event.done };
    }
    case 'rescue-granted': {
      const streak = model.consecutive_failures;
      if (streak.kind === null || streak.count === 0) throw new Error(`rescue for item ${event.item}: no failure streak to rescue`);
      if (model.rescue_used) throw new Error(`rescue for item ${event.item}: the rescue of this run is already used`);
      return { ...model, rescue_used: true, rescue_for: { kind: streak.kind, failures: streak.count } };
    }
    case 'failed': {
      const streak = model.consecutive_failures;
      return {
        ...model,
        failures: { ...model.failures, [event.kind]: (model.failures[event.kind] ?? 0) + 1 },
        consecutive_failures: { kind: event.kind, count: streak.kind === event.kind ? streak.count + 1 : 1 },
        evidence: withEvidence(model.evidence, event.item, `${event.kind}: ${event.evidence?.trim() || 'no evidence given'}`),
      };
    }
    case 'succeeded':
      return { ...model, consecutive_failures: { kind: null, count: 0 }, rescue_for: null, evidence: withEvidence(model.evidence, event.item, undefined) };
    case 'finished':
      return {
        ...model,
        routing: recordOutcome(items, model.routing, event.outcome),
        // A node that finished well leaves nothing to hand on; a failed one keeps what it said (or its last attempt's words).
        evidence: isSuccess(event.outcome.status) ? withEvidence(model.evidence, event.outcome.index, undefined) : event.evidence === undefined ? model.evidence : withEvidence(model.evidence, event.outcome.index, event.evidence),
      };
    case 'escalated': {
      // Names the item and its text, so both engines' stop says which fork stopped the run.
      const text = itemAt(items, event.item)?.text;
      const detail = `item ${event.item}${text === undefined ? '' : ` ("${text}")`}: ${event.question}`;
      return model.halt ? model : { ...model, halt: { reason: 'escalation', item: event.item, detail } };
    }
    case 'no-approach': {
      const streak = model.consecutive_failures;
      const detail = `item ${event.item}: ${streak.count} consecutive ${streak.kind ?? 'unknown'} failures and the rescue found no approach`;
      return model.halt ? model : { ...model, halt: { reason: 'repeated_failure', item: event.item, detail } };
    }
    case 'amended':
      return { ...model, amendments_used: model.amendments_used + event.count };
    case 'repair-tried':
      return { ...model, deadlock_repairs: model.deadlock_repairs + 1 };
  }
}

// The evidence map with one item's entry set (bounded) or removed; the same object when nothing changes.
function withEvidence(evidence: Record<string, string>, item: number, text: string | undefined): Record<string, string> {
  const key = String(item);
  if (text === undefined) {
    if (!(key in evidence)) return evidence;
    const { [key]: _gone, ...rest } = evidence;
    void _gone;
    return rest;
  }
  return { ...evidence, [key]: tailOf(text) };
}

/** Folds events in order. */
export function reduceAll<M extends RunModel>(model: M, events: readonly RunEvent[], items: readonly PlanItem[]): M {
  return events.reduce((m, event) => reduce(m, event, items), model);
}

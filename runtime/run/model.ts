import type { PersonReason } from '../decisions/forks.js';
import type { PlanItem } from '../plan/schema.js';
import type { RunModel } from './schema.js';
import { itemAt, recordOutcome, recordTicked, type NodeOutcome } from './routing/decide.js';
import { isSuccess } from './routing/facts.js';
import { tailOf } from './evidence.js';

/**
 * THE run model both engines share: the events that change what a run remembers, and one
 * pure reducer. The model's shape is schema.ts's RunModelSchema (imported here as types
 * only): no zod and no I/O, so the workflow script bundles it. `.leopold/state.json` is this
 * model plus the run's bookkeeping (schema.ts's RunStateSchema).
 */

export type { Halt, RoutingMemory, RunModel, TakenRoute } from './schema.js';

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
  /** Items the plan shows done that the run had not seen finish (ticked before the run, or by the session): finished `ok`. */
  | { type: 'ticked'; items: number[] }
  /** A fork nobody could settle (no usable decision, or an irreversible one the charter is silent on). */
  | { type: 'escalated'; item: number; question: string }
  /**
   * The agent says a person must decide or do this, never a persona (PERSON_REASONS): gated
   * work stops `awaiting_human`, the rest `escalation`, in either autonomy.
   */
  | { type: 'needs-person'; item: number; reason: PersonReason; question: string }
  /** The rescue found no genuinely different approach. */
  | { type: 'no-approach'; item: number }
  /** `count` plan changes were applied (a @feedback node, a repair). */
  | { type: 'amended'; count: number }
  /** The runtime deadlock repair was asked for (whatever it came to). */
  | { type: 'repair-tried'; waiting: number[] }
  /** `count` subagents were started for item `item` (null: for the run, outside any item: a deadlock repair). */
  | { type: 'subagents'; item: number | null; count: number }
  /** A subagent was refused at a GUARDRAILS cap (stop.ts subagentCap): the run stops with `subagent_cap`. */
  | { type: 'subagent-cap'; item: number; detail: string }
  /** Every item was done: the run's one final review of the whole change was asked for. */
  | { type: 'final-review' }
  /** The final review's blocking findings could not become an item (or it gave no answer): the run stops with escalation. */
  | { type: 'final-blocked'; item: number; detail: string };

/** A new run's model: every counter, the rescue, the add budget and routing zeroed (RunModelSchema's parse of {}, a test holds the two together). */
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
    final_reviews: 0,
    routing: { statuses: {}, signals: {}, channel: {}, taken: [] },
    evidence: {},
    subagents: { total: 0, by_item: {} },
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
    case 'ticked':
      return { ...model, routing: recordTicked(items, model.routing, event.items) };
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
    case 'needs-person': {
      const text = itemAt(items, event.item)?.text;
      const detail = `item ${event.item}${text === undefined ? '' : ` ("${text}")`} needs a person (${PERSON_WORDS[event.reason]}): ${event.question}`;
      return model.halt ? model : { ...model, halt: { reason: event.reason === 'gated' ? 'awaiting_human' : 'escalation', item: event.item, detail } };
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
    case 'subagents': {
      // A state written before the count existed has none: it starts at zero.
      const seen = model.subagents ?? { total: 0, by_item: {} };
      const by_item = event.item === null ? seen.by_item : { ...seen.by_item, [String(event.item)]: (seen.by_item[String(event.item)] ?? 0) + event.count };
      return { ...model, subagents: { total: seen.total + event.count, by_item } };
    }
    case 'subagent-cap':
      return model.halt ? model : { ...model, halt: { reason: 'subagent_cap', item: event.item, detail: event.detail } };
    case 'final-review':
      return { ...model, final_reviews: model.final_reviews + 1 };
    case 'final-blocked':
      return model.halt ? model : { ...model, halt: { reason: 'escalation', item: event.item, detail: event.detail } };
  }
}

/** How a stop names each reason a matter needs a person. */
const PERSON_WORDS: Record<PersonReason, string> = {
  gated: 'GUARDRAILS.md gates this work',
  premise: "the mission's premise looks false",
  'charter-contradiction': 'the charter contradicts itself here',
  'never-rule': 'a Never rule is in the way',
};

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

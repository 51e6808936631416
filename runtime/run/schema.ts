import { z } from 'zod';
import { STOP_REASONS } from './stop-reasons.js';

/**
 * THE run's state, defined once. `RunModelSchema` is what the run model remembers between
 * dispatches (the reducer's input and output, runtime/run/model.ts); `RunStateSchema` is
 * `.leopold/state.json`: the model plus the run's bookkeeping (active, engine, the stamps,
 * the session engine's windows and hook memory). Their TypeScript types are inferred here;
 * every other kernel module and the workflow script import them as types only, so zod never
 * ships in the emitted script. The workflow's continuation carries a RunModel as it is, and
 * the fold of a run's journal (runtime/run/journal.ts) rebuilds one.
 *
 * Every field has a default, so a file written by an older Leopold still reads; unknown
 * state.json fields are kept (loose object) so an older writer never drops a newer one's data.
 */

const count = z.number().int().min(0);

/** A route that was taken; once latched it is never un-taken. */
export const TakenRouteSchema = z.object({
  /** Index of the node whose route this is. */
  from: z.number().int().min(1),
  /** Position of the route among the source's `routes` (0-based). */
  route: z.number().int().min(0),
  /** The target item index. */
  to: z.number().int().min(1),
  /** The condition as written, for humans reading the file. */
  when: z.string(),
});
export type TakenRoute = z.infer<typeof TakenRouteSchema>;

/** What routing remembers: node outcomes, their signals, the channel and latched routes. */
export const RoutingMemorySchema = z.object({
  /** Item index (as a string key) -> the status it finished with (`ok`, `fail`, `pass`, …). */
  statuses: z.record(z.string(), z.string()).default({}),
  /** Item index -> the signals it sent when it finished (`@emit` keys on ok, `exit` for @tool). */
  signals: z.record(z.string(), z.record(z.string(), z.string())).default({}),
  /** Every key sent so far by a finished node, with its latest value (what `@needs` reads). */
  channel: z.record(z.string(), z.string()).default({}),
  /** Latched routes in the order they were taken. */
  taken: z.array(TakenRouteSchema).default([]),
});
export type RoutingMemory = z.infer<typeof RoutingMemorySchema>;

/** A stop an event asked for: the fork nobody could settle, the rescue that found no approach, a subagent refused at the cap. */
export const HaltSchema = z.object({ reason: z.enum(['escalation', 'repeated_failure', 'awaiting_human', 'subagent_cap']), item: z.number().int().min(1), detail: z.string() });
export type Halt = z.infer<typeof HaltSchema>;

/** What the run model remembers between dispatches; initialModel() is its parse of {}. */
export const RunModelSchema = z.object({
  /** Dispatches so far (a turn of the session engine, an attempt or node of the workflow). */
  iteration: count.default(0),
  /** Failures of each kind over the whole run. */
  failures: z.record(z.string(), count).default({}),
  /** The streak of consecutive failures of one kind (reset by any success). */
  consecutive_failures: z.object({ kind: z.string().nullable().default(null), count: count.default(0) }).default({ kind: null, count: 0 }),
  /** Dispatches in a row that changed nothing in the plan. */
  no_progress: count.default(0),
  /** How many items were done at the last dispatch, to tell progress from none. */
  last_done: count.default(0),
  /** The one repeated-failure rescue per run; persisted so a resumed run inherits it. */
  rescue_used: z.boolean().default(false),
  /** The rescue granted for the current streak: its kind and length when it was bought. */
  rescue_for: z.object({ kind: z.string(), failures: z.number().int().min(1) }).nullable().default(null),
  /** Plan changes spent this run (ROUTE + ADD, all sources); the budget is 3. */
  amendments_used: count.default(0),
  /** Runtime deadlock repairs tried this run (one: a repair that did not unstick the plan is not asked again). */
  deadlock_repairs: count.default(0),
  routing: RoutingMemorySchema.default({ statuses: {}, signals: {}, channel: {}, taken: [] }),
  /** Item index -> why it last failed, bounded (evidence.ts): handed to its next attempt and to the items its taken routes send to. */
  evidence: z.record(z.string(), z.string()).default({}),
  /**
   * Subagents started for the run's items (the session's Task/Agent tool calls, the
   * workflow's agent() calls but the scribe's): in all, and by item index. GUARDRAILS
   * `max_subagents` / `max_subagents_per_run` cap them (stop.ts subagentCap).
   */
  subagents: z.object({ total: count.default(0), by_item: z.record(z.string(), count).default({}) }).default({ total: 0, by_item: {} }),
  /** Final whole-branch reviews asked this run (one at most: the SDD protocol's review after the last item). */
  final_reviews: count.default(0),
  /** Set by an event that ends the run whatever else holds. */
  halt: HaltSchema.nullable().default(null),
});
export type RunModel = z.infer<typeof RunModelSchema>;

export const ENGINES = ['session', 'workflow'] as const;
export const EngineSchema = z.enum(ENGINES);
export type Engine = z.infer<typeof EngineSchema>;

/** Every stop condition as a zod enum. */
export const StopReasonSchema = z.enum(STOP_REASONS);

/** `.leopold/state.json`: the run model and the run's bookkeeping. */
export const RunStateSchema = z.looseObject({
  version: z.literal(1).default(1),
  /** True between `leopold run start` and `leopold run finish` (the guard reads this). */
  active: z.boolean().default(false),
  engine: EngineSchema.default('session'),
  /** ISO-8601 UTC stamps written by the CLI, never by the workflow script. */
  started_at: z.string().nullable().default(null),
  finished_at: z.string().nullable().default(null),
  ...RunModelSchema.shape,
  /** Context windows closed so far (session engine), and how many in a row closed no item. */
  windows: count.default(0),
  windows_without_progress: count.default(0),
  /** The stop condition that ended the run, once one did. */
  stop_reason: z.string().nullable().default(null),
  /** A workflow run's Claude Code process, as the Stop hook saw it when the launching turn ended (runtime/state/client.ts). */
  client: z.object({ pid: z.number().int().min(1), started: z.string().nullable() }).nullable().default(null),
});
export type RunState = z.infer<typeof RunStateSchema>;

/** A fresh, inactive state with every counter at zero. */
export function emptyState(): RunState {
  return RunStateSchema.parse({});
}

/** A new active run: every counter, the rescue, the add budget and routing zeroed. */
export function startedState(engine: Engine, now: Date): RunState {
  return { ...emptyState(), active: true, engine, started_at: now.toISOString() };
}

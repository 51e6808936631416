import { z } from 'zod';
import type { RunModel } from '../run/model.js';

/**
 * `.leopold/state.json`: everything a run must remember between turns, windows and
 * processes. Every field has a default so a file written by an older Leopold still reads;
 * unknown fields are kept (loose object) so an older writer never drops a newer one's data.
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
export const RoutingStateSchema = z.object({
  /** Item index (as a string key) -> the status it finished with (`ok`, `fail`, `pass`, …). */
  statuses: z.record(z.string(), z.string()).default({}),
  /** Item index -> the signals it emitted when it finished (`@emit` keys on ok, `exit` for @tool). */
  signals: z.record(z.string(), z.record(z.string(), z.string())).default({}),
  /** Every key emitted so far by a finished node, with its latest value (what `@needs` reads). */
  channel: z.record(z.string(), z.string()).default({}),
  /** Latched routes in the order they were taken. */
  taken: z.array(TakenRouteSchema).default([]),
});
export type RoutingState = z.infer<typeof RoutingStateSchema>;

/** The streak of consecutive failures of one kind (reset by any success). */
export const StreakSchema = z.object({
  kind: z.string().nullable().default(null),
  count: count.default(0),
});

/** The rescue granted for a failure streak: the streak's kind and length when it was bought. */
export const RescueGrantSchema = z.object({ kind: z.string(), failures: z.number().int().min(1) });

export const ENGINES = ['session', 'workflow'] as const;
export const EngineSchema = z.enum(ENGINES);
export type Engine = z.infer<typeof EngineSchema>;

export const RunStateSchema = z.looseObject({
  version: z.literal(1).default(1),
  /** True between `leopold run start` and `leopold run finish` (the guard reads this). */
  active: z.boolean().default(false),
  engine: EngineSchema.default('session'),
  /** ISO-8601 UTC stamps written by the CLI, never by the workflow script. */
  started_at: z.string().nullable().default(null),
  finished_at: z.string().nullable().default(null),
  /** Turns (session engine) or dispatches (workflow engine) so far. */
  iteration: count.default(0),
  /** Failures of each kind over the whole run. */
  failures: z.record(z.string(), count).default({}),
  consecutive_failures: StreakSchema.default({ kind: null, count: 0 }),
  /** Turns in a row that changed nothing in the plan. */
  no_progress: count.default(0),
  /** How many items were done at the last turn, to tell progress from none. */
  last_done: count.default(0),
  /** The one repeated-failure rescue per run; persisted so a resumed run inherits it. */
  rescue_used: z.boolean().default(false),
  rescue_for: RescueGrantSchema.nullable().default(null),
  /** Plan changes spent this run (ROUTE + ADD, all sources); the budget is 3. */
  amendments_used: count.default(0),
  /** Runtime deadlock repairs tried this run (runtime/run). */
  deadlock_repairs: count.default(0),
  /** Context windows closed so far (session engine), and how many in a row closed no item. */
  windows: count.default(0),
  windows_without_progress: count.default(0),
  routing: RoutingStateSchema.default({ statuses: {}, signals: {}, channel: {}, taken: [] }),
  /** Item index -> why it last failed, bounded (runtime/run/evidence.ts). */
  evidence: z.record(z.string(), z.string()).default({}),
  /** A stop an event asked for (an unsettled fork, a rescue with no approach): runtime/run's `halt`. */
  halt: z
    .object({ reason: z.enum(['escalation', 'repeated_failure']), item: z.number().int().min(1), detail: z.string() })
    .nullable()
    .default(null),
  /** The stop condition that ended the run, once one did. */
  stop_reason: z.string().nullable().default(null),
});
export type RunState = z.infer<typeof RunStateSchema>;

// state.json is the run model (runtime/run/model.ts) plus the session engine's fields: the
// reducer takes a RunState as it is, and this line fails to compile if the two drift apart.
type Extends<A extends B, B> = A;
export type RunStateIsARunModel = Extends<RunState, RunModel>;

/** A fresh, inactive state with every counter at zero. */
export function emptyState(): RunState {
  return RunStateSchema.parse({});
}

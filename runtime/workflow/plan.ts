/**
 * The embedded plan as the workflow loop reads it: the CompiledPlan (runtime/plan/compiled.ts),
 * imported as types only, so the schema is written once and no zod reaches the script.
 */
import type { CompiledPlan, GraphNode, GraphRoute, WorkItem } from '../plan/compiled.js';

export type { Effort } from '../plan/compiled.js';
export type { NodeKind } from '../plan/schema.js';

/** One open item of the wave loop. */
export type EmbeddedItem = WorkItem;

/** One route as embedded. */
export type EmbeddedRoute = GraphRoute;

/** One node of the routed loop: every item, done ones too. */
export type EmbeddedNode = GraphNode;

export type EmbeddedPlan = CompiledPlan;

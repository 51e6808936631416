/**
 * The embedded plan as the workflow loop reads it: the CompiledPlan (runtime/plan/compiled.ts),
 * imported as types only, so the schema is written once and no zod reaches the script.
 */
import type { CompiledPlan, GraphNode, GraphRoute } from '../plan/compiled.js';

export type { Effort } from '../plan/compiled.js';
export type { NodeKind } from '../plan/schema.js';

/** One open item of the wave loop: a plain checklist's node is a graph node (kind `work`, no routes). */
export type EmbeddedItem = GraphNode;

/** One route as embedded. */
export type EmbeddedRoute = GraphRoute;

/** One node of the routed loop: every item, done ones too. */
export type EmbeddedNode = GraphNode;

/** The plan as the run reads it: every item whole (`expandPlan` filled in the defaults the script leaves out). */
export type EmbeddedPlan = CompiledPlan;

/** The plan as the script embeds it: items without their defaults (runtime/plan/compact.ts). */
export type { CompactPlan } from '../plan/compact.js';

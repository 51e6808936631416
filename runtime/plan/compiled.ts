import { z } from 'zod';
import { NodeKindSchema, RouteSchema } from './schema.js';
import { COMPILED_PLAN_VERSION } from './kinds.js';

export { COMPILED_PLAN_VERSION };

/** How much effort an item deserves (classification, docs/classification.md). */
export const EFFORTS = ['low', 'medium', 'high', 'max'] as const;
export const EffortSchema = z.enum(EFFORTS);
export type Effort = z.infer<typeof EffortSchema>;

/**
 * The CompiledPlan (docs/compile.md): the data embedded in the emitted workflow script. It lives
 * in runtime/ because the workflow loop reads it (as types only: no zod in the script) and
 * compiler/emit writes it. Key
 * order in every object below is the order of the emitted JSON, because zod's parse output
 * follows the schema's shape order (stableStringify relies on that, and a test checks it).
 * Objects are strict so a field the runtime does not know about fails the compile, instead
 * of being shipped and silently ignored. The script embeds it with each item's defaults left
 * out (runtime/plan/compact.ts); the run fills them back in when it starts.
 */

const WINDOWS_DRIVE = /^[A-Za-z]:/;

/** A repository-relative, forward-slash path: output must not depend on where the checkout lives. */
export const RelativePathSchema = z
  .string()
  .min(1)
  .refine((path) => !path.startsWith('/') && !WINDOWS_DRIVE.test(path) && !path.includes('\\'), {
    message: 'expected a relative path with forward slashes, not an absolute or backslash path',
  });

/** `@emit key=value` without its source span. */
export const GraphEmitSchema = z.strictObject({ key: z.string(), value: z.string() });
export type GraphEmit = z.infer<typeof GraphEmitSchema>;

/**
 * `@on <condition> -> <target>` as the routed loop evaluates it: the Plan IR route without
 * its span and as-written target (the compiler refuses dangling targets before emit).
 */
export const GraphRouteSchema = z.strictObject({
  when: RouteSchema.shape.when,
  kind: RouteSchema.shape.kind,
  key: RouteSchema.shape.key,
  op: RouteSchema.shape.op,
  value: RouteSchema.shape.value,
  target: z.number().int().min(1),
});
export type GraphRoute = z.infer<typeof GraphRouteSchema>;

/**
 * One item of the plan, as both loops read it: every item (done ones too, so routing can
 * count them finished) with what dispatch needs (kind, deps, needs, emits, routes), what
 * the agents need (text, label, command, scenarios, writes) and the classification.
 */
export const GraphNodeSchema = z.strictObject({
  id: z.string(),
  index: z.number().int().min(1),
  text: z.string(),
  kind: NodeKindSchema,
  /** `@gate security` -> `security`; null when none was written. */
  label: z.string().nullable(),
  /** The command of a `@tool` node; null for every other kind. */
  command: z.string().nullable(),
  /** Valid dependencies (earlier item indexes), first-seen order. */
  deps: z.array(z.number().int().min(1)),
  /** `@needs` keys in written order. */
  needs: z.array(z.string()),
  emits: z.array(GraphEmitSchema),
  routes: z.array(GraphRouteSchema),
  scenarios: z.array(z.string()),
  writes: z.array(z.string()),
  done: z.boolean(),
  effort: EffortSchema,
  critical: z.boolean(),
  sensitive: z.boolean(),
});
export type GraphNode = z.infer<typeof GraphNodeSchema>;

export const CompiledPlanSchema = z.strictObject({
  version: z.literal(COMPILED_PLAN_VERSION),
  source: z.strictObject({
    /** PLAN.md relative to the project root (the directory holding `.leopold/`). */
    plan: RelativePathSchema,
    /** Hex SHA-256 of PLAN.md's bytes, so a run can tell the plan changed under it. */
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  mission: z.string(),
  charter: z.string(),
  /** The charter's hard lines, lifted verbatim (docs/runtime.md `charterRules`). */
  charterRules: z.array(z.string()),
  maxReviewRounds: z.number().int().min(0),
  autonomy: z.enum(['full', 'ask']),
  limits: z.strictObject({
    maxIterations: z.number().int().min(1),
    maxFailures: z.number().int().min(1),
    /** Dispatches in a row with no plan change before the run stops (no_progress), as in the Stop hook. */
    maxNoProgress: z.number().int().min(1),
    /** GUARDRAILS.md `gated`: work only a person does (absent when none). */
    gated: z.array(z.string()).optional(),
    /** GUARDRAILS.md `max_subagents` and `max_subagents_per_run` (absent at their defaults, runtime/guardrails/defaults.ts). */
    maxSubagents: z.number().int().min(1).optional(),
    maxSubagentsPerRun: z.number().int().min(1).optional(),
  }),
  /** Every item once, in plan order, done ones too. */
  items: z.array(GraphNodeSchema),
  /**
   * The open items' indexes layered by dependency (docs/plan-language.md), plan order inside a wave:
   * the order a plain checklist runs in (a view, never a barrier).
   */
  waves: z.array(z.array(z.number().int().min(1))),
  /** True when the plan declares a graph (routes, signals, needs or a non-work kind): then routing picks the order. */
  graph: z.boolean(),
});
export type CompiledPlan = z.infer<typeof CompiledPlanSchema>;

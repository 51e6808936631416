import type { z } from 'zod';
import { compactPlan } from '../../runtime/plan/compact.js';
import { CompiledPlanSchema, type CompiledPlan } from '../../runtime/plan/compiled.js';

export {
  COMPILED_PLAN_VERSION,
  CompiledPlanSchema,
  GraphEmitSchema,
  GraphNodeSchema,
  GraphRouteSchema,
  RelativePathSchema,
  type CompiledPlan,
  type GraphEmit,
  type GraphNode,
  type GraphRoute,
} from '../../runtime/plan/compiled.js';

/**
 * JSON text of a value after parsing it with its schema, so keys come out in schema order
 * whatever order the value was built in. `indent` 0 is compact (embedded in the script),
 * 2 is the on-disk format (`workflow-args.json`). Throws a ZodError on an invalid value:
 * emitting one is a compiler bug.
 */
export function stableStringify<T>(schema: z.ZodType<T>, value: T, indent: 0 | 2 = 0): string {
  return JSON.stringify(schema.parse(value), null, indent === 0 ? undefined : indent);
}

/**
 * The CompiledPlan as the script embeds it: validated, keys in schema order, then each item
 * without the fields at their defaults (runtime/plan/compact.ts; the run fills them back in).
 * `indent` 2 is the golden fixtures' compiled.json.
 */
export function embeddedPlanJson(plan: CompiledPlan, indent: 0 | 2 = 0): string {
  return JSON.stringify(compactPlan(CompiledPlanSchema.parse(plan)), null, indent === 0 ? undefined : indent);
}

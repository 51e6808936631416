import { z } from 'zod';
import { CompiledPlanSchema, type CompiledPlan } from './schema.js';

/**
 * `.leopold/workflow-args.json`: the args payload Leopold's own workflow takes
 * (docs/compile.md), so a user who launches the workflow with explicit args passes the same
 * plan.
 */
export const WorkflowArgsSchema = z.strictObject({
  mission: CompiledPlanSchema.shape.mission,
  charter: CompiledPlanSchema.shape.charter,
  maxReviewRounds: CompiledPlanSchema.shape.maxReviewRounds,
  items: CompiledPlanSchema.shape.items,
  waves: CompiledPlanSchema.shape.waves,
  autonomy: CompiledPlanSchema.shape.autonomy.optional(),
  graph: CompiledPlanSchema.shape.graph,
});
export type WorkflowArgs = z.infer<typeof WorkflowArgsSchema>;

/**
 * The args file's text: 2-space JSON in schema key order, with a final newline. `compiled`
 * is buildCompiledPlan's output (parsed by CompiledPlanSchema, keys in schema order) and the
 * args object is written in WorkflowArgsSchema's order, so it is not parsed again; a test
 * holds the text equal to stableStringify's.
 */
export function renderWorkflowArgs(compiled: CompiledPlan): string {
  const args: WorkflowArgs = {
    mission: compiled.mission,
    charter: compiled.charter,
    maxReviewRounds: compiled.maxReviewRounds,
    items: compiled.items,
    waves: compiled.waves,
    autonomy: compiled.autonomy,
    graph: compiled.graph,
  };
  return `${JSON.stringify(args, null, 2)}\n`;
}

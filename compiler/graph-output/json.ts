import { z } from 'zod';
import { DiagnosticSchema } from '../diagnostics/diagnostic.js';
import { stableDiagnostic } from '../diagnostics/render-json.js';
import { NodeKindSchema, type PlanItem, type Route } from '../../runtime/plan/schema.js';
import type { PlanAnalysis } from './analysis.js';

/** A route as `--json` shows it: key/op/value only on signal routes (docs/plan-language.md). */
export const GraphRouteSchema = z.strictObject({
  when: z.string(),
  target: z.number().int(),
  kind: z.enum(['status', 'signal']),
  key: z.string().optional(),
  op: z.enum(['=', '!=']).optional(),
  value: z.string().optional(),
});

/** One node of `leopold graph --json`, keys in documented order. */
export const GraphNodeSchema = z.strictObject({
  index: z.number().int().min(1),
  id: z.string(),
  text: z.string(),
  done: z.boolean(),
  kind: NodeKindSchema,
  label: z.string().nullable(),
  deps: z.array(z.number().int()),
  needs: z.array(z.string()),
  emits: z.array(z.strictObject({ key: z.string(), value: z.string() })),
  routes: z.array(GraphRouteSchema),
  scenarios: z.array(z.string()),
  writes: z.array(z.string()),
  anchor: z.string().nullable(),
  line: z.number().int().min(1),
});

/** The whole `leopold graph --json` document (docs/plan-language.md). */
export const GraphJsonSchema = z.strictObject({
  plan: z.string(),
  nodes: z.array(GraphNodeSchema),
  waves: z.array(z.array(z.string())),
  diagnostics: z.array(DiagnosticSchema),
});
/** The `leopold graph --json` document. */
export type GraphJson = z.infer<typeof GraphJsonSchema>;

/** The `--json` document for an analysis: exactly docs/plan-language.md's shape and key order. */
export function graphJson(analysis: PlanAnalysis): GraphJson {
  return {
    plan: analysis.ir.file,
    nodes: analysis.ir.items.map(graphNode),
    waves: analysis.waves.map((wave) => [...wave]),
    diagnostics: analysis.diagnostics.map(stableDiagnostic),
  };
}

/** The `--json` document as text: 2-space JSON, newline-terminated. */
export function renderGraphJson(analysis: PlanAnalysis): string {
  return `${JSON.stringify(graphJson(analysis), null, 2)}\n`;
}

function graphNode(item: PlanItem): z.infer<typeof GraphNodeSchema> {
  return {
    index: item.index,
    id: item.id,
    text: item.text,
    done: item.done,
    kind: item.kind,
    label: item.label,
    deps: [...item.deps],
    needs: item.needs.map((need) => need.key),
    emits: item.emits.map((emit) => ({ key: emit.key, value: emit.value })),
    routes: item.routes.map(graphRoute),
    scenarios: [...item.scenarios],
    writes: [...item.writes],
    anchor: item.anchor,
    line: item.line,
  };
}

function graphRoute(route: Route): z.infer<typeof GraphRouteSchema> {
  const base = { when: route.when, target: route.target, kind: route.kind };
  if (route.kind === 'status') return base;
  return {
    ...base,
    ...(route.key === undefined ? {} : { key: route.key }),
    ...(route.op === undefined ? {} : { op: route.op }),
    ...(route.value === undefined ? {} : { value: route.value }),
  };
}

import { createHash } from 'node:crypto';
import type { PlanIR, PlanItem } from '../../runtime/plan/schema.js';
import { DEFAULT_GUARDRAILS, defaultSubagentsPerRun, type Guardrails } from '../brief/guardrails.js';
import { classifyItem } from '../classify/index.js';
import { charterRules } from '../../runtime/persona/index.js';
import { COMPILED_PLAN_VERSION, CompiledPlanSchema, type CompiledPlan, type GraphNode } from './schema.js';

/** What the CompiledPlan is made of, all values (no paths to read, no clock). */
export interface CompiledPlanInput {
  ir: PlanIR;
  /** Item ids by wave, from wavesOf. */
  waves: readonly (readonly string[])[];
  /** The exact plan text the IR came from (its bytes are hashed). */
  planText: string;
  /** PLAN.md relative to the project root, forward slashes. */
  file: string;
  mission: string;
  charter: string;
  guardrails: Guardrails;
  autonomy: 'full' | 'ask';
}

/**
 * Builds the CompiledPlan (docs/compile.md) from a valid plan: every item once, classified
 * (docs/classification.md); the open ones' indexes by wave; the charter's hard rules lifted; limits
 * from GUARDRAILS; whether the plan declares a graph. Validated by the schema on the way
 * out, so key order is the schema's.
 */
export function buildCompiledPlan(input: CompiledPlanInput): CompiledPlan {
  const charter = briefText(input.charter);
  const byId = new Map(input.ir.items.map((item) => [item.id, item]));
  const classified = new Map(input.ir.items.map((item) => [item.index, classifyItem(item.text, charter)]));
  const compiled: CompiledPlan = {
    version: COMPILED_PLAN_VERSION,
    source: { plan: input.file, sha256: sha256(input.planText) },
    mission: briefText(input.mission),
    charter,
    charterRules: charterRules(charter),
    maxReviewRounds: input.guardrails.maxReviewRounds,
    autonomy: input.autonomy,
    limits: {
      maxIterations: input.guardrails.maxIterations,
      maxFailures: input.guardrails.maxFailures,
      maxNoProgress: input.guardrails.maxNoProgress,
      ...(input.guardrails.gated.length > 0 ? { gated: [...input.guardrails.gated] } : {}),
      // Embedded only when set: the script knows the defaults, and a plan at them compiles as before.
      ...(input.guardrails.maxSubagents !== DEFAULT_GUARDRAILS.maxSubagents ? { maxSubagents: input.guardrails.maxSubagents } : {}),
      ...(input.guardrails.maxSubagentsPerRun !== defaultSubagentsPerRun(input.guardrails.maxIterations, input.guardrails.maxSubagents) ? { maxSubagentsPerRun: input.guardrails.maxSubagentsPerRun } : {}),
    },
    items: input.ir.items.map((item) => graphNode(item, classified.get(item.index)!)),
    waves: input.waves.map((wave) => wave.map((id) => byId.get(id)!.index)),
    graph: declaresGraph(input.ir),
  };
  return CompiledPlanSchema.parse(compiled);
}

/**
 * True when the plan uses anything beyond a plain checklist (a route, an emit, a need or a
 * non-work kind): then the routed loop runs; otherwise the wave loop (docs/compile.md).
 */
export function declaresGraph(ir: PlanIR): boolean {
  return ir.items.some((item) => item.kind !== 'work' || item.routes.length > 0 || item.emits.length > 0 || item.needs.length > 0);
}

function graphNode(item: PlanItem, classification: Pick<GraphNode, 'effort' | 'critical' | 'sensitive'>): GraphNode {
  return {
    id: item.id,
    index: item.index,
    text: item.text,
    kind: item.kind,
    label: item.label,
    command: item.command,
    deps: [...item.deps],
    needs: item.needs.map((need) => need.key),
    emits: item.emits.map(({ key, value }) => ({ key, value })),
    routes: item.routes.map(({ when, kind, key, op, value, target }) => ({ when, kind, key, op, value, target })),
    scenarios: [...item.scenarios],
    writes: [...item.writes],
    done: item.done,
    ...classification,
  };
}

/**
 * MISSION.md / CHARTER.md as embedded: BOM dropped, line endings LF, trailing whitespace
 * trimmed, so a checkout with CRLF endings compiles to the same script.
 */
export function briefText(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').trimEnd();
}

/** Hex SHA-256 of the text's UTF-8 bytes (the bytes of PLAN.md as read, BOM included). */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

import { sortDiagnostics, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { PlanIR } from '../../runtime/plan/schema.js';
import type { PlanGraph } from './build-graph.js';
import { CHECKS } from './checks/index.js';
import { checkContext, type CheckOptions } from './context.js';

/**
 * The graph phase: the plan as a graphlib multigraph, the checks of docs/plan-language.md, the
 * waves, and the reachability fix-point the runtime's routing makes true.
 */
export { buildGraph, type PlanDag, type PlanEdge, type PlanGraph } from './build-graph.js';
export { checkContext, type Check, type CheckContext, type CheckOptions } from './context.js';
export { compileWriteGlob, globsOverlap, writeGlobsOverlap, type WriteGlob } from './glob-overlap.js';
export { findLoops, type Loop } from './loops.js';
export { emittedKeysOf, runsCommand, statusWordsOf } from '../../runtime/plan/kind-facts.js';
export { doneIndices, reachableFrom, type Reach } from './reachability.js';
export { wavesOf } from './waves.js';

/** Runs every graph check over the plan; diagnostics in output order. */
export function checkPlan(ir: PlanIR, options: CheckOptions = {}): Diagnostic[] {
  return analyzeGraph(ir, options).diagnostics;
}

/** The graph, the sorted diagnostics and the waves from one pass (checkPlan + wavesOf without repeating work). */
export function analyzeGraph(ir: PlanIR, options: CheckOptions = {}): PlanGraph & { diagnostics: Diagnostic[]; waves: string[][] } {
  const ctx = checkContext(ir, options);
  return {
    ir,
    graph: ctx.graph,
    diagnostics: sortDiagnostics(CHECKS.flatMap((check) => check(ctx))),
    waves: ctx.waves,
  };
}

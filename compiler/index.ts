// The compiler, in data-flow order (DESIGN.md): parse → graph → (repair → classify → emit, later).
import { parsePlan } from './parse/index.js';
import { checkPlan, wavesOf } from './graph/index.js';
import type { PlanAnalysis } from './graph-output/analysis.js';

export type { PlanAnalysis } from './graph-output/analysis.js';

/**
 * Parses and validates plan text: the Plan IR, every graph diagnostic (sorted) and the
 * waves. Pure: `file` is only the name diagnostics carry, as the user gave it.
 */
export function analyzePlan(text: string, file: string): PlanAnalysis {
  const ir = parsePlan(text, file);
  const diagnostics = checkPlan(ir);
  const waves = wavesOf(ir);
  return { ir, diagnostics, waves };
}

import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { PlanIR } from '../../runtime/plan/schema.js';

/** What the views draw: the parsed plan, its sorted diagnostics and its waves (item ids). */
export interface PlanAnalysis {
  ir: PlanIR;
  diagnostics: Diagnostic[];
  waves: string[][];
}

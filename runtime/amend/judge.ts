import type { PlanIR } from '../plan/schema.js';
import { BOUNDS } from './bounds/index.js';
import type { AmendContext, Judgement, Proposal, Refusal } from './schema.js';

/** What the judge needs besides the proposals. */
export interface JudgeOptions {
  ir: PlanIR;
  /** Changes already spent this run (state.json `amendments_used`). */
  used: number;
  context: AmendContext;
}

/**
 * Judges proposals in order against every bound (docs/compile.md); the first bound that
 * objects refuses the proposal with its code and detail. Accepted proposals spend the
 * shared budget as they go, so a fourth change in a run is refused `add-budget`.
 */
export function judgeAmendments(proposals: readonly Proposal[], options: JudgeOptions): Judgement {
  const accepted: Proposal[] = [];
  const refused: Refusal[] = [];
  for (const proposal of proposals) {
    const input = { ir: options.ir, context: options.context, used: options.used, accepted };
    let refusal: Refusal | null = null;
    for (const bound of BOUNDS) {
      const detail = bound.check(proposal, input);
      if (detail !== null) {
        refusal = { proposal, code: bound.code, detail };
        break;
      }
    }
    if (refusal) refused.push(refusal);
    else accepted.push(proposal);
  }
  return { accepted, refused, used: options.used + accepted.length };
}

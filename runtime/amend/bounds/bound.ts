import type { PlanIR } from '../../plan/schema.js';
import type { AmendContext, BoundCode, Proposal } from '../schema.js';

/** What a bound may look at: the plan, where the proposal came from, what is already spent. */
export interface BoundInput {
  ir: PlanIR;
  context: AmendContext;
  /** Changes spent earlier this run (state.json `amendments_used`). */
  used: number;
  /** Proposals accepted so far in this batch, in order. */
  accepted: readonly Proposal[];
}

/** One bound of docs/compile.md: returns the refusal detail, or null to let the proposal pass. */
export interface Bound {
  code: BoundCode;
  check(proposal: Proposal, input: BoundInput): string | null;
}

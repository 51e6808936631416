import type { DecisionFork } from '../decisions/schema.js';
import type { ItemOutcome, StopReason } from '../run/index.js';
import type { Continuation } from './continuation.js';

/** One decision as the result lists it (ranked riskiest first, docs/decisions.md). */
export interface ResultDecision {
  n: number;
  title: string;
  fork: DecisionFork | null;
  item: number;
  /** `name — role`, or null when no role could be synthesized (or none was needed). */
  persona: string | null;
  class: 'reversible' | 'irreversible';
  decision: string;
  reversal: string;
  score: number;
  reasons: string[];
}

/**
 * Every way a workflow run ends: the docs/runtime.md conditions the script can observe (the
 * shared list in runtime/stop; `api_error` through its scribe's ack) plus `scribe_failed`. The kill switch and the context-window
 * stops need the file system or a session, so only the Stop hook raises them.
 */
export type WorkflowStop =
  | Extract<
      StopReason,
      | 'plan_complete'
      | 'routed_complete'
      | 'iteration_budget'
      | 'budget_exceeded'
      | 'no_progress'
      | 'repeated_failure'
      | 'escalation'
      | 'deadlock'
      | 'awaiting_human'
      | 'run_budget'
      | 'subagent_cap'
      | 'api_error'
    >
  | 'scribe_failed';

/** The run's result object (docs/workflow.md), plus `detail`: one line saying why it stopped. */
export interface WorkflowResult {
  /**
   * Set when `stop` is `run_budget`: the next launch's `args.continue` (pass it verbatim;
   * docs/workflow.md, "Runs that continue").
   */
  continue?: Continuation;
  stop: WorkflowStop;
  detail: string;
  /** Items finished by this run. */
  done: number;
  /** Open items the run set out to do. */
  total: number;
  /** Indexes of open items the run did not finish, ascending. */
  incomplete: number[];
  decisions: ResultDecision[];
  decidedForYou: string;
  stranded: number[];
  routedAround: number[];
  /** Each item's SDD outcome label this launch saw (DONE, DONE_WITH_CONCERNS, BLOCKED, NEEDS_CONTEXT) and the concerns it was done with. */
  outcomes: ItemOutcome[];
  /** The final review's non-blocking findings, one line each. */
  followUps: string[];
}

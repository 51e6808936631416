/**
 * The run's result object (SPEC-RUNTIME §5). The minimal loop fills only stop, done,
 * total and incomplete; the decision fields stay empty until the full loop lands.
 */
export interface WorkflowResult {
  /** The stop condition that ended the run (SPEC-RUNTIME §4). */
  stop: string;
  /** Items finished by this run. */
  done: number;
  /** Open items the run set out to do. */
  total: number;
  /** Indexes of open items the run did not finish, ascending. */
  incomplete: number[];
  decisions: unknown[];
  decidedForYou: string;
  stranded: number[];
  routedAround: number[];
}

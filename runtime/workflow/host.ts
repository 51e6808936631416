/**
 * The slice of Claude Code's workflow globals (docs/host-contract.md) the loop calls. The
 * entry (templates/workflow/entry.ts) hands the real globals in, so the loop itself never
 * names a global and unit tests can pass plain functions.
 */
export interface WorkflowHost {
  agent(prompt: string, options?: Record<string, unknown>): Promise<unknown>;
  /** The host's parallel(): every thunk runs, a thrown one becomes null, order kept. */
  parallel?(thunks: (() => Promise<unknown>)[]): Promise<unknown[]>;
  phase(title: string): void;
  log(message: string): void;
  /** Tokens left in the host budget (`budget.remaining()`); Infinity when unlimited. */
  budgetRemaining?(): number;
}

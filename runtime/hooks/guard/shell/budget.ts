/**
 * The guard's global step budget: parsing and analysis spend it, and running out stops
 * the walk with BudgetSpent (the guard then denies: "too complex to judge"). It keeps the
 * guard's time bounded whatever the input.
 */
export class Budget {
  constructor(public left: number) {}

  spend(steps = 1): void {
    this.left -= steps;
    if (this.left < 0) throw new BudgetSpent();
  }
}

/** The budget ran out: the command is too complex for the guard to judge. */
export class BudgetSpent extends Error {
  override name = 'BudgetSpent';
}

/** Steps one tool call may spend (a simple command costs about 1, a parsed KiB about 4). */
export const STEP_BUDGET = 200_000;

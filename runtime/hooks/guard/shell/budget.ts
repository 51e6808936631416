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

/** Steps one tool call may spend at least (a word costs 1, a simple command a few, a file read 16 and 1 per 256 bytes). */
export const STEP_BUDGET = 200_000;
/** And per character of the command: a long ordinary command (a big here-document, many simple commands) is judged, not refused. */
export const STEPS_PER_CHAR = 16;

/** The budget for one command: linear in its length, so the guard's time is linear too (about 1 s of CPU for 100 KB at worst). */
export function stepBudget(command: string): number {
  return STEP_BUDGET + STEPS_PER_CHAR * command.length;
}

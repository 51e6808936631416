import type { Command } from 'commander';

/** Placeholder: the `leopold plan` command is being built. */
export function registerPlan(program: Command): void {
  void program;
}

import type { Command } from 'commander';

/** Placeholder: the `leopold run` command is being built. */
export function registerRun(program: Command): void {
  void program;
}

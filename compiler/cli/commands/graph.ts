import type { Command } from 'commander';

/** Placeholder: the `leopold graph` command is being built. */
export function registerGraph(program: Command): void {
  void program;
}

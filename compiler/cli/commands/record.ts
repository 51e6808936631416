import type { Command } from 'commander';

/** Placeholder: the `leopold record` command is being built. */
export function registerRecord(program: Command): void {
  void program;
}

import type { Command } from 'commander';
import { readStdin, runGuard } from '../../../runtime/hooks/guard/index.js';
import { runStopHook } from '../../../runtime/hooks/stop/index.js';

/**
 * `leopold hook <name>`: the Claude Code hooks (JSON on stdin, JSON on stdout, exit 0).
 * `leopold init` registers the bundled `dist/hooks/*.js` directly for speed; these
 * subcommands run the same code for people and tests.
 */
export function registerHook(program: Command): void {
  const hook = program.command('hook').description('run a Claude Code hook (JSON on stdin, JSON on stdout)');

  hook
    .command('guard')
    .description('PreToolUse git guard: deny commits, pushes, force-pushes and kill-switch removal during a run')
    .action(() => {
      const out = runGuard(readStdin(), { env: process.env, processCwd: process.cwd() });
      if (out !== '') process.stdout.write(out);
    });

  hook
    .command('stop')
    .description('Stop hook: keep the session on the next plan item, or end the run with its summary (fails open)')
    .action(async () => {
      const out = await runStopHook(readStdin(), { env: process.env, processCwd: process.cwd() });
      if (out !== '') process.stdout.write(out);
    });
}

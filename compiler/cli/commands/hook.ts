import type { Command } from 'commander';

/**
 * `leopold hook <name>`: the Claude Code hooks (JSON on stdin; the guard answers JSON on
 * stdout, the Stop hook blocks with exit 2 and the reason on stderr, docs/hooks.md).
 * `leopold init` registers the bundled `dist/hooks/*.js` directly for speed; these
 * subcommands run the same code for people and tests. Each imports its hook only when it
 * runs: the guard is small, the Stop hook loads zod and remark.
 */
export function registerHook(program: Command): void {
  const hook = program.command('hook').description('run a Claude Code hook (JSON on stdin, JSON on stdout)');

  hook
    .command('guard')
    .description('PreToolUse git guard: deny commits, pushes, force-pushes and kill-switch removal during a run')
    .action(async () => {
      const { readStdin, runGuard } = await import('../../../runtime/hooks/guard/index.js');
      const out = runGuard(readStdin(), { env: process.env, processCwd: process.cwd() });
      if (out !== '') process.stdout.write(out);
    });

  hook
    .command('stop')
    .description('Stop hook: keep the session on the next plan item, or end the run with its summary (fails open)')
    .action(async () => {
      const [{ readStdin }, { runStopHook, stopAnswerOutput }] = await Promise.all([
        import('../../../runtime/hooks/guard/index.js'),
        import('../../../runtime/hooks/stop/index.js'),
      ]);
      const out = stopAnswerOutput(await runStopHook(readStdin(), { env: process.env, processCwd: process.cwd() }));
      if (out.stdout !== '') process.stdout.write(out.stdout);
      if (out.stderr !== '') process.stderr.write(out.stderr);
      process.exitCode = out.exitCode;
    });

  hook
    .command('stop-failure')
    .description('StopFailure hook: a turn died on an API error; end the session run with api_error and say how to resume (fails open)')
    .action(async () => {
      const [{ readStdin }, { runStopFailureHook }] = await Promise.all([
        import('../../../runtime/hooks/guard/index.js'),
        import('../../../runtime/hooks/stop-failure/index.js'),
      ]);
      const out = await runStopFailureHook(readStdin(), { env: process.env, processCwd: process.cwd() });
      if (out !== '') process.stdout.write(out);
    });
}

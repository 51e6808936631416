import { homedir } from 'node:os';
import type { Command } from 'commander';
import { findBriefDir } from '../../brief/index.js';
import { renderDoctor, runDoctor } from '../../doctor/index.js';
import { EXIT } from '../exit.js';
import { leopoldInstall, projectRoot } from './init.js';

/** `leopold doctor [--json]`: check each link of the chain; exit 1 when any check fails. */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description("Check each link from Claude Code to a conducted run: node, the hooks' registration and start, duplicates, the install, the sandbox, the plan, the run")
    .option('--json', 'print { ok, root, checks: [{ id, status, detail, fix }] } as JSON')
    .addHelpText('after', '\nExit codes:\n  0  every check passed (warnings allowed)\n  1  a check failed (each failure says why and the fix)\n  2  usage or I/O problem\n')
    .action((options: { json?: boolean }) => {
      const cwd = process.cwd();
      const leopoldDir = findBriefDir(cwd);
      const root = projectRoot(cwd);
      const checks = runDoctor({ root, leopoldDir, env: process.env, home: homedir(), install: leopoldInstall(), now: new Date() });
      const ok = checks.every((check) => check.status !== 'fail');
      process.stdout.write(options.json ? `${JSON.stringify({ ok, root, checks }, null, 2)}\n` : renderDoctor(root, checks));
      process.exitCode = ok ? EXIT.ok : EXIT.planErrors;
    });
}

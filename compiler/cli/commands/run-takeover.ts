import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { LeopoldError } from '../../diagnostics/diagnostic.js';
import { findBriefDir } from '../../brief/index.js';
import { recordEvents } from '../../../runtime/decisions/index.js';
import { isArmed, LOCK_RECORD } from '../../../runtime/lock/index.js';
import { ownerFor, ownerOf, ownerText, withOwner, type RunOwner } from '../../../runtime/owner/index.js';
import { leopoldCommand } from '../../../runtime/project-cli/index.js';
import { updateState } from '../../../runtime/state/index.js';

/** What a takeover changed: the owner before and after (null: nobody, the next session whose turn ends claims it). */
export interface Takeover {
  from: RunOwner | null;
  to: RunOwner | null;
}

/**
 * Hands the active session run to `session` (null: to whichever Claude Code session's turn
 * ends next) and records a `takeover` event naming both. Null when no session run is active.
 */
export async function takeOverRun(leopoldDir: string, session: string | null, now: () => Date = () => new Date()): Promise<Takeover | null> {
  let change: Takeover | null = null;
  await updateState(leopoldDir, (current) => {
    if (!current) throw new LeopoldError('state.json is unreadable; there is no run to take over');
    if (!current.active || current.engine !== 'session') return current;
    change = { from: ownerOf(current), to: ownerFor(session, 'takeover', now()) };
    return withOwner(current, change.to);
  });
  const done = change as Takeover | null;
  if (done) await recordEvents(leopoldDir, [{ event: 'takeover', from: done.from?.session ?? null, to: done.to?.session ?? null }], now);
  return done;
}

/**
 * A takeover is the user's decision, like lifting the lock: while the lock is armed,
 * Claude's sandboxed commands cannot write `.leopold/lock.json`, and then this refuses.
 * (state.json itself stays writable for the run's own scribes, so the lock's files are the
 * test; where the sandbox cannot run, the guard is all there is: docs/hooks.md.)
 */
function refuseInsideTheSandbox(leopoldDir: string): void {
  if (!isArmed(leopoldDir)) return;
  try {
    accessSync(join(leopoldDir, LOCK_RECORD), constants.W_OK);
  } catch {
    throw new LeopoldError(
      `only you can hand the run to another session: the run lock keeps .leopold/${LOCK_RECORD} read-only for Claude's commands. ` +
        `Type \`! ${leopoldCommand('run takeover')}\` in the Claude Code session that should conduct the run (or run it in your terminal)`,
    );
  }
}

/** `leopold run takeover`: registered on the `run` command. */
export function registerRunTakeover(run: Command): void {
  run
    .command('takeover')
    .description('Hand the active session run to this Claude Code session (or, from a terminal, to the next session whose turn ends)')
    .action(async () => {
      const dir = findBriefDir(process.cwd());
      if (!dir) throw new LeopoldError(`no .leopold/ directory at or above ${process.cwd()} (run leopold init)`);
      refuseInsideTheSandbox(dir);
      const done = await takeOverRun(dir, process.env.CLAUDE_CODE_SESSION_ID ?? null);
      if (done === null) {
        process.stdout.write('No active session run to take over.\n');
        return;
      }
      process.stdout.write(
        `Run handed over: from ${done.from ? `session ${done.from.session}` : 'no owner'} to ${done.to ? `this session (${done.to.session})` : 'the next Claude Code session whose turn ends'}.\n` +
          (done.to ? 'Run /leopold-run here to continue it.\n' : 'Open Claude Code in this project and run /leopold-run to continue it there.\n') +
          `Owner now: ${ownerText(done.to)}\n`,
      );
    });
}

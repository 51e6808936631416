import { statSync } from 'node:fs';
import { join } from 'node:path';
import { apiErrorDetail, apiErrorOf, apiErrorResume } from '../../../runtime/api-error/index.js';
import { KILL_SWITCH_FILE, stopRequested } from '../../../runtime/kill-switch/index.js';
import { isArmed, isRegularFile } from '../../../runtime/lock/index.js';
import { ownerOf, ownerText } from '../../../runtime/owner/index.js';
import { readState } from '../../../runtime/state/index.js';
import { fail, pass, warn, type DoctorCheck, type DoctorContext } from '../check.js';

/** An active run with nothing written for this long is stale: its session is most likely gone. */
export const STALE_AFTER_HOURS = 24;

/** When the run last wrote anything: the newer of state.json and events.jsonl. */
function lastActivity(leopoldDir: string): Date | null {
  const times = ['state.json', 'events.jsonl'].flatMap((file) => {
    try {
      return [statSync(join(leopoldDir, file)).mtime.getTime()];
    } catch {
      return [];
    }
  });
  return times.length > 0 ? new Date(Math.max(...times)) : null;
}

/**
 * The run's own health: state.json parses; an active run has its lock armed and has written
 * something lately; a kill switch or a stop request waiting; a run an API error ended.
 */
export function checkRun(ctx: DoctorContext): DoctorCheck {
  if (ctx.leopoldDir === null) return pass('run', 'no .leopold/, so no run');
  const reading = readState(ctx.leopoldDir);
  if (reading.state === null) {
    return reading.problem === 'missing'
      ? pass('run', 'no run has started here (no .leopold/state.json)')
      : fail('run', `.leopold/state.json is ${reading.problem}: the hooks treat it as no run`, 'if a run was going, look at .leopold/events.jsonl; npx leopold run start replaces the file with a fresh run');
  }
  const state = reading.state;
  if (!state.active) {
    const failed = apiErrorOf(state);
    if (failed) return warn('run', `the last run ended on an API error: ${apiErrorDetail(failed.error, state.engine === 'workflow' ? 'an agent' : 'a turn')}`, apiErrorResume(failed.error, state.engine));
    return pass('run', `no active run (the last one ended ${state.stop_reason ?? 'without a recorded reason'}${state.finished_at ? ` at ${state.finished_at}` : ''})`);
  }
  const about = `an active ${state.engine} run since ${state.started_at ?? 'an unknown time'}${state.engine === 'session' ? `, owner: ${ownerText(ownerOf(state))}` : ''}`;
  if (!isArmed(ctx.leopoldDir)) {
    return warn('run', `${about}, but its lock is not armed (lifted with run unlock during the run): only the git guard holds it`, 'npx leopold run start arms it for the next run; to arm it now, finish this run and start again');
  }
  if (isRegularFile(join(ctx.leopoldDir, KILL_SWITCH_FILE)) || stopRequested(ctx.leopoldDir)) {
    return warn('run', `${about}; the kill switch is raised (or a stop is requested): it stops at its next check`, 'let the conducting session end its turn; remove .leopold/STOP yourself only to run again');
  }
  const last = lastActivity(ctx.leopoldDir);
  const hours = last === null ? 0 : (ctx.now.getTime() - last.getTime()) / 3_600_000;
  if (hours > STALE_AFTER_HOURS) {
    return warn(
      'run',
      `${about}, and nothing has been written for ${Math.floor(hours)} hours: its session is most likely gone, while git stays guarded`,
      'continue it: npx leopold run takeover, then /leopold-run in Claude Code; or end it: npx leopold run finish',
    );
  }
  return pass('run', `${about}; state.json parses, the lock is armed`);
}

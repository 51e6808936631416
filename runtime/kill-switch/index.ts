import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { isRegularFile, isToken } from '../lock/files.js';

/**
 * The kill switch and the way to raise it from inside Claude Code (docs/runtime.md,
 * "leopold run stop"). `.leopold/STOP` stops a run at its next check; while the run lock is
 * armed it is read-only for Claude's commands (so no agent can clear it), which also means
 * `/leopold-stop`, whose command runs in that sandbox, cannot create it. It writes a stop
 * request instead, `.leopold/stop-request`, and the Stop hook (a hook runs as the user,
 * outside the sandbox) raises the kill switch for it when the turn ends. node:fs only: the
 * Stop hook checks for a request on every call.
 */

/** The kill switch's file inside `.leopold/`. */
export const KILL_SWITCH_FILE = 'STOP';
/** A stop asked for from inside Claude's sandbox, waiting for a Stop hook to raise the kill switch. */
export const STOP_REQUEST_FILE = 'stop-request';

/** The kill switch's text: who raised it and how to clear it. */
export function killSwitchText(now: Date, by: string): string {
  return `Raised by ${by} at ${now.toISOString()}.\nThe run stops at its next check. Remove this file to allow runs again.\n`;
}

/** Writes the stop request (fs failures throw as they are). */
export function requestStop(leopoldDir: string, now: Date): void {
  writeFileAtomic(join(leopoldDir, STOP_REQUEST_FILE), `Stop requested by leopold run stop at ${now.toISOString()}.\nLeopold's Stop hook raises .leopold/STOP for it when the turn ends.\n`);
}

/** True while a stop request waits. */
export function stopRequested(leopoldDir: string): boolean {
  return isRegularFile(join(leopoldDir, STOP_REQUEST_FILE));
}

/**
 * What the Stop hook does with a waiting request: raises `.leopold/STOP` (unless it is
 * already raised) and removes the request. `raised` when this call created the kill
 * switch; `false` when there was no request, or the kill switch could not be written (the
 * request then stays for the next Stop).
 */
export function honourStopRequest(leopoldDir: string, now: Date): { raised: boolean } | false {
  if (!stopRequested(leopoldDir)) return false;
  const killSwitch = join(leopoldDir, KILL_SWITCH_FILE);
  let raised = false;
  try {
    // An empty file can be the sandbox's placeholder for a kill switch that does not exist: write it for real.
    if (!isToken(killSwitch)) {
      writeFileAtomic(killSwitch, killSwitchText(now, "Leopold's Stop hook, on the request of leopold run stop (/leopold-stop)"));
      raised = true;
    }
    rmSync(join(leopoldDir, STOP_REQUEST_FILE), { force: true });
  } catch {
    return false;
  }
  return { raised };
}

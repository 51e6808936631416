import { join } from 'node:path';
import { writeFileAtomic } from '../../../runtime/fs/atomic.js';
import { recordEvents } from '../../../runtime/decisions/index.js';
import { KILL_SWITCH_FILE, killSwitchText, requestStop } from '../../../runtime/kill-switch/index.js';
import { isSandboxPlaceholder, isToken } from '../../../runtime/lock/index.js';
import { leopoldCommand } from '../../../runtime/project-cli/index.js';

/** What `leopold run stop` did. */
export type StopOutcome = 'raised' | 'already' | 'requested';

/** Write failures that mean Claude Code's sandbox holds `.leopold/STOP` read-only (measured: EBUSY on 2.1.332's bubblewrap). */
const SANDBOXED = new Set(['EROFS', 'EBUSY', 'EACCES', 'EPERM']);

/**
 * Raises the kill switch `.leopold/STOP`. Inside Claude Code, where the run lock keeps it
 * read-only for Claude's commands (the `/leopold-stop` skill's command runs there), the
 * stop is requested instead (`.leopold/stop-request`) and the Stop hook raises the kill
 * switch when the turn ends (runtime/kill-switch). Elsewhere a failed write throws as it is.
 */
export async function stopRun(leopoldDir: string, now: Date, env: NodeJS.ProcessEnv = process.env): Promise<StopOutcome> {
  const path = join(leopoldDir, KILL_SWITCH_FILE);
  if (isToken(path)) return 'already';
  try {
    writeFileAtomic(path, killSwitchText(now, 'leopold run stop'));
  } catch (error) {
    if (env.CLAUDECODE !== '1' || !(SANDBOXED.has((error as NodeJS.ErrnoException).code ?? '') || isSandboxPlaceholder(path))) throw error;
    requestStop(leopoldDir, now);
    await recordEvents(leopoldDir, [{ event: 'stop-request' }], () => now);
    return 'requested';
  }
  await recordEvents(leopoldDir, [{ event: 'kill_switch' }], () => now);
  return 'raised';
}

/** What `leopold run stop` prints for each outcome. */
export function stopMessage(outcome: StopOutcome): string {
  if (outcome === 'requested') {
    return (
      "Stop requested (.leopold/stop-request). The run lock keeps the kill switch .leopold/STOP read-only for Claude's commands, " +
      "so Leopold's Stop hook raises it when this turn ends; the run then stops with kill_switch at its next check.\n" +
      `To raise it yourself at once: \`! ${leopoldCommand('run stop')}\` in Claude Code, or \`leopold run stop\` in your terminal.\n`
    );
  }
  return `${outcome === 'raised' ? 'Kill switch raised' : 'Kill switch already raised'}: .leopold/STOP. The run stops at its next check.\nTo clear it (only you should): rm .leopold/STOP\n`;
}

import { apiErrorDetail, apiErrorOf, apiErrorResume } from '../../../runtime/api-error/index.js';
import { stopRequested } from '../../../runtime/kill-switch/index.js';
import { ownerOf, ownerText } from '../../../runtime/owner/index.js';
import type { StateReading } from '../../../runtime/state/index.js';

/**
 * The lines `leopold run status` adds for the everyday run (docs/runtime.md): who conducts
 * an active session run, a stop request waiting for the Stop hook, and, for a run an API
 * error ended, what failed and how to resume.
 */
export function everydayStatusLines(leopoldDir: string, reading: StateReading): string[] {
  const lines: string[] = [];
  const state = reading.state;
  if (state?.active && state.engine === 'session') lines.push(`Owner: ${ownerText(ownerOf(state))}`);
  const failed = state ? apiErrorOf(state) : null;
  if (failed) lines.push(`API error: ${apiErrorDetail(failed.error, state?.engine === 'workflow' ? 'an agent' : 'a turn')}`, `Resume: ${apiErrorResume(failed.error, state?.engine)}`);
  if (stopRequested(leopoldDir)) lines.push("Stop requested: .leopold/stop-request waits for Leopold's Stop hook to raise the kill switch (at the end of the next turn of any session here)");
  return lines;
}

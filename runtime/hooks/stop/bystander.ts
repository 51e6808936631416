import { recordEvents } from '../../decisions/events.js';
import { firstTimeBystander } from '../../owner/bystanders.js';
import { shortSession, type RunOwner } from '../../owner/index.js';
import { leopoldCommand } from '../../project-cli/index.js';
import type { RunState } from '../../run/index.js';
import { hookMemoryOf } from './memory.js';
import type { StopAnswer } from './answer.js';

// The Stop hook's answer to a session that does not own the active run (runtime/owner):
// its stop is allowed, nothing of the run is driven or written, and it is told so once.

/** The session whose context window was rolled, while it waits for the fresh session that continues the run. */
export function rolledWindowSession(state: RunState): string | null {
  const window = hookMemoryOf(state).window;
  return window?.rolled ? window.session : null;
}

/**
 * '' (allow the stop, say nothing) or, the first time this session stops during this run,
 * a `systemMessage` naming the owner and how the user moves the run here. Records a
 * `bystander` event that once. Never touches state.json.
 */
export async function bystanderAnswer(leopoldDir: string, state: RunState, owner: RunOwner, session: string, now: () => Date): Promise<StopAnswer> {
  if (!firstTimeBystander(leopoldDir, state.started_at ?? '', session)) return { kind: 'silent' };
  try {
    await recordEvents(leopoldDir, [{ event: 'bystander', session, owner: owner.session }], now, { timeoutMs: 1000 });
  } catch {
    // the log cannot be written: the message still goes out
  }
  const message =
    `Leopold: a run is active in this project, conducted by another Claude Code session (${shortSession(owner.session)}, since ${owner.since}). ` +
    'This session is not driving it: its stops are its own, and the run is left as it is. ' +
    `To move the run to this session (its session is gone, or you want to continue here), run \`! ${leopoldCommand('run takeover')}\` here, then /leopold-run. ` +
    `See it with /leopold-status; stop it with /leopold-stop.`;
  return { kind: 'message', text: message };
}

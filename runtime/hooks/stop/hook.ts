import { statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveAutonomy } from '../../autonomy/resolve.js';
import { parseGuardrailSettings } from '../../guardrails/index.js';
import { recordEvents } from '../../decisions/events.js';
import type { EventInput } from '../../decisions/schema.js';
import { writeFileAtomic } from '../../fs/atomic.js';
import { notifyRunEnded } from '../../notify/run-end.js';
import { charterRules } from '../../persona/charter-rules.js';
import { personaAnswerJsonSchema } from '../../persona/schema.js';
import { planItems } from '../../plan/items-cache.js';
import { readState, updateState } from '../../state/io.js';
import { renderRunSummary } from '../../stop/summary.js';
import { endGrants } from '../../lock/arm.js';
import { isArmed } from '../../lock/files.js';
import { LOCK_NOTE } from '../../lock/paths.js';
import { CHECKPOINT_PATH, renderCheckpoint } from './checkpoint.js';
import { stopTurn, type Turn } from './engine.js';
import { findBriefDirFrom } from '../../fs/brief-dir.js';
import { decidedForYouOfRun, decisionsOfRun, eventsSince, killSwitchRaised, readOptional, transcriptBytes } from './files.js';
import { parseStopInput } from './input.js';
import { hookMemoryOf } from './memory.js';
import { blockReason, repairReason } from './reason.js';

/** Where the hook runs: the environment, the process's own directory and a clock. */
export interface StopHookEnvironment {
  env: NodeJS.ProcessEnv;
  processCwd: string;
  now?: () => Date;
}

// Thrown inside the state update when, under the lock, there is nothing to conduct.
class NotOurs {}

/**
 * The Stop hook (SPEC-RUNTIME §6): hook JSON in, the text to print out — `{"decision":
 * "block","reason":…}` to keep the session on the next item, `{"systemMessage":…}` with
 * the final summary when a stop condition ends the run or with where to continue when the
 * context window rolls (CHECKPOINT.md written first), or '' to let the session stop
 * without a word (no input, no `.leopold/`, no active session run, a workflow running in
 * background_tasks, a run conducted by the workflow engine). Never throws: any unexpected
 * error prints nothing (fail open: a broken hook must never trap a session) and records
 * an `error` event where it can.
 */
export async function runStopHook(stdin: string, where: StopHookEnvironment): Promise<string> {
  const now = where.now ?? (() => new Date());
  const input = parseStopInput(stdin);
  if (input === null) return '';
  let leopoldDir: string | null = null;
  try {
    const project = where.env.CLAUDE_PROJECT_DIR;
    leopoldDir = findBriefDirFrom([...(project ? [project] : []), ...(input.cwd ? [input.cwd] : []), where.processCwd]);
    if (leopoldDir === null) return '';
    const dir = leopoldDir;
    const { state } = readState(dir);
    if (state === null || !state.active || state.engine !== 'session' || input.workflowRunning) {
      if (state?.active !== true && !input.workflowRunning) endRunGrants(dir, now());
      return '';
    }

    const planPath = join(dir, 'PLAN.md');
    statSync(planPath); // a run without a plan is broken: fail open, with an error event
    const items = await planItems(planPath, readOptional(planPath));
    const guardrails = parseGuardrailSettings(readOptional(join(dir, 'GUARDRAILS.md'))).guardrails;
    const autonomy = resolveAutonomy({ env: where.env.LEOPOLD_AUTONOMY, guardrails: guardrails.autonomy }).autonomy;
    const limits = {
      maxIterations: guardrails.maxIterations,
      maxFailures: guardrails.maxFailures,
      maxNoProgress: guardrails.maxNoProgress,
      maxContextMb: guardrails.maxContextMb,
      maxWindows: guardrails.maxWindows,
    };

    const bytes = transcriptBytes(input.transcriptPath);

    let turn: Turn | null = null;
    try {
      await updateState(dir, (current) => {
        if (!current?.active || current.engine !== 'session') throw new NotOurs();
        const since = eventsSince(dir, hookMemoryOf(current).pending?.offset ?? null);
        turn = stopTurn({
          state: current,
          items,
          events: since.events,
          eventsOffset: since.size,
          limits,
          autonomy,
          killSwitch: killSwitchRaised(dir),
          transcriptBytes: bytes,
          sessionId: input.sessionId,
          now: now(),
        });
        // The resume note lands before the state that points at it: a failed write leaves the state untouched (fail open).
        if (turn.checkpoint) {
          const decisions = decisionsOfRun(dir, current).map((d) => ({ n: d.n, title: d.title }));
          writeFileAtomic(join(dir, 'CHECKPOINT.md'), renderCheckpoint({ ...turn.checkpoint, decisions }));
        }
        return turn.state;
      });
    } catch (error) {
      if (error instanceof NotOurs) return '';
      throw error;
    }
    const done: Turn = turn!;
    const action = done.action;
    const checkpointFile = join(dir, 'CHECKPOINT.md');
    const windowEvents: EventInput[] = done.closed.map((w) => ({
      event: 'window',
      window: w.window,
      cause: w.cause,
      closed: w.closedItems,
      iteration: done.state.iteration,
      ...(bytes !== null ? { transcript_bytes: bytes } : {}),
      ...(done.checkpoint ? { checkpoint: CHECKPOINT_PATH } : {}),
    }));

    if (action.type === 'rolled') {
      const message =
        `Leopold: this session's context window was closed (window ${action.window} of at most ${limits.maxWindows}); the run stays active but is not conducted here. ` +
        `Start a fresh Claude Code session in this project and run /leopold-run: it resumes from ${checkpointFile}.`;
      return `${JSON.stringify({ systemMessage: message })}\n`;
    }

    if (action.type === 'roll') {
      await recordEvents(dir, windowEvents, now);
      const size = bytes === null ? '' : ` (${(bytes / 1048576).toFixed(1)} MB)`;
      const next = action.next ? ` (next: item ${action.next.index}, "${action.next.text}")` : '';
      const message =
        `Leopold: the context window is full: the session transcript${size} passed max_context_mb (${limits.maxContextMb} MB). ` +
        `Window ${action.window} of at most ${limits.maxWindows} closed with ${action.done}/${action.total} items done; the run stays active. ` +
        `Checkpoint: ${checkpointFile}. To continue, start a fresh Claude Code session in this project and run /leopold-run: it resumes from the checkpoint${next}.`;
      return `${JSON.stringify({ systemMessage: message })}\n`;
    }

    if (action.type === 'stop') {
      const { verdict } = action;
      await recordEvents(dir, [...windowEvents, { event: 'stop', reason: verdict.reason, detail: verdict.detail, iteration: done.state.iteration, done: action.done, total: action.total, engine: 'session' }], now);
      const remaining = items.filter((item) => !item.done).map((item) => ({ index: item.index, text: item.text }));
      const message = renderRunSummary(done.state, {
        plan: { done: action.done, total: action.total },
        detail: verdict.detail,
        remaining,
        decidedForYou: decidedForYouOfRun(dir, done.state),
      });
      endRunGrants(dir, now());
      // Bounded and never throws: the answer below is printed whatever the webhook does.
      await notifyRunEnded(dir, guardrails.notifyWebhook, message, now);
      return `${JSON.stringify({ systemMessage: `${message}${lockNote(dir)}` })}\n`;
    }

    const charter = () => readOptional(join(dir, 'CHARTER.md'));
    if (action.type === 'repair') {
      const reason = repairReason({ waiting: action.waiting, left: action.left, charterRules: () => charterRules(charter()), personaSchema: personaAnswerJsonSchema });
      await recordEvents(dir, [...windowEvents, { event: 'repair-turn', waiting: action.waiting.map((item) => item.index), iteration: done.state.iteration }], now);
      return `${JSON.stringify({ decision: 'block', reason })}\n`;
    }
    const reason = blockReason({
      item: action.item,
      turn: action.turn,
      maxIterations: limits.maxIterations,
      autonomy,
      rescue: action.rescue,
      resume: action.resume,
      charterRules: () => charterRules(charter()),
      personaSchema: personaAnswerJsonSchema,
    });
    await recordEvents(dir, [...windowEvents, { event: 'turn', item: action.item.index, iteration: action.turn, ...(action.rescue ? { rescue: true } : {}) }], now);
    return `${JSON.stringify({ decision: 'block', reason })}\n`;
  } catch (error) {
    if (leopoldDir !== null) {
      try {
        await recordEvents(leopoldDir, [{ event: 'error', hook: 'stop', message: error instanceof Error ? error.message : String(error) }], now, { timeoutMs: 1000 });
      } catch {
        // the error cannot even be logged (read-only .leopold/): stay silent
      }
    }
    return '';
  }
}

/**
 * A grant lasts one run: once no run is active (this stop ended it, or `run finish` ran
 * inside Claude's sandbox, where the tokens are read-only), the hook, which runs outside
 * the sandbox, removes the tokens and re-arms the lock so git's refs are denied again.
 */
function endRunGrants(leopoldDir: string, now: Date): void {
  try {
    endGrants(leopoldDir, { now });
  } catch {
    // fail open: the guard still reads the tokens on every call
  }
}

/** After a run's summary, while the OS lock stays armed: how the user lifts it. */
export function lockNote(leopoldDir: string): string {
  return isArmed(leopoldDir) ? `\n\n${LOCK_NOTE}` : '';
}

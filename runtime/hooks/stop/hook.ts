import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { resolveAutonomy } from '../../autonomy/resolve.js';
import { parseGuardrailSettings } from '../../guardrails/index.js';
import { readAllEvents, recordEvents as logEvents } from '../../decisions/events.js';
import type { EventInput } from '../../decisions/schema.js';
import { writeFileAtomic } from '../../fs/atomic.js';
import { FileError, isDiskRefusal } from '../../fs/file-error.js';
import { notifyRunEnded } from '../../notify/run-end.js';
import { charterRules } from '../../persona/charter-rules.js';
import { planItems } from '../../plan/items-cache.js';
import { readState, updateState } from '../../state/io.js';
import { hookClient } from '../../state/client.js';
import { emptyState } from '../../state/index.js';
import { eventsOfRun, renderRunSummary, reviewReport } from '../../run/index.js';
import { runEvidence } from '../../verify/receipt.js';
import { endGrants } from '../../lock/arm.js';
import { isArmed } from '../../lock/files.js';
import { LOCK_NOTE } from '../../lock/paths.js';
import { CHECKPOINT_PATH, renderCheckpoint } from './checkpoint.js';
import { stopTurn, type Turn } from './engine.js';
import { findBriefDirFrom } from '../../fs/brief-dir.js';
import { compactedSince, decidedForYouOfRun, decisionsOfRun, eventsSince, killSwitchRaised, readOptional, transcriptBytes } from './files.js';
import { parseStopInput } from './input.js';
import { SILENT, type StopAnswer } from './answer.js';

export { stopAnswerOutput, type StopAnswer } from './answer.js';
import { honourStopRequest } from '../../kill-switch/index.js';
import { API_ERROR_STOP } from '../../api-error/index.js';
import { afterApiErrorNotice } from './after-api-error.js';
import { ownerVerdict, withOwner, type RunOwner } from '../../owner/index.js';
import { bystanderAnswer, rolledWindowSession } from './bystander.js';
import { hookMemoryOf } from './memory.js';
import { blockReason, finalReviewReason, repairReason } from './reason.js';

/** Where the hook runs: the environment, the process's own directory and a clock. */
export interface StopHookEnvironment {
  env: NodeJS.ProcessEnv;
  processCwd: string;
  now?: () => Date;
}

// Thrown inside the state update when, under the lock, there is nothing to conduct.
class NotOurs {}

/**
 * The Stop hook (docs/hooks.md): hook JSON in, the answer out — a block to keep the
 * session on the next item, a message with the final summary when a stop condition ends
 * the run or with where to continue when the context window rolls (CHECKPOINT.md written
 * first), or silence to let the session stop without a word (no input, no `.leopold/`, no
 * active session run, a workflow running in background_tasks, a run conducted by the
 * workflow engine). Never throws: any unexpected error is silence (fail open: a broken
 * hook must never trap a session) and records an `error` event where it can.
 */
export async function runStopHook(stdin: string, where: StopHookEnvironment): Promise<StopAnswer> {
  const now = where.now ?? (() => new Date());
  const input = parseStopInput(stdin);
  if (input === null) return SILENT;
  let leopoldDir: string | null = null;
  try {
    const project = where.env.CLAUDE_PROJECT_DIR;
    leopoldDir = findBriefDirFrom([...(project ? [project] : []), ...(input.cwd ? [input.cwd] : []), where.processCwd]);
    if (leopoldDir === null) return SILENT;
    const dir = leopoldDir;
    // /leopold-stop asked from inside Claude's sandbox: this hook runs outside it and raises the kill switch.
    const honoured = honourStopRequest(dir, now());
    if (honoured && honoured.raised) await logEvents(dir, [{ event: 'kill_switch', via: 'stop-request', ...(input.sessionId ? { session: input.sessionId } : {}) }], now);
    const { state } = readState(dir);
    if (state?.active && state.engine === 'workflow' && input.workflowRunning) await recordWorkflowClient(dir);
    if (state !== null && !state.active && state.stop_reason === API_ERROR_STOP) return await afterApiErrorNotice(dir, state, input.sessionId);
    if (state === null || !state.active || state.engine !== 'session' || input.workflowRunning) {
      // A grant lasts one run: with no run active, whatever a grant was for has ended.
      if (state?.active !== true && !input.workflowRunning) endRunGrants(dir, now());
      return SILENT;
    }
    // One owner per run: another session's stop is its own, and the run is left alone.
    const seen = ownerVerdict(state, input.sessionId, now(), rolledWindowSession(state));
    if (seen.type === 'bystander') return await bystanderAnswer(dir, state, seen.owner, input.sessionId!, now);

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
      gated: guardrails.gated,
    };

    const bytes = transcriptBytes(input.transcriptPath);

    let turn: Turn | null = null;
    let claimed: RunOwner | null = null;
    try {
      await updateState(dir, (current) => {
        if (!current?.active || current.engine !== 'session') throw new NotOurs();
        // Asked again under the lock: a takeover or another session's claim may have landed since.
        const verdict = ownerVerdict(current, input.sessionId, now(), rolledWindowSession(current));
        if (verdict.type === 'bystander') throw new NotOurs();
        claimed = verdict.claim;
        const memory = hookMemoryOf(current);
        const since = eventsSince(dir, memory.pending?.offset ?? null);
        turn = stopTurn({
          state: claimed ? withOwner(current, claimed) : current,
          items,
          events: since.events,
          eventsOffset: since.size,
          limits,
          autonomy,
          killSwitch: killSwitchRaised(dir),
          transcriptBytes: bytes,
          sessionId: input.sessionId,
          compacted: compactedSince(input.transcriptPath, memory.transcript),
          approaches: () => decisionsOfRun(dir, current).filter((d) => d.fork === 'repeated-failure').length,
          now: now(),
        });
        // The resume note lands before the state that points at it: a failed write leaves the state untouched (fail open).
        if (turn.checkpoint) {
          const decisions = decisionsOfRun(dir, current).map((d) => ({ n: d.n, title: d.title }));
          writeFileAtomic(join(dir, 'CHECKPOINT.md'), renderCheckpoint({ ...turn.checkpoint, decisions }), { root: dirname(dir) });
        }
        return turn.state;
      });
    } catch (error) {
      if (error instanceof NotOurs) return SILENT;
      if (isDiskRefusal(error)) return unsaved(dir, error, now);
      throw error;
    }
    // From here the turn is saved: its events are a record for people, and a disk that
    // refuses them must not cost the session the answer the saved state stands for.
    const recordEvents = (at: string, events: EventInput[], clock: () => Date) => logEvents(at, events, clock).catch(() => undefined);
    const done: Turn = turn!;
    const action = done.action;
    const owned = claimed as RunOwner | null;
    if (owned) await recordEvents(dir, [{ event: 'owner', session: owned.session, via: owned.via }], now);
    const checkpointFile = join(dir, 'CHECKPOINT.md');
    // The item the session finished (work or @human), as the workflow's scribe logs it: the report's labels read it.
    const itemDone: EventInput[] = done.finished === null ? [] : [{ event: 'item-done', item: done.finished }];
    const windowEvents: EventInput[] = [...itemDone, ...done.closed.map((w) => ({
      event: 'window',
      window: w.window,
      cause: w.cause,
      closed: w.closedItems,
      iteration: done.state.iteration,
      ...(bytes !== null ? { transcript_bytes: bytes } : {}),
      ...(done.checkpoint ? { checkpoint: CHECKPOINT_PATH } : {}),
    }))];

    if (action.type === 'rolled') {
      const message =
        `Leopold: this session's context window was closed (window ${action.window} of at most ${limits.maxWindows}); the run stays active but is not conducted here. ` +
        `Start a fresh Claude Code session in this project and run /leopold-run: it resumes from ${checkpointFile}.`;
      return { kind: 'message', text: message };
    }

    if (action.type === 'roll') {
      await recordEvents(dir, windowEvents, now);
      const size = bytes === null ? '' : ` (${(bytes / 1048576).toFixed(1)} MB)`;
      const next = action.next ? ` (next: item ${action.next.index}, "${action.next.text}")` : '';
      const message =
        `Leopold: the context window is full: the session transcript${size} passed max_context_mb (${limits.maxContextMb} MB). ` +
        `Window ${action.window} of at most ${limits.maxWindows} closed with ${action.done}/${action.total} items done; the run stays active. ` +
        `Checkpoint: ${checkpointFile}. To continue, start a fresh Claude Code session in this project and run /leopold-run: it resumes from the checkpoint${next}.`;
      return { kind: 'message', text: message };
    }

    if (action.type === 'stop') {
      const { verdict } = action;
      await recordEvents(dir, [...windowEvents, { event: 'stop', reason: verdict.reason, detail: verdict.detail, iteration: done.state.iteration, done: action.done, total: action.total, engine: 'session' }], now);
      const remaining = items.filter((item) => !item.done).map((item) => ({ index: item.index, text: item.text }));
      const journal = eventsOfRun(readAllEvents(dir)); // read once, at the stop only: labels, follow-ups, receipts
      const message = renderRunSummary(done.state, {
        plan: { done: action.done, total: action.total },
        detail: verdict.detail,
        remaining,
        review: reviewReport(journal),
        evidence: runEvidence(journal),
        decidedForYou: decidedForYouOfRun(dir, done.state),
      });
      endRunGrants(dir, now());
      // Bounded and never throws: the answer below is printed whatever the webhook does.
      await notifyRunEnded(dir, guardrails.notifyWebhook, message, now);
      return { kind: 'message', text: `${message}${lockNote(dir)}` };
    }

    const charter = () => readOptional(join(dir, 'CHARTER.md'));
    if (action.type === 'repair') {
      const reason = repairReason({ waiting: action.waiting, left: action.left, turn: done.state.iteration, charterRules: () => charterRules(charter()) });
      await recordEvents(dir, [...windowEvents, { event: 'repair-turn', waiting: action.waiting.map((item) => item.index), iteration: done.state.iteration }], now);
      return { kind: 'block', reason };
    }
    if (action.type === 'final-review') {
      await recordEvents(dir, [...windowEvents, { event: 'final-review-turn', iteration: done.state.iteration }], now);
      return { kind: 'block', reason: finalReviewReason(action.left) };
    }
    const reason = blockReason({
      item: action.item,
      items,
      turn: action.turn,
      maxIterations: limits.maxIterations,
      autonomy,
      rescue: action.rescue,
      resume: action.resume,
      protocol: action.protocol,
      evidence: action.evidence,
      charterRules: () => charterRules(charter()),
    });
    await recordEvents(dir, [...windowEvents, { event: 'turn', item: action.item.index, iteration: action.turn, ...(action.rescue ? { rescue: true } : {}) }], now);
    return { kind: 'block', reason };
  } catch (error) {
    if (leopoldDir !== null) {
      try {
        await logEvents(leopoldDir, [{ event: 'error', hook: 'stop', message: error instanceof Error ? error.message : String(error) }], now, { timeoutMs: 1000 });
      } catch {
        // the error cannot even be logged (read-only .leopold/): stay silent
      }
    }
    return SILENT;
  }
}

/**
 * A workflow run's client, recorded when the turn that launched the workflow ends (the
 * client spawned this hook): `leopold run status` can then tell a run whose client died.
 */
async function recordWorkflowClient(dir: string): Promise<void> {
  const client = hookClient();
  if (client === null) return;
  await updateState(dir, (current) => {
    if (!current?.active || current.engine !== 'workflow') return current ?? emptyState();
    if (current.client?.pid === client.pid && current.client.started === client.started) return current;
    return { ...current, client };
  });
}

/**
 * The answer when the disk refused the turn's state (full, over quota, an I/O error, a
 * read-only file system): state.json is as it was (the write is atomic), the turn is not
 * counted, and the session may stop, but not silently: the user learns why the run is no
 * longer conducted and how to go on. An `error` event is logged where the disk still allows.
 */
async function unsaved(leopoldDir: string, error: unknown, now: () => Date): Promise<StopAnswer> {
  const why = error instanceof FileError ? error.describe(dirname(leopoldDir)) : String((error as Error).message);
  try {
    await logEvents(leopoldDir, [{ event: 'error', hook: 'stop', message: why }], now, { timeoutMs: 1000 });
  } catch {
    // the same disk: nothing more to lose
  }
  const message =
    `Leopold: this turn could not be saved (${why}), so the run is paused: state.json is unchanged and the run is still active, but this session is no longer conducted. ` +
    'Free the space (or fix the disk), then start a fresh Claude Code session in this project and run /leopold-run to continue, or end the run with `leopold run finish`.';
  return { kind: 'message', text: message };
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

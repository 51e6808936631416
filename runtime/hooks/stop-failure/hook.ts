import { join } from 'node:path';
import { API_ERROR_STOP, apiErrorDetail, apiErrorKind, apiErrorRecord, apiErrorResume } from '../../api-error/index.js';
import { recordEvents } from '../../decisions/events.js';
import { findBriefDirFrom } from '../../fs/brief-dir.js';
import { parseGuardrailSettings } from '../../guardrails/index.js';
import { notifyRunEnded } from '../../notify/run-end.js';
import { ownerVerdict, withOwner } from '../../owner/index.js';
import { planItems } from '../../plan/items-cache.js';
import type { PlanItem } from '../../plan/schema.js';
import { readState, updateState } from '../../state/io.js';
import type { RunState } from '../../run/index.js';
import { finishedState } from '../../run/index.js';
import { renderRunSummary } from '../../run/index.js';
import { rolledWindowSession } from '../stop/bystander.js';
import { decidedForYouOfRun, readOptional } from '../stop/files.js';
import { isArmed } from '../../lock/files.js';
import { LOCK_NOTE } from '../../lock/paths.js';
import { endGrants, type Grant } from '../../lock/arm.js';

/** Where the hook runs: the environment, the process's own directory and a clock. */
export interface StopFailureEnvironment {
  env: NodeJS.ProcessEnv;
  processCwd: string;
  now?: () => Date;
}

/** What the hook reads from Claude Code's StopFailure input; everything else is ignored. */
interface StopFailureInput {
  cwd: string | null;
  sessionId: string | null;
  error: string;
  /** Set when the failed turn was a workflow agent's (`agent_type: "workflow-subagent"`): its agent id. */
  workflowAgent: string | null;
}

function parseInput(stdin: string): StopFailureInput | null {
  let json: unknown;
  try {
    json = JSON.parse(stdin);
  } catch {
    return null;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return null;
  const input = json as Record<string, unknown>;
  // Registered on StopFailure alone; an input written for another event is not acted on.
  if (input.hook_event_name !== undefined && input.hook_event_name !== 'StopFailure') return null;
  return {
    cwd: typeof input.cwd === 'string' && input.cwd.startsWith('/') ? input.cwd : null,
    sessionId: typeof input.session_id === 'string' && input.session_id !== '' ? input.session_id : null,
    error: apiErrorKind(input.error),
    workflowAgent: input.agent_type === 'workflow-subagent' ? (typeof input.agent_id === 'string' ? input.agent_id.slice(0, 80) : '') : null,
  };
}

// Thrown inside the state update when, under the lock, the run is not this session's to end.
class NotOurs {}

/**
 * The StopFailure hook (docs/hooks.md, "API errors"): a turn of the session that conducts
 * the active session run died on an API error, so no Stop hook will ever count it and the
 * run would stay active. It ends the run with the stop reason `api_error` (the error kind
 * and whether a retry can help kept in state.json under `api_error`), records the `stop`
 * event the run's end always records, takes back the git grants (`.leopold/ALLOW_GIT`,
 * `ALLOW_PUSH`: they were for this run), posts the report to `notify_webhook`, and answers
 * `{"systemMessage": report}` with how to resume. A workflow agent's error on an active
 * workflow run is kept in state.json (`api_error`, the first one) and logged, for the
 * script to stop on. A turn of another session, or no active run: '' and nothing written.
 * Never throws (the client ignores a StopFailure hook's output and exit code anyway; the
 * run's files are what count).
 */
export async function runStopFailureHook(stdin: string, where: StopFailureEnvironment): Promise<string> {
  const now = where.now ?? (() => new Date());
  const input = parseInput(stdin);
  if (input === null) return '';
  let leopoldDir: string | null = null;
  try {
    const project = where.env.CLAUDE_PROJECT_DIR;
    leopoldDir = findBriefDirFrom([...(project ? [project] : []), ...(input.cwd ? [input.cwd] : []), where.processCwd]);
    if (leopoldDir === null) return '';
    const dir = leopoldDir;
    // A workflow agent's turn (measured: the client fires StopFailure for it in the main
    // session): agent() gives the script a null it cannot attribute. The hook does not end
    // the run (the script is still running it): it keeps the error in state.json, where
    // `leopold record` finds it and reports it in the scribe's ack, and the script's run
    // model stops `api_error` (docs/workflow.md); the run's log says which agent died.
    if (input.workflowAgent !== null) {
      const workflow = (state: RunState | null): state is RunState => state !== null && state.active && state.engine === 'workflow';
      if (!workflow(readState(dir).state)) return '';
      const record = apiErrorRecord(input.error, now());
      // The first error is the run's (the one the script may already have been told of).
      await updateState(dir, (current) => {
        if (!workflow(current)) throw new NotOurs();
        return (current as Record<string, unknown>).api_error ? current : ({ ...current, api_error: record } as RunState);
      }).catch((error: unknown) => {
        if (!(error instanceof NotOurs)) throw error;
      });
      await recordEvents(dir, [{ event: 'api-error', engine: 'workflow', error: record.error, retryable: record.retryable, ...(input.workflowAgent ? { agent: input.workflowAgent } : {}) }], now);
      return '';
    }
    const mine = (state: RunState | null): state is RunState =>
      state !== null && state.active && state.engine === 'session' && ownerVerdict(state, input.sessionId, now(), rolledWindowSession(state)).type === 'conduct';
    if (!mine(readState(dir).state)) return '';

    const items = await itemsOf(dir);
    const record = apiErrorRecord(input.error, now());
    let ended: RunState | null = null;
    try {
      ended = await updateState(dir, (current) => {
        if (!mine(current)) throw new NotOurs();
        const verdict = ownerVerdict(current, input.sessionId, now(), rolledWindowSession(current));
        const owned = verdict.type === 'conduct' && verdict.claim ? withOwner(current, verdict.claim) : current;
        return finishedState({ ...owned, stop_reason: API_ERROR_STOP, api_error: record } as RunState, now(), API_ERROR_STOP);
      });
    } catch (error) {
      if (error instanceof NotOurs) return '';
      throw error;
    }
    const state = ended!;
    const detail = apiErrorDetail(record.error);
    const done = items === null ? null : items.filter((item) => item.done).length;
    await recordEvents(
      dir,
      [
        { event: 'api-error', error: record.error, retryable: record.retryable, ...(input.sessionId ? { session: input.sessionId } : {}) },
        { event: 'stop', reason: API_ERROR_STOP, detail, iteration: state.iteration, ...(items !== null ? { done, total: items.length } : {}), engine: 'session' },
      ],
      now,
    );
    // A grant lasts one run, and the resumed run must not start with git open (the lock's one rule, runtime/lock).
    let cleared: Grant[] = [];
    try {
      cleared = endGrants(dir, { now: now() }).ended;
    } catch {
      // settings that cannot be re-armed keep the grant in the sandbox until the next run start ends it
    }
    if (cleared.length > 0) await recordEvents(dir, [{ event: 'grants-cleared', grants: cleared, reason: API_ERROR_STOP }], now);

    const report = renderRunSummary(state, {
      plan: items === null ? null : { done: done!, total: items.length },
      detail,
      remaining: (items ?? []).filter((item) => !item.done).map((item) => ({ index: item.index, text: item.text })),
      decidedForYou: decidedForYouOfRun(dir, state),
    });
    const message = `${report}\n\n${apiErrorResume(record.error)}${cleared.length > 0 ? `\nThe run's git grants were taken back (${cleared.join(', ')}): grant them again with \`leopold run allow\` for the next run.` : ''}`;
    const webhook = parseGuardrailSettings(readOptional(join(dir, 'GUARDRAILS.md'))).guardrails.notifyWebhook;
    await notifyRunEnded(dir, webhook, message, now);
    return `${JSON.stringify({ systemMessage: `${message}${isArmed(dir) ? `\n\n${LOCK_NOTE}` : ''}` })}\n`;
  } catch (error) {
    if (leopoldDir !== null) {
      try {
        await recordEvents(leopoldDir, [{ event: 'error', hook: 'stop-failure', message: error instanceof Error ? error.message : String(error) }], now, { timeoutMs: 1000 });
      } catch {
        // the error cannot even be logged (read-only .leopold/): stay silent
      }
    }
    return '';
  }
}

/** PLAN.md's items, or null when it cannot be read or parsed (the report then leaves the plan out). */
async function itemsOf(leopoldDir: string): Promise<PlanItem[] | null> {
  const path = join(leopoldDir, 'PLAN.md');
  try {
    const text = readOptional(path);
    return text === '' ? null : await planItems(path, text);
  } catch {
    return null;
  }
}

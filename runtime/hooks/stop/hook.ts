import { statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveAutonomy } from '../../autonomy/resolve.js';
import { parseGuardrailSettings } from '../../guardrails/index.js';
import { recordEvents } from '../../decisions/events.js';
import { charterRules } from '../../persona/charter-rules.js';
import { personaAnswerJsonSchema } from '../../persona/schema.js';
import { parsePlan } from '../../plan/parse.js';
import { readState, updateState } from '../../state/io.js';
import { renderRunSummary } from '../../stop/summary.js';
import { stopTurn, type Turn } from './engine.js';
import { decidedForYouOfRun, eventsSince, findLeopoldDir, killSwitchRaised, readOptional } from './files.js';
import { parseStopInput } from './input.js';
import { hookMemoryOf } from './memory.js';
import { blockReason } from './reason.js';

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
 * the final summary when a stop condition ends the run, or '' to let the session stop
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
    leopoldDir = findLeopoldDir([...(project ? [project] : []), ...(input.cwd ? [input.cwd] : []), where.processCwd]);
    if (leopoldDir === null) return '';
    const dir = leopoldDir;
    const { state } = readState(dir);
    if (state === null || !state.active || state.engine !== 'session' || input.workflowRunning) return '';

    const planPath = join(dir, 'PLAN.md');
    statSync(planPath); // a run without a plan is broken: fail open, with an error event
    const items = parsePlan(readOptional(planPath), planPath).items;
    const guardrails = parseGuardrailSettings(readOptional(join(dir, 'GUARDRAILS.md'))).guardrails;
    const autonomy = resolveAutonomy({ env: where.env.LEOPOLD_AUTONOMY, guardrails: guardrails.autonomy }).autonomy;
    const limits = {
      maxIterations: guardrails.maxIterations,
      maxFailures: guardrails.maxFailures,
      maxNoProgress: guardrails.maxNoProgress,
      maxContextMb: guardrails.maxContextMb,
      maxWindows: guardrails.maxWindows,
    };

    let turn: Turn | null = null;
    try {
      await updateState(dir, (current) => {
        if (!current?.active || current.engine !== 'session') throw new NotOurs();
        const since = eventsSince(dir, hookMemoryOf(current).pending?.offset ?? null);
        turn = stopTurn({ state: current, items, events: since.events, eventsOffset: since.size, limits, autonomy, killSwitch: killSwitchRaised(dir), now: now() });
        return turn.state;
      });
    } catch (error) {
      if (error instanceof NotOurs) return '';
      throw error;
    }
    const done: Turn = turn!;
    const action = done.action;

    if (action.type === 'stop') {
      const { verdict } = action;
      await recordEvents(dir, [{ event: 'stop', reason: verdict.reason, detail: verdict.detail, iteration: done.state.iteration, done: action.done, total: action.total, engine: 'session' }], now);
      const summary = renderRunSummary(done.state, { plan: { done: action.done, total: action.total }, decidedForYou: decidedForYouOfRun(dir, done.state) });
      return `${JSON.stringify({ systemMessage: `${summary}\n(${verdict.detail})` })}\n`;
    }

    const charter = () => readOptional(join(dir, 'CHARTER.md'));
    const reason = blockReason({
      item: action.item,
      turn: action.turn,
      maxIterations: limits.maxIterations,
      autonomy,
      rescue: action.rescue,
      charterRules: () => charterRules(charter()),
      personaSchema: personaAnswerJsonSchema,
    });
    await recordEvents(dir, [{ event: 'turn', item: action.item.index, iteration: action.turn, ...(action.rescue ? { rescue: true } : {}) }], now);
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

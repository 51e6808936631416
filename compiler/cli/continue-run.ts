import { join } from 'node:path';
import { readOptionalTextFile, readTextFile } from '../brief/read-text.js';
import { LeopoldError } from '../diagnostics/diagnostic.js';
import { SCRIPT_PATH } from '../emit/index.js';
import { compile } from '../index.js';
import { highestDecisionNumber } from '../../runtime/decisions/trail.js';
import { readAllEvents } from '../../runtime/decisions/events.js';
import { eventsOfRun, foldJournal } from '../../runtime/run/index.js';
import { parsePlan } from '../../runtime/plan/parse/index.js';
import { clientAlive } from '../../runtime/state/client.js';
import { readState, updateState } from '../../runtime/state/index.js';
import type { RunState } from '../../runtime/run/index.js';
import { apiErrorIn, type ApiErrorRecord } from '../../runtime/api-error/index.js';
import { packModel, type Continuation } from '../../runtime/workflow/continuation.js';
import { planLayout, readCompileOptions } from './compile-inputs.js';

/**
 * `leopold run continue`: the args that continue an active workflow run in a new launch of
 * the same compiled script, when the launch that ran it is gone (its Claude Code client was
 * killed, crashed, or `claude -p` stopped waiting). The run model comes from the run's
 * journal (runtime/run/journal.ts), folded by the one reducer; items a `@feedback` node
 * appended are compiled from PLAN.md as it is now; the continuation is for the script as
 * it was compiled (its sha256 names the PLAN.md it embeds), which the lock keeps
 * read-only during the run. A client that is still alive is refused: two launches would
 * do the same work twice.
 */
export function continuationFor(leopoldDir: string, cwd: string, options: { force: boolean }): Continuation {
  const { state } = readState(leopoldDir);
  if (state === null || !state.active || state.engine !== 'workflow') {
    throw new LeopoldError('leopold run continue: no active workflow-engine run to continue (leopold run status shows the run)');
  }
  if (state.client !== null && clientAlive(state.client) === true && !options.force) {
    throw new LeopoldError(
      `leopold run continue: the Claude Code process that runs this workflow (pid ${state.client.pid}) is still alive; continuing would run the plan twice. Wait for its result, or end that process first (--force continues anyway)`,
    );
  }
  const root = join(leopoldDir, '..');
  const script = readTextFile(join(root, SCRIPT_PATH), 'compiled workflow');
  const sha = /\(sha256 ([0-9a-f]{64})\)/.exec(script.slice(0, 4096))?.[1];
  if (sha === undefined) throw new LeopoldError(`${SCRIPT_PATH} does not name the PLAN.md it embeds; run leopold compile before the run starts`);
  const compiledArgs = JSON.parse(readTextFile(join(leopoldDir, 'workflow-args.json'), 'workflow args')) as { items?: unknown[] };
  const embedded = Array.isArray(compiledArgs.items) ? compiledArgs.items.length : 0;

  const layout = planLayout(join(leopoldDir, 'PLAN.md'), cwd);
  const planText = readTextFile(layout.planAbs, 'plan');
  const now = compile(planText, { ...readCompileOptions(layout, cwd, undefined), repair: undefined });
  if (!now.ok || now.compiled === null) throw new LeopoldError(`${layout.planShown} no longer compiles (leopold graph shows why); the run cannot continue on it`);
  const journal = eventsOfRun(readAllEvents(leopoldDir));
  const model = foldJournal(journal, parsePlan(planText, layout.planShown).items);
  const launches = journal.filter((event) => event.event === 'workflow-start').length;
  const decisions = readOptionalTextFile(join(leopoldDir, 'DECISIONS.md'), 'decision trail');
  return {
    plan: sha,
    launch: launches + 1,
    model: packModel(model),
    added: now.compiled.items.filter((node) => node.index > embedded),
    memory: {},
    lastDecision: highestDecisionNumber(decisions),
  };
}

/**
 * `leopold run continue` as a whole: the continuation (continuationFor), and an API error
 * the StopFailure hook kept for the run (state.json `api_error`) taken back. Continuing is
 * the user's word that the API answers again; left in place, the new launch's first scribe
 * ack would report the old error and stop the run `api_error` at once. The error stays in
 * the journal (`api-error` event). Returns the continuation and the error it cleared, if any.
 */
export async function continueRun(leopoldDir: string, cwd: string, options: { force: boolean }): Promise<{ continuation: Continuation; cleared: ApiErrorRecord | null }> {
  const continuation = continuationFor(leopoldDir, cwd, options);
  let cleared: ApiErrorRecord | null = null;
  const { state } = readState(leopoldDir);
  if (state !== null && apiErrorIn(state) !== null) {
    await updateState(leopoldDir, (current) => {
      if (current === null) throw new LeopoldError('state.json became unreadable while continuing the run');
      cleared = apiErrorIn(current);
      const { api_error: _old, ...rest } = current as RunState & { api_error?: unknown };
      void _old;
      return rest as RunState;
    });
  }
  return { continuation, cleared };
}

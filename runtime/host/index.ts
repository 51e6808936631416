import { AgentDesk } from './agents.js';
import { AnswerBook } from './answers.js';
import { oversizedArrayMessage, oversizedArrayPath } from './boundary.js';
import { DEFAULT_RUN_TIMEOUT_MS, DEFAULT_TOKENS_PER_ANSWER, MAX_LOG_LINES, RESULT_PREVIEW_CHARS, SLICE_MS } from './limits.js';
import { LoadRefusal, loadWorkflowScript } from './load.js';
import { createWorkflowRealm, type WorkflowRealm } from './realm.js';
import { VirtualClock } from './scheduler.js';
import type { HostError, HostRun, RunOptions } from './types.js';

export type { AgentCall, AgentCallStatus, HostError, HostRun, HostRunStats, HostViolation, RunOptions, StaticCheck } from './types.js';
export {
  AnswerRuleSchema,
  AnswerScriptSchema,
  ScriptedAnswerSchema,
  parseAnswerScript,
  type AnswerRule,
  type AnswerScript,
  type ScriptedAnswer,
} from './answers.js';
export { defaultAnswerFor, DEFAULT_TEXT_ANSWER } from './default-answer.js';
export { AGENT_EFFORTS, AgentOptionsSchema } from './agent-options.js';
export { LOAD_REFUSAL_CODES, loadWorkflowScript, LoadRefusal, type LoadedScript } from './load.js';
export * from './limits.js';

/**
 * Runs a workflow script in the stand-in for Claude Code's dynamic-workflow runtime
 * (docs/host-contract.md): load (or refuse) it, run the body in a fresh hardened realm with
 * scripted or default agent answers on a virtual clock, and report the run. Never throws
 * for anything the script does; the report says what happened.
 */
export async function runWorkflowScript(source: string, options: RunOptions = {}): Promise<HostRun> {
  const file = options.file ?? 'workflow.js';
  const timeoutMs = options.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
  const budgetTotal = options.budgetTotal ?? null;
  const logs: string[] = [];
  const phases: string[] = [];
  let logsDropped = 0;
  const clock = new VirtualClock();
  const desk = new AgentDesk(clock, new AnswerBook(options.answers ?? []), budgetTotal, options.defaultTokens ?? DEFAULT_TOKENS_PER_ANSWER);
  const report = (meta: Record<string, unknown>, outcome: { ok: true; result?: unknown } | { ok: false; error: HostError }): HostRun => {
    desk.finish();
    const run: HostRun = {
      ok: outcome.ok,
      journal: desk.journal,
      logs,
      phases,
      meta,
      stats: {
        agents: desk.journal.filter((call) => call.source !== null).length,
        maxConcurrency: desk.maxConcurrency,
        tokensSpent: desk.spent,
        logsDropped,
        virtualMs: clock.now,
      },
    };
    if (!outcome.ok) run.error = outcome.error;
    else if ('result' in outcome && outcome.result !== undefined) {
      run.result = outcome.result;
      run.resultPreview = JSON.stringify(outcome.result).slice(0, RESULT_PREVIEW_CHARS);
    }
    return run;
  };
  const fail = (name: string, message: string) => ({ ok: false as const, error: { name, message } });

  let loaded;
  try {
    loaded = loadWorkflowScript(source, file, options.staticCheck);
  } catch (error) {
    if (!(error instanceof LoadRefusal)) throw error;
    return { ...report({}, fail('HostLoadError', error.message)), violations: error.violations };
  }

  let argsJson: string | undefined;
  if (options.args !== undefined) {
    argsJson = JSON.stringify(options.args);
    const args: unknown = argsJson === undefined ? undefined : JSON.parse(argsJson);
    const path = oversizedArrayPath(args, 'args');
    if (path) return report(loaded.meta, fail('RangeError', oversizedArrayMessage(path, lengthAt(args, path))));
  }

  const log = (line: string) => {
    logs.push(line);
    if (logs.length > MAX_LOG_LINES) {
      logs.shift();
      logsDropped += 1;
    }
  };
  let failure: HostError | null = null;
  let settled: string | null = null;
  let realm: WorkflowRealm | null = null;
  realm = createWorkflowRealm(
    {
      agent: (prompt, optionsJson, problem) =>
        desk.call(String(prompt), optionsJson, problem).then(
          (outcome) => JSON.stringify(outcome),
          (error: unknown) => JSON.stringify(fail('Error', `internal host error: ${String(error)}`)),
        ),
      phase: (title) => {
        const text = String(title);
        phases.push(text);
        desk.setPhase(text);
      },
      log: (line) => log(String(line)),
      spent: () => desk.spent,
      setTimer: (delay) => {
        const id: number = clock.schedule(Number(delay), () => {
          const thrown = realm?.fireTimer(id) ?? null;
          if (thrown !== null && failure === null) {
            const error = JSON.parse(thrown) as HostError;
            failure = { name: error.name, message: `uncaught in a setTimeout callback: ${error.message}` };
          }
        });
        return id;
      },
      clearTimer: (id) => clock.cancel(Number(id)),
    },
    argsJson,
    budgetTotal,
  );

  const watch = { realm, report: (reason: unknown) => log(`[host] unhandled rejection: ${describeForeign(reason)}`) };
  watchRejections(watch);
  try {
    try {
      void realm.runBody(loaded.body, file, Math.min(SLICE_MS, timeoutMs)).then((json) => {
        settled = json;
      });
    } catch (error) {
      // A compile error the parser let through, or the first slice running past its limit.
      const { name, message } = error as Error;
      return report(loaded.meta, fail(name === 'SyntaxError' ? 'HostLoadError' : 'Error', String(message)));
    }
    const state = await clock.run(() => settled !== null || failure !== null, Date.now() + timeoutMs);
    if (failure !== null) return report(loaded.meta, { ok: false, error: failure });
    if (state === 'timeout') return report(loaded.meta, fail('Error', `the run took longer than ${timeoutMs} ms`));
    if (state === 'idle' || settled === null) {
      return report(loaded.meta, fail('Error', 'the workflow waits on nothing: no agent or timer is pending, so it can never finish'));
    }
    const outcome = JSON.parse(settled) as { ok: true; result?: unknown } | { ok: false; error: HostError };
    if (outcome.ok && outcome.result !== undefined) {
      const path = oversizedArrayPath(outcome.result, 'result');
      if (path) return report(loaded.meta, fail('RangeError', oversizedArrayMessage(path, lengthAt(outcome.result, path))));
    }
    return report(loaded.meta, outcome);
  } finally {
    clock.clear();
    // Node reports unhandled rejections after the turn that made them: keep listening one more turn.
    setImmediate(() => unwatchRejections(watch));
  }
}

function lengthAt(root: unknown, path: string): number {
  const segments = path.match(/\.([^.[]+)|\[(\d+)\]/g) ?? [];
  let node = root;
  for (const segment of segments) {
    const key = segment.startsWith('[') ? Number(segment.slice(1, -1)) : segment.slice(1);
    node = (node as Record<string | number, unknown>)[key];
  }
  return Array.isArray(node) ? node.length : 0;
}

/** A realm value as text, read from the host side without trusting it. */
function describeForeign(reason: unknown): string {
  try {
    if (reason !== null && typeof reason === 'object') {
      const { name, message } = reason as { name?: unknown; message?: unknown };
      if (typeof message === 'string') return `${typeof name === 'string' ? name : 'Error'}: ${message}`;
    }
    return String(reason);
  } catch {
    return '[unprintable]';
  }
}

// Realm promises share the process's rejection tracking: a rejection the script leaves
// unhandled becomes a log line of its run, not a crash of the process running the host.
interface RejectionWatch {
  realm: WorkflowRealm;
  report: (reason: unknown) => void;
}
const watches = new Set<RejectionWatch>();

function onUnhandledRejection(reason: unknown, promise: Promise<unknown>): void {
  for (const watch of watches) {
    if (watch.realm.owns(promise)) {
      watch.report(reason);
      return;
    }
  }
  // Not ours: keep Node's default (crash) when nobody else listens.
  if (process.listenerCount('unhandledRejection') === 1) throw reason;
}

function watchRejections(watch: RejectionWatch): void {
  if (watches.size === 0) process.on('unhandledRejection', onUnhandledRejection);
  watches.add(watch);
}

function unwatchRejections(watch: RejectionWatch): void {
  watches.delete(watch);
  if (watches.size === 0) process.off('unhandledRejection', onUnhandledRejection);
}

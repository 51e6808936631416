import { homedir } from 'node:os';
import { ioFailureLine } from '../io-error.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { BRIEF_FILES, findBriefDir } from '../../brief/index.js';
import { LeopoldError } from '../../diagnostics/diagnostic.js';
import { decidedForYou, decisionsSince, readDecisions, recordEvents, type DecisionRecord } from '../../../runtime/decisions/index.js';
import { writeFileAtomic } from '../../../runtime/fs/atomic.js';
import {
  armLock,
  grantLift,
  isRegularFile,
  LockError,
  readLockRecord,
  releaseLock,
  sandboxAvailability,
  sandboxRequiredError,
  sandboxWarning,
  type Grant,
  type LockRecord,
  type SandboxAvailability,
  LOCK_NOTE,
  excludedCommands,
  excludedWarning,
} from '../../../runtime/lock/index.js';
import { parseGuardrailSettings } from '../../../runtime/guardrails/index.js';
import { notifyRunEnded } from '../../../runtime/notify/index.js';
import { parsePlan } from '../../../runtime/plan/parse/index.js';
import {
  EngineSchema,
  eventsOfRun,
  finishedState,
  readState,
  startedState,
  updateState,
  workflowCounters,
  type LoggedEvent,
  type RunState,
  type StateReading,
  type WorkflowCounters,
} from '../../../runtime/state/index.js';
import { failuresText, renderRunSummary, StopReasonSchema } from '../../../runtime/stop/index.js';
import type { PlanIR } from '../../../runtime/plan/schema.js';

/** The kill switch's file name inside `.leopold/`. */
export const KILL_SWITCH = 'STOP';

function briefDir(cwd: string): string {
  const dir = findBriefDir(cwd);
  if (!dir) throw new LeopoldError(`no .leopold/ directory at or above ${cwd} (run leopold init)`);
  return dir;
}

/**
 * Starts a run: writes an active state.json with every counter zeroed. Refused while a
 * run is active (unless `force`) and while the kill switch is raised (only a person
 * clears it, by removing the file).
 */
export async function startRun(
  dir: string,
  options: { engine: string; force: boolean },
  now: () => Date = () => new Date(),
): Promise<{ state: RunState; replaced: StateReading['problem'] | 'active' }> {
  const engine = EngineSchema.safeParse(options.engine);
  if (!engine.success) throw new LeopoldError(`--engine must be session or workflow, not "${options.engine}"`);
  if (isRegularFile(join(dir, KILL_SWITCH))) {
    throw new LeopoldError('the kill switch .leopold/STOP is raised; remove it (rm .leopold/STOP) before starting a run');
  }
  let replaced: StateReading['problem'] | 'active' = null;
  const state = await updateState(dir, (current, problem) => {
    if (current?.active && !options.force) {
      throw new LeopoldError(
        `a run is already active (engine ${current.engine}, started ${current.started_at ?? 'at an unknown time'}); ` +
          'end it with `leopold run finish`, or pass --force to start over',
      );
    }
    replaced = current?.active ? 'active' : problem !== 'missing' ? problem : null;
    return startedState(engine.data, now());
  });
  await recordEvents(dir, [{ event: 'start', engine: engine.data, forced: replaced === 'active' }], now);
  return { state, replaced };
}

/**
 * Ends the active run (null when none was active), records a `finish` event, and renders the
 * summary. A workflow run's script cannot write state.json, so its counters (iterations,
 * failures, the rescue) and the stop it ended at come from the events its scribe logged
 * since the run started. `plan_complete` is refused while plan items remain.
 */
export async function finishRun(
  dir: string,
  reason: string | null,
  now: () => Date = () => new Date(),
): Promise<{ state: RunState; summary: string } | null> {
  if (reason !== null && !StopReasonSchema.safeParse(reason).success) {
    throw new LeopoldError(`--reason must be a stop condition (${StopReasonSchema.options.join(', ')}), not "${reason}"`);
  }
  // Nothing active: nothing to end, and nothing is written.
  if (readState(dir).state?.active !== true) return null;
  const plan = planOf(dir);
  const open = plan?.items.filter((item) => !item.done) ?? [];
  if (reason === 'plan_complete' && plan && open.length > 0) {
    throw new LeopoldError(
      `--reason plan_complete: ${plan.items.length - open.length} of ${plan.items.length} items are done; items ${open.map((item) => item.index).join(', ')} remain (give the condition that ended the run, or none)`,
    );
  }
  let wasActive = false;
  let detail: string | null = null;
  const state = await updateState(dir, (current) => {
    wasActive = current?.active === true;
    if (!current) throw new LeopoldError('state.json became unreadable while finishing the run');
    if (!wasActive) return current;
    const counted = current.engine === 'workflow' ? withWorkflowCounters(current, workflowCounters(eventsOfRun(readEvents(dir)))) : { state: current, stop: null };
    detail = counted.stop?.detail || null;
    // Finishing under a raised kill switch is a kill_switch stop unless told otherwise.
    const why = reason ?? counted.stop?.reason ?? (isRegularFile(join(dir, KILL_SWITCH)) ? 'kill_switch' : null);
    if (reason !== null && reason !== counted.stop?.reason) detail = null;
    return finishedState(counted.state, now(), why);
  });
  if (!wasActive) return null;
  await recordEvents(dir, [{ event: 'finish', reason: state.stop_reason, iteration: state.iteration }], now);
  const summary = renderRunSummary(state, {
    plan: plan ? { done: plan.items.length - open.length, total: plan.items.length } : null,
    detail,
    remaining: open.map((item) => ({ index: item.index, text: item.text })),
    decidedForYou: decisionsOfRun(dir, state),
  });
  return { state, summary };
}

/** A workflow run's state with the counters its events hold (never lower than what state.json already says). */
function withWorkflowCounters(state: RunState, counters: WorkflowCounters): { state: RunState; stop: WorkflowCounters['stop'] } {
  const counted = Object.values(counters.failures).reduce((sum, n) => sum + n, 0);
  const recorded = Object.values(state.failures).reduce((sum, n) => sum + n, 0);
  return {
    state: {
      ...state,
      iteration: Math.max(state.iteration, counters.iteration),
      failures: counted > recorded ? counters.failures : state.failures,
      rescue_used: state.rescue_used || counters.rescueUsed,
    },
    stop: counters.stop,
  };
}

/** Every event of `.leopold/events.jsonl` (lines that are not JSON objects skipped); none when it is missing. */
function readEvents(dir: string): LoggedEvent[] {
  let text: string;
  try {
    text = readFileSync(join(dir, 'events.jsonl'), 'utf8');
  } catch {
    return [];
  }
  const events: LoggedEvent[] = [];
  for (const line of text.split('\n')) {
    try {
      const value = JSON.parse(line) as unknown;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) events.push(value as LoggedEvent);
    } catch {
      // a blank or torn line
    }
  }
  return events;
}

/** The brief's PLAN.md as parsed, or null when it cannot be read. */
function planOf(dir: string): PlanIR | null {
  try {
    return parsePlan(readFileSync(join(dir, BRIEF_FILES.plan), 'utf8'), BRIEF_FILES.plan);
  } catch {
    return null;
  }
}

/** "What I decided for you" over the decisions stamped since the run started (all, when unknown). */
function decisionsOfRun(dir: string, state: RunState): string {
  let records: DecisionRecord[];
  try {
    records = readDecisions(readFileSync(join(dir, 'DECISIONS.md'), 'utf8'));
  } catch {
    return '';
  }
  return decidedForYou(decisionsSince(records, state.started_at));
}

/** GUARDRAILS' `notify_webhook` (`none` when the file is missing or unreadable). */
function notifyWebhookOf(dir: string): string {
  try {
    return parseGuardrailSettings(readFileSync(join(dir, BRIEF_FILES.guardrails), 'utf8')).guardrails.notifyWebhook;
  } catch {
    return 'none';
  }
}

/** Human-readable state for `leopold run status`. */
export function renderStatus(reading: StateReading, killSwitch: boolean): string {
  const lines: string[] = [];
  if (reading.state === null) {
    lines.push(reading.problem === 'missing' ? 'No run state (.leopold/state.json does not exist).' : `No usable run state: state.json is ${reading.problem}.`);
  } else {
    const s = reading.state;
    lines.push(
      `Run: ${s.active ? 'active' : 'not active'} · engine ${s.engine}`,
      `Started: ${s.started_at ?? '-'} · finished: ${s.finished_at ?? '-'} · stop reason: ${s.stop_reason ?? '-'}`,
      `Iteration: ${s.iteration} · no-progress turns: ${s.no_progress} · windows: ${s.windows}`,
      `Failures: ${failuresText(s.failures)} · streak: ${s.consecutive_failures.count}${s.consecutive_failures.kind ? ` ${s.consecutive_failures.kind}` : ''}`,
      `Rescue used: ${s.rescue_used ? 'yes' : 'no'} · plan changes used: ${s.amendments_used}/3`,
      `Routes taken: ${s.routing.taken.map((r) => `${r.from} -[${r.when}]-> ${r.to}`).join(', ') || 'none'}`,
    );
  }
  lines.push(`Kill switch: ${killSwitch ? 'RAISED (.leopold/STOP; clear it with rm .leopold/STOP)' : 'not raised'}`);
  return lines.join('\n');
}

/** How long `run start` waits, inside Claude Code, for the session to re-read the armed settings (measured under 1 s). */
const SETTINGS_RELOAD_MS = 2_000;

/**
 * Runs a write of the lock's files. Inside Claude Code's sandbox those are read-only on
 * purpose: there the one-line I/O failure also says who can do it.
 */
function lockedWrite<T>(write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (error instanceof LockError) throw new LeopoldError(error.message);
    const line = ioFailureLine(error, process.cwd());
    if (line === null) throw error;
    const hint = process.env.CLAUDECODE === '1' ? " (the run lock keeps the lock's files read-only for Claude's commands: only you can do this, in your own terminal or after ! in Claude Code)" : '';
    throw new LeopoldError(`${line}${hint}`);
  }
}

/** What `run start` says about the lock it armed. */
function armedText(record: LockRecord, sandbox: SandboxAvailability): string {
  const lifts = record.grants.length > 0 ? ` Granted: ${record.grants.join(', ')} (git's refs stay writable).` : '';
  return sandbox.available
    ? `Lock armed (${sandbox.via}): Claude's Bash commands cannot move a git ref or write the guardrails, the kill switch, the tokens or the hook settings.${lifts} ` +
        'It stays armed after the run ends: review the run, then lift it yourself with `leopold run unlock`.'
    : `Lock armed in the settings, but only the git guard holds it here (see the warning).${lifts} Lift it with \`leopold run unlock\`.`;
}

/** The lock line of `leopold run status`. */
export function renderLock(record: LockRecord | null, sandbox: SandboxAvailability): string {
  const os = sandbox.available ? `Claude Code sandbox via ${sandbox.via}` : 'sandbox UNAVAILABLE: the git guard alone';
  if (record === null) return `Lock: not armed (${os} when a run arms it)`;
  return `Lock: armed since ${record.armed_at} · ${os} · grants: ${record.grants.join(', ') || 'none'}${record.require_sandbox ? ' · sandbox required' : ''} (lift it with leopold run unlock)`;
}

/** Raises the kill switch; false when it was already raised. */
export function raiseKillSwitch(dir: string, now: Date): boolean {
  const path = join(dir, KILL_SWITCH);
  if (isRegularFile(path)) return false;
  lockedWrite(() => writeFileAtomic(path, `Raised by leopold run stop at ${now.toISOString()}.\nThe run stops at its next check. Remove this file to allow runs again.\n`));
  return true;
}

/** `leopold run start|finish|status|stop`. */
export function registerRun(program: Command): void {
  const run = program.command('run').description('Start, end, show or stop a Leopold run (.leopold/state.json, .leopold/STOP)');

  run
    .command('start')
    .description('Activate a run: write .leopold/state.json with zeroed counters (refused while one is active)')
    .option('--engine <engine>', 'session (Stop hook conducts) or workflow (the compiled workflow conducts)', 'session')
    .option('--force', 'start over even though a run is active (its counters are discarded)')
    .option('--require-sandbox', "refuse to start where Claude Code's sandbox cannot run, and make Claude Code refuse unsandboxed commands (sandbox.failIfUnavailable)")
    .action(async (options: { engine: string; force?: boolean; requireSandbox?: boolean }) => {
      const dir = briefDir(process.cwd());
      const sandbox = sandboxAvailability();
      if (!sandbox.available) {
        if (options.requireSandbox) throw new LeopoldError(sandboxRequiredError(sandbox));
        process.stderr.write(`${sandboxWarning(sandbox)}\n`);
      }
      const excludedLists = excludedCommands(join(dir, '..'), homedir());
      const excluded = excludedWarning(excludedLists);
      if (excluded) process.stderr.write(`${excluded}\n`);
      // lock.json records the OS layer for the git guard (docs/guard.md, "Two modes").
      const osLayer = { available: sandbox.available, excludedCommands: excludedLists.flatMap((found) => found.commands) };
      const armed = lockedWrite(() => armLock(dir, { now: new Date(), requireSandbox: options.requireSandbox === true, sandbox: osLayer }));
      const { state, replaced } = await startRun(dir, { engine: options.engine, force: options.force === true });
      if (replaced === 'active') process.stdout.write('Replaced the active run (--force).\n');
      else if (replaced !== null) process.stdout.write(`Replaced an unusable state.json (${replaced}).\n`);
      process.stdout.write(
        `Run started (engine: ${state.engine}) at ${state.started_at}.\n` +
          'Raise the kill switch with `leopold run stop`; end the run with `leopold run finish`.\n' +
          `${armedText(armed.record, sandbox)}\n`,
      );
      // Claude Code re-reads its settings while a session runs (measured: within a second);
      // started from a session, wait for that before the next command runs.
      if (armed.changed && process.env.CLAUDECODE === '1') await new Promise((done) => setTimeout(done, SETTINGS_RELOAD_MS));
    });

  run
    .command('unlock')
    .description("Lift the OS lock a run armed (only from your own terminal: Claude's sandboxed commands cannot)")
    .action(() => {
      const dir = briefDir(process.cwd());
      const released = lockedWrite(() => releaseLock(dir));
      const active = readState(dir).state?.active === true;
      process.stdout.write(
        released === null
          ? 'The lock is not armed.\n'
          : `Lock lifted: Claude Code's sandbox settings are as they were before the run${active ? '; the run is still active, so the git guard still denies git until it ends' : ''}.\n`,
      );
    });

  run
    .command('allow')
    .description('Grant a lift (only from your own terminal): git lets the agent commit, push lets it push (never force)')
    .argument('<what>', 'git or push')
    .action((what: string) => {
      if (what !== 'git' && what !== 'push') throw new LeopoldError(`leopold run allow: give git or push, not "${what}"`);
      const dir = briefDir(process.cwd());
      const grant = what as Grant;
      const { armed } = lockedWrite(() => grantLift(dir, grant, new Date()));
      process.stdout.write(
        `Granted: ${grant === 'git' ? 'commits' : 'pushes (never force-pushes)'} are allowed during runs (.leopold/${grant === 'git' ? 'ALLOW_GIT' : 'ALLOW_PUSH'}; remove it to take the grant back).\n` +
          (armed ? "The armed lock now leaves git's refs writable for Claude's commands.\n" : ''),
      );
    });

  run
    .command('finish')
    .description('End the active run, record a finish event and print the summary with "What I decided for you"')
    .option('--reason <condition>', 'the stop condition that ended it (e.g. plan_complete)')
    .action(async (options: { reason?: string }) => {
      const dir = briefDir(process.cwd());
      const finished = await finishRun(dir, options.reason ?? null);
      process.stdout.write(finished ? `${finished.summary}\n` : 'No active run.\n');
      if (!finished) return;
      if (readLockRecord(dir) !== null) process.stdout.write(`\n${LOCK_NOTE}\n`);
      // After the summary is out: a slow or broken webhook only delays the exit, bounded.
      const sent = await notifyRunEnded(dir, notifyWebhookOf(dir), finished.summary);
      if (sent && !sent.ok) process.stderr.write(`notify_webhook: the report was not delivered (${sent.error ?? `HTTP ${sent.status}`}).\n`);
    });

  run
    .command('status')
    .description('Show .leopold/state.json, the kill switch and the lock')
    .option('--json', 'print { state, problem, killSwitch } as JSON')
    .action((options: { json?: boolean }) => {
      const dir = briefDir(process.cwd());
      const reading = readState(dir);
      const killSwitch = isRegularFile(join(dir, KILL_SWITCH));
      const lock = readLockRecord(dir);
      const sandbox = sandboxAvailability();
      if (options.json) {
        const lockJson = lock ? { armed: true, armedAt: lock.armed_at, grants: lock.grants, requireSandbox: lock.require_sandbox } : { armed: false };
        process.stdout.write(`${JSON.stringify({ state: reading.state, problem: reading.problem, killSwitch, lock: { ...lockJson, sandbox } }, null, 2)}\n`);
      } else process.stdout.write(`${renderStatus(reading, killSwitch)}\n${renderLock(lock, sandbox)}\n`);
      if (!sandbox.available) process.stderr.write(`${sandboxWarning(sandbox)}\n`);
      const excluded = excludedWarning(excludedCommands(join(dir, '..'), homedir()));
      if (excluded) process.stderr.write(`${excluded}\n`);
    });

  run
    .command('stop')
    .description('Raise the kill switch (.leopold/STOP): both engines stop at their next check')
    .action(async () => {
      const dir = briefDir(process.cwd());
      const raised = raiseKillSwitch(dir, new Date());
      if (raised) await recordEvents(dir, [{ event: 'kill_switch' }]);
      process.stdout.write(
        `${raised ? 'Kill switch raised' : 'Kill switch already raised'}: .leopold/STOP. The run stops at its next check.\n` +
          'To clear it (only you should): rm .leopold/STOP\n',
      );
    });
}

import { homedir } from 'node:os';
import { ioFailureLine } from '../io-error.js';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { BRIEF_FILES, findBriefDir } from '../../brief/index.js';
import { LeopoldError } from '../../diagnostics/diagnostic.js';
import { decidedForYou, decisionsSince, readDecisions, recordEvents, type DecisionRecord } from '../../../runtime/decisions/index.js';
import { writeFileAtomic } from '../../../runtime/fs/atomic.js';
import { readOptionalText } from '../../../runtime/fs/read.js';
import { readAllEvents } from '../../../runtime/decisions/events.js';
import { runEvidence } from '../../../runtime/verify/receipt.js';
import { readDecisionsFile } from '../../../runtime/decisions/file.js';
import { readPlanFile } from '../../../runtime/plan/plan-file.js';
import {
  armLock,
  endGrants,
  grantLift,
  grantsEndedText,
  isRegularFile,
  liftReview,
  tokenPath,
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
import { EXIT } from '../exit.js';
import { entryRefusal } from '../entry-gate.js';
import { notifyRunEnded } from '../../../runtime/notify/index.js';
import { parsePlan } from '../../../runtime/plan/parse/index.js';
import { EngineSchema, readState, startedState, StopReasonSchema, updateStateAnd, type RunState, type StateReading } from '../../../runtime/state/index.js';
import { eventsOfRun, failuresText, finishedState, foldJournal, renderRunSummary, reviewReport, stopOf, type LoggedEvent } from '../../../runtime/run/index.js';
import { clientAlive } from '../../../runtime/state/client.js';
import { API_ERROR_STOP, apiErrorDetail, apiErrorIn, apiErrorKind, apiErrorOf, apiErrorRecord, apiErrorResume, type ApiErrorRecord } from '../../../runtime/api-error/index.js';
import { ownerFor, withOwner, type RunOwner } from '../../../runtime/owner/index.js';
import { registerRunTakeover } from './run-takeover.js';
import { stopMessage, stopRun } from './run-stop.js';
import { everydayStatusLines } from './run-status.js';
import type { PlanIR } from '../../../runtime/plan/schema.js';
import { hookProblems, hookRefusal, pluginRootOf } from '../hook-check.js';
import { leopoldInstall } from './init.js';

/** The kill switch's file name inside `.leopold/`. */
export const KILL_SWITCH = 'STOP';

function briefDir(cwd: string): string {
  const dir = findBriefDir(cwd);
  if (!dir) throw new LeopoldError(`no .leopold/ directory at or above ${cwd} (run leopold init)`);
  return dir;
}

/** Why `run start` would refuse now (the kill switch raised, a run active without --force), or null. */
export function startRefusal(dir: string, force: boolean): LeopoldError | null {
  if (isRegularFile(join(dir, KILL_SWITCH))) {
    return new LeopoldError('the kill switch .leopold/STOP is raised; remove it (rm .leopold/STOP) before starting a run');
  }
  const current = readState(dir).state;
  return current?.active && !force ? activeRunError(current) : null;
}

function activeRunError(current: RunState): LeopoldError {
  return new LeopoldError(
    `a run is already active (engine ${current.engine}, started ${current.started_at ?? 'at an unknown time'}); ` + 'end it with `leopold run finish`, or pass --force to start over',
  );
}

/**
 * Starts a run: writes an active state.json with every counter zeroed. Refused while a
 * run is active (unless `force`) and while the kill switch is raised (only a person
 * clears it, by removing the file).
 */
export async function startRun(
  dir: string,
  options: { engine: string; force: boolean; owner?: RunOwner | null },
  now: () => Date = () => new Date(),
): Promise<{ state: RunState; replaced: StateReading['problem'] | 'active' }> {
  const engine = EngineSchema.safeParse(options.engine);
  if (!engine.success) throw new LeopoldError(`--engine must be session or workflow, not "${options.engine}"`);
  const refused = startRefusal(dir, options.force);
  if (refused) throw refused;
  let replaced: StateReading['problem'] | 'active' = null;
  // The state and its `start` event land together: an event the disk refuses puts state.json back.
  const state = await updateStateAnd(
    dir,
    (current, problem) => {
      if (current?.active && !options.force) throw activeRunError(current);
      replaced = current?.active ? 'active' : problem !== 'missing' ? problem : null;
      return withOwner(startedState(engine.data, now()), options.owner ?? null);
    },
    () => recordEvents(dir, [{ event: 'start', engine: engine.data, forced: replaced === 'active', ...(options.owner ? { owner: options.owner.session } : {}) }], now),
  );
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
  // The finished state and its `finish` event land together: an event the disk refuses puts state.json back.
  const state = await updateStateAnd(
    dir,
    (current) => {
      wasActive = current?.active === true;
      if (!current) throw new LeopoldError('state.json became unreadable while finishing the run');
      if (!wasActive) return current;
      const counted = current.engine === 'workflow' ? withJournal(current, eventsOfRun(readAllEvents(dir)), plan?.items ?? []) : { state: current, stop: null };
      detail = counted.stop?.detail || null;
      // An API error a workflow agent died on, as the StopFailure hook kept it (the script may
      // not have recorded its stop: its scribe can die of the same refusals).
      const failed = current.engine === 'workflow' ? apiErrorIn(current) : null;
      // Finishing under a raised kill switch is a kill_switch stop unless told otherwise; then an API error.
      const why = reason ?? counted.stop?.reason ?? (isRegularFile(join(dir, KILL_SWITCH)) ? 'kill_switch' : failed ? API_ERROR_STOP : null);
      if (reason !== null && reason !== counted.stop?.reason) detail = null;
      const { api_error: _kept, ...rest } = counted.state as RunState & { api_error?: unknown };
      void _kept;
      if (why !== API_ERROR_STOP) return finishedState(rest as RunState, now(), why);
      // An api_error end keeps what failed (docs/runtime.md): the hook's record, else the stop event's, else unknown.
      const record = failed ?? apiErrorOfStop(counted.stop, now());
      detail ??= apiErrorDetail(record.error, 'an agent');
      return finishedState({ ...rest, api_error: record } as RunState, now(), why);
    },
    (finished) => (wasActive ? recordEvents(dir, [{ event: 'finish', reason: finished.stop_reason, iteration: finished.iteration }], now) : undefined),
  );
  if (!wasActive) return null;
  return { state, summary: runReport(dir, state, plan, detail, eventsOfRun(readAllEvents(dir))) };
}

/**
 * The report of a run that already ended (the Stop hook, a StopFailure or an earlier `run
 * finish` ended it), as `run finish` printed or would have printed it, or null when no run
 * ever started here. Reads only: nothing is written.
 */
export function endedRunReport(dir: string): { state: RunState; summary: string } | null {
  const state = readState(dir).state;
  if (state === null || state.active || state.started_at === null) return null;
  const journal = eventsOfRun(readAllEvents(dir));
  return { state, summary: runReport(dir, state, planOf(dir), stopOf(journal)?.detail || null, journal) };
}

/** The run's report from its state, the plan now and the run's journal (read once: outcome labels, follow-ups and receipts come from it). */
function runReport(dir: string, state: RunState, plan: PlanIR | null, detail: string | null, journal: readonly LoggedEvent[]): string {
  const open = plan?.items.filter((item) => !item.done) ?? [];
  const report = renderRunSummary(state, {
    plan: plan ? { done: plan.items.length - open.length, total: plan.items.length } : null,
    detail,
    remaining: open.map((item) => ({ index: item.index, text: item.text })),
    review: reviewReport(journal),
    evidence: runEvidence(journal),
    decidedForYou: decisionsOfRun(dir, state),
  });
  // A run an API error ended says how to resume, as the StopFailure hook's report does.
  const failed = apiErrorOf(state);
  return failed ? `${report}\n\n${apiErrorResume(failed.error, state.engine)}` : report;
}

/** The API error a workflow's `stop` event names (its `error` field), or `unknown` when none does. */
function apiErrorOfStop(stop: { reason: string; error?: unknown } | null, at: Date): ApiErrorRecord {
  return apiErrorRecord(apiErrorKind(stop?.reason === API_ERROR_STOP ? stop.error : undefined), at);
}

/**
 * A workflow run's state as its journal rebuilds it (runtime/run/journal.ts): the script
 * cannot write state.json, so the model its scribe journaled is the run's, and its last
 * `stop` event the condition it ended at.
 */
function withJournal(state: RunState, journal: readonly LoggedEvent[], items: PlanIR['items']): { state: RunState; stop: ReturnType<typeof stopOf> } {
  return { state: { ...state, ...foldJournal(journal, items) }, stop: stopOf(journal) };
}

/** The brief's PLAN.md as parsed, or null when it cannot be read (missing, not a regular file, not UTF-8, nested too deep). */
function planOf(dir: string): PlanIR | null {
  try {
    const plan = parsePlan(readPlanFile(join(dir, BRIEF_FILES.plan)).text, BRIEF_FILES.plan);
    return plan.tooDeep ? null : plan;
  } catch {
    return null;
  }
}

/** "What I decided for you" over the whole decisions stamped since the run started (all, when unknown); a torn last entry is left out. */
function decisionsOfRun(dir: string, state: RunState): string {
  let records: DecisionRecord[];
  try {
    records = readDecisions(readDecisionsFile(dir));
  } catch {
    return '';
  }
  return decidedForYou(decisionsSince(records, state.started_at));
}

/** GUARDRAILS' `notify_webhook` (`none` when the file is missing or unreadable). */
function notifyWebhookOf(dir: string): string {
  try {
    return parseGuardrailSettings(readOptionalText(join(dir, BRIEF_FILES.guardrails))).guardrails.notifyWebhook;
  } catch {
    return 'none';
  }
}

/** The run's subagents as `run status` shows them: the total, and the busiest item's count (the caps, docs/guardrails.md). */
function subagentsText(seen: RunState['subagents'] | undefined): string {
  const total = seen?.total ?? 0;
  const busiest = Object.entries(seen?.by_item ?? {}).sort(([a, x], [b, y]) => y - x || Number(a) - Number(b))[0];
  return busiest && total > 0 ? `${total} (most: item ${busiest[0]}, ${busiest[1]})` : String(total);
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
      `Iteration: ${s.iteration} · no-progress turns: ${s.no_progress} · context windows closed: ${s.windows}`,
      `Failures: ${failuresText(s.failures)} · streak: ${s.consecutive_failures.count}${s.consecutive_failures.kind ? ` ${s.consecutive_failures.kind}` : ''}`,
      `Rescue used: ${s.rescue_used ? 'yes' : 'no'} · plan changes used: ${s.amendments_used}/3 · subagents: ${subagentsText(s.subagents)}`,
      `Routes taken: ${s.routing.taken.map((r) => `${r.from} -[${r.when}]-> ${r.to}`).join(', ') || 'none'}`,
    );
  }
  lines.push(`Kill switch: ${killSwitch ? 'RAISED (.leopold/STOP; clear it with rm .leopold/STOP)' : 'not raised'}`);
  return lines.join('\n');
}

/** What `run status` says about a workflow run's client: its process, whether it is alive, and where the run got to. */
export interface ClientView {
  pid: number | null;
  /** true running, false gone (the run is dead: continue it or finish it), null unknown. */
  alive: boolean | null;
  /** The last step the run's journal records, e.g. `item 3 finished ok (turn 5)`; null when none. */
  lastStep: string | null;
}

/**
 * An active workflow run as `run status` shows it: the counters its journal holds (the
 * script cannot write state.json; runtime/run/journal.ts) and its client: the Claude Code
 * process the Stop hook recorded when the launching turn ended.
 */
export function workflowView(dir: string, reading: StateReading): { reading: StateReading; client: ClientView | null } {
  const state = reading.state;
  if (state === null || !state.active || state.engine !== 'workflow') return { reading, client: null };
  const journal = eventsOfRun(readAllEvents(dir));
  const folded = { ...state, ...foldJournal(journal, planOf(dir)?.items ?? []) };
  let lastStep: string | null = null;
  for (let i = journal.length - 1; i >= 0 && lastStep === null; i--) {
    const run = journal[i]!.run as { type?: string; outcome?: { index: number; status: string } } | undefined;
    if (journal[i]!.event === 'run' && run?.type === 'finished' && run.outcome) lastStep = `item ${run.outcome.index} finished ${run.outcome.status}`;
  }
  const client: ClientView = { pid: state.client?.pid ?? null, alive: state.client ? clientAlive(state.client) : null, lastStep };
  return { reading: { state: folded, problem: null }, client };
}

/** The client line of `leopold run status` for a workflow run. */
export function renderClient(client: ClientView): string {
  const last = `last completed step: ${client.lastStep ?? 'none yet'}`;
  if (client.pid === null) return `Client: not seen yet (recorded when the turn that launched the workflow ends) · ${last}`;
  if (client.alive === true) return `Client: running (pid ${client.pid}) · ${last}`;
  if (client.alive === null) return `Client: pid ${client.pid}, cannot tell whether it runs · ${last}`;
  return (
    `Client: GONE (pid ${client.pid} has exited): this workflow run is dead · ${last}. ` +
    'Continue it: run /leopold-workflow again (it launches the same script with `leopold run continue`), or end it: `leopold run finish`.'
  );
}

/** The plugin this CLI runs from (its bin/leopold), or null: a package install, or a lone copy of dist/. */
function runningPlugin(): string | null {
  try {
    return pluginRootOf(leopoldInstall().root);
  } catch {
    return null;
  }
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
      // The entry gate, before anything is armed or written: the plan as `graph --strict`
      // checks it, and GUARDRAILS.md read as written.
      const refused = entryRefusal(dir, process.cwd());
      if (refused.count > 0) {
        process.stderr.write(
          `${refused.rendered}leopold: run start refused: the brief does not pass leopold graph --strict (${refused.count === 1 ? '1 problem' : `${refused.count} problems`} above); fix it and start again. Nothing was started.\n`,
        );
        process.exitCode = EXIT.planErrors;
        return;
      }
      const existingLock = readLockRecord(dir);
      const sandbox = sandboxInForce(dir, existingLock);
      if (!sandbox.available) {
        if (options.requireSandbox) throw new LeopoldError(sandboxRequiredError(sandbox));
        process.stderr.write(`${sandboxWarning(sandbox)}\n`);
      }
      const excludedLists = excludedCommands(join(dir, '..'), homedir());
      const excluded = excludedWarning(excludedLists);
      if (excluded) process.stderr.write(`${excluded}\n`);
      // The hooks that guard and conduct the run must start (README, "Node versions").
      const hooks = hookProblems(join(dir, '..'), process.env, runningPlugin());
      if (hooks.length > 0) throw new LeopoldError(hookRefusal(hooks));
      const notNow = startRefusal(dir, options.force === true);
      if (notNow) throw notNow;
      // A grant lasts one run: this one starts without the last one's.
      const grants = lockedWrite(() => endGrants(dir, { now: new Date(), rearm: false }));
      if (grants.kept.length > 0) {
        throw new LeopoldError(
          `a grant from before this run is still in place (${grants.kept.map(tokenPath).join(', ')}), and Claude's sandbox keeps it read-only here; a grant lasts one run: remove it in your own terminal (or start the run there), then give it again once the run has started`,
        );
      }
      // lock.json records the OS layer for the git guard (docs/guard.md, "Two modes").
      const osLayer = { available: sandbox.available, excludedCommands: excludedLists.flatMap((found) => found.commands) };
      // A start that fails part way (a full disk) takes back the lock it armed: it adds nothing.
      const undoArming = (error: unknown): never => {
        if (existingLock === null) {
          try {
            lockedWrite(() => releaseLock(dir));
          } catch {
            // the same disk: the next `run start` or `run unlock` finishes the release
          }
        }
        throw error;
      };
      const armed = lockedWrite(() => {
        try {
          return armLock(dir, { now: new Date(), requireSandbox: options.requireSandbox === true, sandbox: osLayer });
        } catch (error) {
          // Inside Claude's sandbox the lock's files are read-only: a lock already armed stays as you armed it.
          if (existingLock !== null && process.env.CLAUDECODE === '1' && ioFailureLine(error, process.cwd()) !== null) return { record: existingLock, changed: false };
          return undoArming(error);
        }
      });
      // Started from a Claude Code session, that session owns a session run (its commands carry its id).
      // A workflow run has no owner: its Stop hook never drives it.
      const owner = options.engine === 'session' ? ownerFor(process.env.CLAUDE_CODE_SESSION_ID, 'start', new Date()) : null;
      const { state, replaced } = await startRun(dir, { engine: options.engine, force: options.force === true, owner }).catch(undoArming);
      if (replaced === 'active') process.stdout.write('Replaced the active run (--force).\n');
      else if (replaced !== null) process.stdout.write(`Replaced an unusable state.json (${replaced}).\n`);
      const ended = grantsEndedText(grants, 'before this run');
      process.stdout.write(
        `Run started (engine: ${state.engine}) at ${state.started_at}.\n` +
          'Raise the kill switch with `leopold run stop`; end the run with `leopold run finish`.\n' +
          `${armedText(armed.record, sandbox)}\n${ended ? `${ended}\n` : ''}`,
      );
      // Claude Code re-reads its settings while a session runs (measured: within a second);
      // started from a session, wait for that before the next command runs.
      if (armed.changed && process.env.CLAUDECODE === '1') await new Promise((done) => setTimeout(done, SETTINGS_RELOAD_MS));
    });

  run
    .command('unlock')
    .description("Lift the OS lock a run armed (only from your own terminal: Claude's sandboxed commands cannot); refused while the run left changes that would take effect later")
    .option('--accept-changes', 'lift it although the audit lists changes, once you have reviewed them')
    .action((options: { acceptChanges?: boolean }) => {
      const dir = briefDir(process.cwd());
      if (readLockRecord(dir) !== null) {
        const review = lockedWrite(() => liftReview(dir, 'run unlock', options.acceptChanges === true));
        process.stdout.write(`${review.text}\n`);
        if (!review.clean) {
          process.stdout.write('The lock stays armed.\n');
          process.exitCode = 1;
          return;
        }
        lockedWrite(() => endGrants(dir, { now: new Date(), rearm: false }));
      }
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
      if (what !== 'git' && what !== 'push') throw new LeopoldError(`run allow takes git or push, not "${what}"`);
      const dir = briefDir(process.cwd());
      const grant = what as Grant;
      const { armed } = lockedWrite(() => grantLift(dir, grant, new Date()));
      process.stdout.write(
        `Granted: ${grant === 'git' ? 'commits' : 'pushes (never force-pushes)'} are allowed during this run (${tokenPath(grant)}; remove it to take the grant back; it ends with the run).\n` +
          (armed ? "The armed lock now leaves git's refs writable for Claude's commands.\n" : ''),
      );
      if (readState(dir).state?.active !== true) {
        process.stderr.write('warning: no run is active: a grant lasts one run, and the next `leopold run start` (or the end of the current Claude Code turn) ends this one; give it once the run has started.\n');
      }
    });

  run
    .command('finish')
    .description('End the active run, record a finish event and print the summary with "What I decided for you"')
    .option('--reason <condition>', 'the stop condition that ended it (e.g. plan_complete)')
    .option('--accept-changes', 'accept the changes the audit lists, once you have reviewed them')
    .action(async (options: { reason?: string; acceptChanges?: boolean }) => {
      const dir = briefDir(process.cwd());
      const finished = await finishRun(dir, options.reason ?? null);
      // A run that already ended (the Stop hook stopped it): nothing to end, and its report again.
      const ended = finished ? null : endedRunReport(dir);
      process.stdout.write(
        finished ? `${finished.summary}\n` : ended ? `No active run: the last run already ended (${ended.state.stop_reason ?? 'finished'}, ${ended.state.finished_at ?? 'time unknown'}). Its report:\n\n${ended.summary}\n` : 'No active run.\n',
      );
      if (readLockRecord(dir) !== null) {
        // A grant lasts one run; the audit says whether the run left anything that fires later.
        const ended = grantsEndedText(lockedWrite(() => endGrants(dir, { now: new Date() })), 'with the run');
        if (finished || ended) process.stdout.write(`\n${LOCK_NOTE}\n`);
        if (ended) process.stdout.write(`${ended}\n`);
        const review = lockedWrite(() => liftReview(dir, 'run finish', options.acceptChanges === true));
        process.stdout.write(`\n${review.text}\n`);
        if (!review.clean) process.exitCode = 1;
      }
      if (!finished) return;
      // After the summary is out: a slow or broken webhook only delays the exit, bounded.
      const sent = await notifyRunEnded(dir, notifyWebhookOf(dir), finished.summary);
      if (sent && !sent.ok) process.stderr.write(`notify_webhook: the report was not delivered (${sent.error ?? `HTTP ${sent.status}`}).\n`);
    });

  run
    .command('status')
    .description('Show the run (.leopold/state.json; a workflow run as its journal has it, and whether its client is alive), the kill switch and the lock')
    .option('--json', 'print { state, problem, killSwitch, lock, client } as JSON')
    .option('--watch', 'follow the active run live until it stops (Ctrl-C to leave): progress, the current item, decisions, the stop')
    .action(async (options: { json?: boolean; watch?: boolean }) => {
      const dir = briefDir(process.cwd());
      if (options.watch) {
        if (options.json) throw new LeopoldError('leopold run status: give --watch or --json, not both');
        process.exitCode = await (await import('./run-watch.js')).watchRun(dir);
        return;
      }
      const { reading, client } = workflowView(dir, readState(dir));
      const killSwitch = isRegularFile(join(dir, KILL_SWITCH));
      const lock = readLockRecord(dir);
      const sandbox = sandboxInForce(dir, lock);
      if (options.json) {
        const lockJson = lock ? { armed: true, armedAt: lock.armed_at, grants: lock.grants, requireSandbox: lock.require_sandbox } : { armed: false };
        process.stdout.write(`${JSON.stringify({ state: reading.state, problem: reading.problem, killSwitch, lock: { ...lockJson, sandbox }, client }, null, 2)}\n`);
      } else {
        const lines = [renderStatus(reading, killSwitch), ...(client ? [renderClient(client)] : []), ...everydayStatusLines(dir, reading), renderLock(lock, sandbox)];
        process.stdout.write(`${lines.join('\n')}\n`);
      }
      if (!sandbox.available) process.stderr.write(`${sandboxWarning(sandbox)}\n`);
      const excluded = excludedWarning(excludedCommands(join(dir, '..'), homedir()));
      if (excluded) process.stderr.write(`${excluded}\n`);
    });

  registerRunTakeover(run);

  run
    .command('continue')
    .description('Print the args that continue an active workflow run whose Claude Code client is gone: Workflow({ scriptPath, args: <this> })')
    .option('--force', 'continue even though the client that runs it still seems alive')
    .action(async (options: { force?: boolean }) => {
      const dir = briefDir(process.cwd());
      // The compiler (for items a run appended) loads only for this subcommand.
      const { continueRun } = await import('../continue-run.js');
      const { continuation, cleared } = await continueRun(dir, process.cwd(), { force: options.force === true });
      if (cleared) process.stderr.write(`leopold: the API error the run stopped on (${cleared.error}) is cleared: the continued launch goes on\n`);
      process.stdout.write(`${JSON.stringify({ continue: continuation })}\n`);
    });

  run
    .command('stop')
    .description('Raise the kill switch (.leopold/STOP): both engines stop at their next check')
    .action(async () => {
      const dir = briefDir(process.cwd());
      // A write refused for another reason than the sandbox is one line, saying who can do it.
      const outcome = await stopRun(dir, new Date()).catch((error: unknown) =>
        lockedWrite(() => {
          throw error;
        }),
      );
      process.stdout.write(stopMessage(outcome));
    });
}

/**
 * Whether Claude Code's sandbox can hold the lock here. From inside that sandbox (a
 * session's `run start --force`, its `run status`) the probe cannot start a nested
 * sandbox: an armed lock's record of the OS layer is the one to trust there.
 */
function sandboxInForce(dir: string, lock = readLockRecord(dir)): SandboxAvailability {
  const probed = sandboxAvailability(process.env, process.platform, dirname(dir));
  const insideSandbox = process.env.CLAUDECODE === '1' && lock?.sandbox?.available === true;
  return insideSandbox && !probed.available ? { available: true, via: 'the sandbox this session runs in' } : probed;
}

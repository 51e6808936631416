import type { Command } from 'commander';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { parseOptions } from '../../brief/options.js';
import { readTextFile } from '../../brief/read-text.js';
import { hasErrors, LeopoldError, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { DiagnosticFormatSchema, renderDiagnostics } from '../../diagnostics/render.js';
import { SCRIPT_PATH } from '../../emit/index.js';
import { analyzePlan, compile, type CompileResult } from '../../index.js';
import { proposalVerdicts, renderRepairReport, repairDecision, repairPrompt, type RepairOutcome } from '../../repair/index.js';
import { appendDecisions } from '../../../runtime/decisions/index.js';
import { writeFileAtomic, writeFilesAtomic } from '../../../runtime/fs/atomic.js';
import { emptyState, readState, updateState } from '../../../runtime/state/index.js';
import { planLayout, readCompileOptions, type PlanLayout } from '../compile-inputs.js';
import { endQuietlyOnBrokenPipe, shownPath } from '../io.js';
import { EXIT } from '../exit.js';
import { repairTimeoutMs, runRepairCommand } from '../repair-command.js';

/** The args file, beside PLAN.md in the brief. */
const ARGS_FILE = 'workflow-args.json';

/** `leopold compile` options as commander hands them over; validated once here. */
export const CompileCliOptionsSchema = z
  .object({
    print: z.boolean().default(false),
    check: z.boolean().default(false),
    /** Commander's `--no-repair` sets this to false. */
    repair: z.boolean().default(true),
    repairFrom: z.string().min(1, 'expected a file path or - for stdin').optional(),
    repairCmd: z.string().trim().min(1, 'expected a shell command').optional(),
    autonomy: z.enum(['full', 'ask']).optional(),
    format: DiagnosticFormatSchema.default('text'),
  })
  .superRefine((opts, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    const source = opts.repairFrom !== undefined ? '--repair-from' : opts.repairCmd !== undefined ? '--repair-cmd' : null;
    if (opts.print && opts.check) fail('--print and --check cannot be combined; choose one');
    if (opts.repairFrom !== undefined && opts.repairCmd !== undefined) fail('--repair-from and --repair-cmd cannot be combined; give one proposal source');
    if (source && (opts.print || opts.check)) fail(`${source} cannot be combined with ${opts.print ? '--print' : '--check'}, which never repair`);
    if (source && !opts.repair) fail(`${source} cannot be combined with --no-repair`);
  });
export type CompileCliOptions = z.infer<typeof CompileCliOptionsSchema>;

const EXIT_HELP = `
Writes (without --print or --check), both atomically:
  <project>/${SCRIPT_PATH}   the workflow Claude Code runs (/leopold-workflow-run)
  <project>/.leopold/${ARGS_FILE}       the Leopold-compatible args payload
  where <project> is the directory holding .leopold/.

Repair (only without --print/--check/--no-repair, only when the plan has errors, never under
autonomy ask): proposals come from --repair-from FILE|- or --repair-cmd CMD (run with sh -c,
the repair prompt on stdin, answer on stdout, killed after LEOPOLD_REPAIR_TIMEOUT seconds,
default 120). PLAN.md is rewritten once, only if the repaired plan is valid; the diff goes to
stdout and a DECISIONS.md entry records how to undo it. See docs/compile.md.

Exit codes:
  0  compiled (or, with --check, the files on disk are up to date)
  1  the plan has errors (after any repair), or --check found a stale or missing file
  2  usage or input problem (missing or unreadable file, conflicting flags)
`;

/** `leopold compile [PLAN]`: validate, repair if allowed, emit the workflow script and args. */
export function registerCompile(program: Command): void {
  program
    .command('compile')
    .description('compile the plan into .claude/workflows/leopold-run.js and .leopold/workflow-args.json')
    .argument('[plan]', 'path to PLAN.md (default: the nearest .leopold/PLAN.md, walking up)')
    .option('--print', 'print the script on stdout and write nothing')
    .option('--check', 'compile in memory and exit 1 if an output file on disk is stale or missing')
    .option('--no-repair', 'never repair the plan, even with a proposal source')
    .option('--repair-from <file>', 'repair proposals: a file holding a ```leopold-amend block, or - for stdin')
    .option('--repair-cmd <cmd>', 'repair proposals: a shell command given the repair prompt on stdin')
    .option('--autonomy <posture>', 'full or ask (beats LEOPOLD_AUTONOMY and GUARDRAILS.md)')
    .option('--format <format>', 'diagnostics format on stderr: text, json or github', 'text')
    .addHelpText('after', EXIT_HELP)
    .action(async (plan: string | undefined, raw: unknown) => {
      endQuietlyOnBrokenPipe();
      process.exitCode = await runCompile(plan, parseOptions(CompileCliOptionsSchema, raw));
    });
}

/** Where a plan's brief and outputs live. */
interface Layout extends PlanLayout {
  scriptAbs: string;
  argsAbs: string;
}

function layoutOf(planArg: string | undefined, cwd: string): Layout {
  const layout = planLayout(planArg, cwd);
  return { ...layout, scriptAbs: join(layout.root, SCRIPT_PATH), argsAbs: join(layout.briefDir, ARGS_FILE) };
}

/** Runs `leopold compile`; returns the exit code. I/O problems throw LeopoldError (exit 2). */
async function runCompile(planArg: string | undefined, opts: CompileCliOptions): Promise<number> {
  const cwd = process.cwd();
  const layout = layoutOf(planArg, cwd);
  const text = readTextFile(layout.planShown, 'plan file');
  const base = readCompileOptions(layout, cwd, opts.autonomy);
  const sources = new Map([
    [layout.planShown, text],
    [base.guardrailsFile!, base.guardrails],
  ]);

  let result = compile(text, base);
  for (const warning of result.autonomy.warnings) process.stderr.write(`leopold: warning: ${warning}\n`);
  const broken = !result.ok && hasErrors(result.diagnostics) && !opts.print && !opts.check;
  if (broken && !opts.repair) return planErrors(result.diagnostics, opts, sources, 'not repaired: --no-repair');
  const wantsRepair = broken && opts.repair;
  if (wantsRepair && result.autonomy.autonomy === 'ask') {
    return planErrors(result.diagnostics, opts, sources, 'not repaired: autonomy is ask (repairs are off)');
  }
  if (wantsRepair && (opts.repairFrom !== undefined || opts.repairCmd !== undefined)) {
    const used = amendmentsUsed(layout.briefDir);
    const answer = await repairAnswer(opts, layout, text, used);
    if (!answer.ok) return planErrors(result.diagnostics, opts, sources, `repair refused: ${answer.reason}; ${layout.planShown} was not changed.`);
    result = compile(text, { ...base, repair: { answer: answer.answer, used } });
    if (result.repair && !result.repair.ok) return repairRefused(result.repair, layout.planShown, opts, sources);
    if (result.ok && result.repair?.ok) await recordRepair(result.repair, layout, base.file, result.planText);
  } else if (wantsRepair) {
    return planErrors(result.diagnostics, opts, sources, 'not repaired: no proposal source (give --repair-from FILE|- or --repair-cmd CMD)');
  }
  if (!result.ok) return planErrors(result.diagnostics, opts, sources, null);

  printDiagnostics(result.diagnostics, opts, sources);
  if (opts.print) {
    process.stdout.write(result.script);
    return EXIT.ok;
  }
  if (opts.check) return checkOutputs(result, layout, cwd);
  mkdirSync(dirname(layout.scriptAbs), { recursive: true });
  writeFilesAtomic([
    { path: layout.scriptAbs, data: result.script },
    { path: layout.argsAbs, data: result.argsJson },
  ]);
  const bytes = Buffer.byteLength(result.script, 'utf8');
  process.stderr.write(`leopold: wrote ${shownPath(cwd, layout.scriptAbs)} (${bytes} bytes) and ${shownPath(cwd, layout.argsAbs)}\n`);
  return EXIT.ok;
}

/** `--check`: compare each output with a fresh compile, naming every stale or missing one. */
function checkOutputs(result: Extract<CompileResult, { ok: true }>, layout: Layout, cwd: string): number {
  const problems: string[] = [];
  for (const [path, wanted] of [
    [layout.scriptAbs, result.script],
    [layout.argsAbs, result.argsJson],
  ] as const) {
    if (!existsSync(path)) problems.push(`missing: ${shownPath(cwd, path)}`);
    else if (readFileSync(path, 'utf8') !== wanted) problems.push(`stale: ${shownPath(cwd, path)} differs from a fresh compile`);
  }
  for (const problem of problems) process.stderr.write(`leopold: ${problem}\n`);
  if (problems.length > 0) {
    process.stderr.write('leopold: run `leopold compile` to bring them up to date\n');
    return EXIT.planErrors;
  }
  process.stderr.write(`leopold: up to date: ${shownPath(cwd, layout.scriptAbs)}, ${shownPath(cwd, layout.argsAbs)}\n`);
  return EXIT.ok;
}

/** The proposals: the file / stdin, or the command's answer to the repair prompt. */
async function repairAnswer(opts: CompileCliOptions, layout: Layout, text: string, used: number) {
  if (opts.repairFrom !== undefined) {
    const answer = opts.repairFrom === '-' ? readStdin() : readTextFile(opts.repairFrom, 'repair proposals file');
    return { ok: true as const, answer };
  }
  const analysis = analyzePlan(text, layout.planShown);
  const prompt = repairPrompt({ file: layout.planShown, planText: text, diagnostics: analysis.diagnostics, used });
  return runRepairCommand(opts.repairCmd!, prompt, layout.root, repairTimeoutMs(process.env.LEOPOLD_REPAIR_TIMEOUT));
}

/**
 * After a successful repair: PLAN.md written once (atomic), the diff on stdout, a DECISIONS.md
 * entry, and the spent budget persisted when a run is active (outside a run there is no
 * run budget to spend: `leopold run start` zeroes it anyway).
 */
async function recordRepair(outcome: RepairOutcome, layout: Layout, file: string, repaired: string): Promise<void> {
  writeFileAtomic(layout.planAbs, repaired);
  process.stdout.write(outcome.diff);
  const spent = outcome.judgement?.accepted.length ?? 0;
  const [n] = await appendDecisions(layout.briefDir, [repairDecision(outcome, file)]);
  if (readState(layout.briefDir).state?.active) {
    await updateState(layout.briefDir, (current) => {
      const state = current ?? emptyState();
      return { ...state, amendments_used: state.amendments_used + spent };
    });
  }
  process.stderr.write(`leopold: repaired ${layout.planShown} (${spent} change${spent === 1 ? '' : 's'}); recorded D${n} in .leopold/DECISIONS.md\n`);
}

/** The add budget already spent: state.json `amendments_used` during an active run, else 0. */
function amendmentsUsed(briefDir: string): number {
  const { state } = readState(briefDir);
  return state?.active ? state.amendments_used : 0;
}

function repairRefused(outcome: RepairOutcome, planShown: string, opts: CompileCliOptions, sources: Map<string, string>): number {
  if (opts.format === 'json') {
    const doc = {
      repaired: false,
      failure: outcome.failure,
      proposals: proposalVerdicts(outcome),
      diagnostics: outcome.before,
      remaining: outcome.after.filter((d) => d.severity === 'error'),
    };
    process.stderr.write(`${JSON.stringify(doc, null, 2)}\n`);
  } else {
    if (opts.format === 'github') process.stderr.write(renderDiagnostics(outcome.before, 'github'));
    process.stderr.write(renderRepairReport(outcome, planShown, sources));
  }
  return EXIT.planErrors;
}

function planErrors(diagnostics: readonly Diagnostic[], opts: CompileCliOptions, sources: Map<string, string>, note: string | null): number {
  printDiagnostics(diagnostics, opts, sources);
  if (note) process.stderr.write(`leopold: ${note}\n`);
  return EXIT.planErrors;
}

function printDiagnostics(diagnostics: readonly Diagnostic[], opts: CompileCliOptions, sources: Map<string, string>): void {
  if (diagnostics.length === 0) return;
  process.stderr.write(renderDiagnostics(diagnostics, opts.format, sources));
}

function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch (error) {
    throw new LeopoldError(`cannot read repair proposals from stdin (${(error as Error).message})`);
  }
}

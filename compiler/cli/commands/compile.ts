import { ioFailureLine } from '../io-error.js';
import type { Command } from 'commander';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { parseOptions } from '../../brief/options.js';
import { readTextFile } from '../../brief/read-text.js';
import { hasErrors, LeopoldError, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { DiagnosticFormatSchema } from '../../diagnostics/render.js';
import { SCRIPT_PATH } from '../../emit/index.js';
import { compile, type CompileOptions, type CompileResult } from '../../index.js';
import { writeFilesAtomic } from '../../../runtime/fs/atomic.js';
import { READ_ONLY_AGENT_DEFINITION, READ_ONLY_AGENT_PATH } from '../../../runtime/verify/agent.js';
import { planLayout, readCompileOptions, vetRuntimeBundle, type PlanLayout } from '../compile-inputs.js';
import { endQuietlyOnBrokenPipe, shownPath } from '../io.js';
import { parseProgress, SILENT_PROGRESS } from '../progress.js';
import { fromRepositoryRoot, repositoryRoot, StderrReport } from '../report.js';
import { EXIT } from '../exit.js';

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
    strict: z.boolean().default(false),
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
  <project>/${READ_ONLY_AGENT_PATH}  the read-only agent the verifiers, judges and reviewers run as
  where <project> is the directory holding .leopold/.

Repair (only without --print/--check/--no-repair, only when the plan has errors, never under
autonomy ask): proposals come from --repair-from FILE|- or --repair-cmd CMD (run with sh -c,
the repair prompt on stdin, answer on stdout, killed after LEOPOLD_REPAIR_TIMEOUT seconds,
default 120). PLAN.md is rewritten once, only if the repaired plan is valid; the diff goes to
stdout and a DECISIONS.md entry records how to undo it. See docs/compile.md.

Output: diagnostics and notes on stderr. --format text: code frames and "leopold: …" lines;
github: workflow annotations only, paths from the repository root; json: one JSON object
{ "ok", "diagnostics", "notes", … } and nothing else.

Exit codes:
  0  compiled (or, with --check, the files on disk are up to date)
  1  the plan has errors (after any repair), warnings with --strict, or --check found a
     stale or missing file
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
    .option('--strict', 'treat warnings as errors: refuse to write, print or pass --check')
    .option('--format <format>', 'diagnostics format on stderr: text, json or github', 'text')
    .addHelpText('after', EXIT_HELP)
    .action(compileCommand);
}

/**
 * The action of `leopold compile [PLAN]`, given the options as commander hands them over
 * (compiler/cli/main.ts calls it without commander for the plain spellings).
 */
export async function compileCommand(plan: string | undefined, raw: unknown): Promise<void> {
  endQuietlyOnBrokenPipe();
  const opts = parseOptions(CompileCliOptionsSchema, raw);
  const cwd = process.cwd();
  const layout = layoutOf(plan, cwd);
  const text = readTextFile(layout.planShown, 'plan file');
  // A proposals file is an input like the plan: a missing one is a usage error whether or
  // not the plan turns out to need a repair (it is read again, under the plan lock, if it does).
  if (opts.repairFrom !== undefined && opts.repairFrom !== '-') readTextFile(opts.repairFrom, 'repair proposals file');
  const base = readCompileOptions(layout, cwd, opts.autonomy);
  await vetRuntimeBundle(base);
  const sources = new Map([
    [layout.planShown, text],
    [base.guardrailsFile!, base.guardrails],
  ]);
  const root = repositoryRoot(layout.root, layout.root);
  const report = new StderrReport(opts.format, sources, (list) => fromRepositoryRoot(list, cwd, root));
  const code = await runCompile({ opts, layout, text, base, report, sources, cwd });
  report.finish(code === EXIT.ok);
  process.exitCode = code;
}

/** What one `leopold compile` works with, read once at the boundary. */
export interface CompileRun {
  opts: CompileCliOptions;
  layout: Layout;
  text: string;
  base: CompileOptions;
  report: StderrReport;
  /** What code frames quote, by file name: the plan is updated when a repair re-reads it. */
  sources: Map<string, string>;
  cwd: string;
}

// Errors no bounded repair can fix: an ADD or ROUTE cannot make an empty plan a plan worth
// running, nor shrink a script past the host's size limit. Saying "not repaired: …" there
// would suggest a repair could have helped.
const BEYOND_REPAIR: ReadonlySet<string> = new Set(['empty-plan', 'host-contract/size', 'nesting-too-deep']);

function repairCouldHelp(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error' && !BEYOND_REPAIR.has(d.code));
}

/** Where a plan's brief and outputs live. */
export interface Layout extends PlanLayout {
  scriptAbs: string;
  argsAbs: string;
}

function layoutOf(planArg: string | undefined, cwd: string): Layout {
  const layout = planLayout(planArg, cwd);
  return { ...layout, scriptAbs: join(layout.root, SCRIPT_PATH), argsAbs: join(layout.briefDir, ARGS_FILE) };
}

/** Runs `leopold compile`; returns the exit code. I/O problems throw LeopoldError (exit 2). */
async function runCompile({ opts, layout, text, base, report, sources, cwd }: CompileRun): Promise<number> {
  // Only in text: a machine format gets no byte it did not ask for, erased or not.
  const progress = report.format === 'text' ? parseProgress(text, layout.planShown) : SILENT_PROGRESS;
  let result = compile(text, { ...base, onParseProgress: progress.update });
  progress.done();
  for (const warning of result.autonomy.warnings) report.note(warning, 'warning');
  const broken = !result.ok && hasErrors(result.diagnostics) && !opts.print && !opts.check;
  const planErrors = (note: string | null) => {
    report.diagnosticsOut(result.diagnostics);
    if (note) report.note(note, 'error');
    return EXIT.planErrors;
  };
  if (broken && !repairCouldHelp(result.diagnostics)) return planErrors(null);
  if (broken && !opts.repair) return planErrors('not repaired: --no-repair');
  const wantsRepair = broken && opts.repair;
  if (wantsRepair && result.autonomy.autonomy === 'ask') return planErrors('not repaired: autonomy is ask (repairs are off)');
  if (wantsRepair && (opts.repairFrom !== undefined || opts.repairCmd !== undefined)) {
    // The repair pipeline (proposals, the amendment judge, the plan lock, DECISIONS.md) is
    // loaded only when a repair runs: a compile of a valid plan never needs it.
    const repaired = await (await import('./compile-repair.js')).repairPlan({ opts, layout, text, base, report, sources, cwd }, planErrors);
    if (typeof repaired === 'number') return repaired;
    result = repaired;
  } else if (wantsRepair) {
    return planErrors('not repaired: no proposal source (give --repair-from FILE|- or --repair-cmd CMD)');
  }
  if (!result.ok) return planErrors(null);

  report.diagnosticsOut(result.diagnostics);
  if (opts.strict && result.diagnostics.length > 0) {
    const count = result.diagnostics.length;
    report.note(`--strict: ${count} ${count === 1 ? 'warning counts as an error' : 'warnings count as errors'}; nothing was ${opts.check ? 'checked' : opts.print ? 'printed' : 'written'}`, 'error');
    return EXIT.planErrors;
  }
  if (opts.print) {
    process.stdout.write(result.script);
    return EXIT.ok;
  }
  if (opts.check) return checkOutputs(result, layout, cwd, report);
  const outputs = [
    { path: layout.scriptAbs, data: result.script },
    { path: layout.argsAbs, data: result.argsJson },
    // The verifiers', judges' and reviewers' agent: read-only (docs/workflow.md, "Read-only checkers").
    { path: join(layout.root, READ_ONLY_AGENT_PATH), data: READ_ONLY_AGENT_DEFINITION },
  ];
  // What already holds these bytes is left alone: an unchanged compile writes nothing, so it
  // also succeeds where .claude/ is read-only (inside the armed lock's sandbox, between runs).
  const stale = outputs.filter((output) => !holds(output.path, output.data));
  if (stale.length === 0) {
    report.note(`up to date: ${shownPath(cwd, layout.scriptAbs)}, ${shownPath(cwd, layout.argsAbs)} and ${shownPath(cwd, join(layout.root, READ_ONLY_AGENT_PATH))} already hold this compile; nothing written`);
    return EXIT.ok;
  }
  try {
    for (const { path } of stale) mkdirSync(dirname(path), { recursive: true });
    writeFilesAtomic(stale);
  } catch (error) {
    // Claude Code's sandbox keeps .claude/workflows read-only; an armed lock means that is why.
    const line = ioFailureLine(error, cwd);
    // Loaded only here: the lock's modules are no part of a compile that writes.
    if (line && (await import('../../../runtime/lock/arm.js')).readLockRecord(layout.briefDir) !== null) {
      throw new LeopoldError(`${line}: the run lock is armed, and Claude's sandbox keeps .claude/ read-only; compile before \`leopold run start\`, or review the last run and lift its lock yourself (\`leopold run unlock\`)`);
    }
    throw error;
  }
  const bytes = Buffer.byteLength(result.script, 'utf8');
  const written = stale.map(({ path }) => (path === layout.scriptAbs ? `${shownPath(cwd, path)} (${bytes} bytes)` : shownPath(cwd, path)));
  const kept = outputs.filter((output) => !stale.includes(output)).map(({ path }) => shownPath(cwd, path));
  report.note(`wrote ${listed(written)}${kept.length > 0 ? `; ${listed(kept)} already up to date` : ''}`);
  return EXIT.ok;
}

/** `a`, `a and b`, `a, b and c`. */
function listed(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Whether `path` is a regular file whose text is `data` already. */
function holds(path: string, data: string): boolean {
  try {
    return statSync(path).isFile() && readFileSync(path, 'utf8') === data;
  } catch {
    return false;
  }
}

/** `--check`: compare each output with a fresh compile, naming every stale or missing one. */
function checkOutputs(result: Extract<CompileResult, { ok: true }>, layout: Layout, cwd: string, report: StderrReport): number {
  const problems: string[] = [];
  for (const [path, wanted] of [
    [layout.scriptAbs, result.script],
    [layout.argsAbs, result.argsJson],
    [join(layout.root, READ_ONLY_AGENT_PATH), READ_ONLY_AGENT_DEFINITION],
  ] as const) {
    if (!existsSync(path)) problems.push(`missing: ${shownPath(cwd, path)}`);
    else if (readFileSync(path, 'utf8') !== wanted) problems.push(`stale: ${shownPath(cwd, path)} differs from a fresh compile`);
  }
  for (const problem of problems) report.note(problem, 'error');
  if (problems.length > 0) {
    report.note('run `leopold compile` to bring them up to date', 'error');
    return EXIT.planErrors;
  }
  report.note(`up to date: ${shownPath(cwd, layout.scriptAbs)}, ${shownPath(cwd, layout.argsAbs)}`);
  return EXIT.ok;
}

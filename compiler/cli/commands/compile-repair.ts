import { readFileSync } from 'node:fs';
import { LeopoldError } from '../../diagnostics/diagnostic.js';
import { analyzePlan, compile, type CompileOptions, type CompileResult } from '../../index.js';
import { proposalVerdicts, renderRepairReport, repairDecision, repairPrompt, type RepairOutcome } from '../../repair/index.js';
import { appendDecisions } from '../../../runtime/decisions/index.js';
import { readState } from '../../../runtime/state/index.js';
import { readTextFile } from '../../brief/read-text.js';
import { amendPlanFile, type AmendFileResult } from '../amend-plan-file.js';
import { EXIT } from '../exit.js';
import type { StderrReport } from '../report.js';
import { repairTimeoutMs, runRepairCommand } from '../repair-command.js';
import type { CompileCliOptions, CompileRun, Layout } from './compile.js';

// `leopold compile`'s repair: its own chunk, loaded only when a plan with errors is to be
// repaired from --repair-from or --repair-cmd (the compile of a valid plan never loads the
// amendment pipeline, the plan lock or the decision writer).

/**
 * Repairs the plan through the amendment pipeline and returns the repaired plan's compile,
 * or the exit code when the repair was refused (reported through `planErrors` or `report`).
 */
export async function repairPlan({ opts, layout, text, base, report, sources }: CompileRun, planErrors: (note: string | null) => number): Promise<CompileResult | number> {
  // The answer is made outside the plan lock (a repair command may take 120 s); the
  // pipeline then judges it under the lock against PLAN.md as it is by then.
  const answer = await repairAnswer(opts, layout, text, amendmentsUsed(layout.briefDir));
  if (!answer.ok) return planErrors(`repair refused: ${answer.reason}; ${layout.planShown} was not changed.`);
  const repaired = await repairPlanFile(answer.answer, { text, base, layout, file: base.file });
  if (repaired.drifted) sources.set(layout.planShown, repaired.judgedText);
  const { outcome } = repaired;
  if (!outcome.ok && repaired.drifted) {
    report.set('repaired', false);
    report.set('failure', outcome.failure);
    report.set('drifted', true);
    report.diagnosticsOut(outcome.before);
    report.note(`repair refused: ${layout.planShown} changed while the repair ran (a \`leopold plan tick\` or amendment landed), and the proposals no longer fit it (${whyNot(outcome)}); ${layout.planShown} was not changed.`, 'error');
    return EXIT.planErrors;
  }
  if (!outcome.ok) return repairRefused(outcome, layout.planShown, report);
  if (repaired.written) {
    if (repaired.drifted) report.note(`${layout.planShown} changed while the repair ran; the proposals were judged again against it and still apply`);
    recordRepair(outcome, layout, repaired.recorded, report);
  }
  return repaired.compiled!;
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

/** A repair's verdict and, when the amended plan compiled, that compile (what gets emitted). */
interface RepairedPlan extends AmendFileResult {
  compiled: CompileResult | null;
  /** The DECISIONS.md number the repair was recorded under, when it was written. */
  recorded: number | null;
}

/**
 * Compile's repair through the amendment pipeline: under the plan lock, PLAN.md is read
 * again and, if a `plan tick` or an amendment changed it since `text` was read, the same
 * proposals are judged against the current text. PLAN.md is written (with the budget in
 * state.json) only when the amended plan validates and the whole compile succeeds.
 */
async function repairPlanFile(answer: string, { text, base, layout, file }: { text: string; base: CompileOptions; layout: Layout; file: string }): Promise<RepairedPlan> {
  let compiled: CompileResult | null = null;
  let recorded: number | null = null;
  const result = await amendPlanFile({
    planPath: layout.planAbs,
    shown: layout.planShown,
    answer,
    context: 'repair',
    charter: base.charter,
    basis: Buffer.from(text, 'utf8'),
    mayWrite: (amended) => (compiled = compile(amended, base)).ok,
    // The repair and its DECISIONS.md entry land together: an entry that cannot be written
    // (a full disk) puts PLAN.md back.
    afterWrite: async (outcome) => {
      recorded = (await appendDecisions(layout.briefDir, [repairDecision(outcome, file)]))[0] ?? null;
    },
  });
  return { ...result, compiled, recorded };
}

/** Why proposals judged again against a changed plan no longer fit it, in a few words. */
function whyNot(outcome: RepairOutcome): string {
  if (outcome.failure === 'refused') return (outcome.judgement?.refused ?? []).map((r) => `${r.proposal.raw}: refused ${r.code}`).join('; ');
  const errors = outcome.after.filter((d) => d.severity === 'error');
  if (outcome.failure === 'still-invalid') return `the amended plan would have ${errors.length} error${errors.length === 1 ? '' : 's'}: ${[...new Set(errors.map((d) => d.code))].join(', ')}`;
  return 'no proposals';
}

/**
 * After a successful repair (PLAN.md, the budget and the DECISIONS.md entry already written
 * by the pipeline): the diff on stdout and where the entry is.
 */
function recordRepair(outcome: RepairOutcome, layout: Layout, n: number | null, report: StderrReport): void {
  process.stdout.write(outcome.diff);
  const spent = outcome.judgement?.accepted.length ?? 0;
  report.note(`repaired ${layout.planShown} (${spent} change${spent === 1 ? '' : 's'}); recorded D${n} in .leopold/DECISIONS.md`);
}

/** The add budget already spent: state.json `amendments_used` during an active run, else 0. */
function amendmentsUsed(briefDir: string): number {
  const { state } = readState(briefDir);
  return state?.active ? state.amendments_used : 0;
}

function repairRefused(outcome: RepairOutcome, planShown: string, report: StderrReport): number {
  if (report.format === 'json') {
    report.set('repaired', false);
    report.set('failure', outcome.failure);
    report.set('proposals', proposalVerdicts(outcome));
    report.set('remaining', outcome.after.filter((d) => d.severity === 'error'));
    report.diagnosticsOut(outcome.before);
  } else {
    if (report.format === 'github') report.diagnosticsOut(outcome.before);
    report.block(renderRepairReport(outcome, planShown, report.sources));
  }
  return EXIT.planErrors;
}

function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch (error) {
    throw new LeopoldError(`cannot read repair proposals from stdin (${(error as Error).message})`);
  }
}

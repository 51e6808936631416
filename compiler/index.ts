// The compiler, in data-flow order (docs/architecture.md): parse → graph → repair → classify → emit → check.
import { parseGuardrails } from './brief/guardrails.js';
import { hasErrors, sortDiagnostics, type Diagnostic } from './diagnostics/diagnostic.js';
import { buildCompiledPlan, emitWorkflow, type CompiledPlan } from './emit/index.js';
import { checkPlan, wavesOf, type CheckOptions } from './graph/index.js';
import type { PlanAnalysis } from './graph-output/analysis.js';
import { parsePlan, type ParseProgress } from '../runtime/plan/parse/index.js';
import { repairPlan, type RepairOutcome } from './repair/index.js';
import { resolveAutonomy, type ResolvedAutonomy } from '../runtime/autonomy/index.js';

export type { PlanAnalysis } from './graph-output/analysis.js';

/** What analyzePlan needs besides the text: the brief's facts the checks use, a progress callback. */
export interface AnalyzeOptions extends CheckOptions {
  /** Told how far the Markdown parse of a large plan has got (the CLI's progress line). */
  onParseProgress?: ParseProgress | undefined;
}

/**
 * Parses and validates plan text: the Plan IR, every graph diagnostic (sorted) and the
 * waves. Pure: `file` is only the name diagnostics carry, as the user gave it.
 */
export function analyzePlan(text: string, file: string, options: AnalyzeOptions = {}): PlanAnalysis {
  const ir = parsePlan(text, file, options.onParseProgress);
  const diagnostics = checkPlan(ir, { parallelItems: options.parallelItems });
  const waves = wavesOf(ir);
  return { ir, diagnostics, waves };
}

/** Everything compile() needs besides the plan text; values only, nothing is read. */
export interface CompileOptions {
  /** PLAN.md relative to the project root (the parent of `.leopold/`), forward slashes; embedded. */
  file: string;
  /** The plan's name in diagnostics (as the user gave it); default `file`. */
  diagnosticsFile?: string;
  mission: string;
  charter: string;
  /** GUARDRAILS.md text ('' when missing) and its name in diagnostics. */
  guardrails: string;
  guardrailsFile?: string;
  /** `--autonomy` and LEOPOLD_AUTONOMY as given (unset: undefined). */
  autonomyFlag?: string | undefined;
  autonomyEnv?: string | undefined;
  /** dist/workflow-runtime.js, the bundled runtime embedded in the script. */
  runtimeBundle: string;
  /**
   * A repair answer (a ```leopold-amend block) and the run's spent add budget. Used only
   * when the plan has errors and autonomy is `full`; the caller leaves it out for
   * `--print`, `--check` and `--no-repair`.
   */
  repair?: { answer: string; used: number } | undefined;
  /** Told how far the Markdown parse of a large plan has got (the CLI's progress line). */
  onParseProgress?: ParseProgress | undefined;
}

/** compile()'s answer. `planText` is the text compiled: the repaired one after a repair. */
export type CompileResult = {
  diagnostics: Diagnostic[];
  autonomy: ResolvedAutonomy;
  repair: RepairOutcome | null;
  planText: string;
} & (
  | { ok: true; compiled: CompiledPlan; script: string; argsJson: string }
  | { ok: false; compiled: null; script: null; argsJson: null }
);

/**
 * Compiles a plan to the workflow script and its args file (docs/compile.md–6): validate,
 * repair when allowed and needed, classify, emit, check. Pure and deterministic: same
 * inputs, same bytes; the caller writes PLAN.md (after a repair) and the outputs.
 */
export function compile(planText: string, options: CompileOptions): CompileResult {
  const shownFile = options.diagnosticsFile ?? options.file;
  const guardrails = parseGuardrails(options.guardrails, options.guardrailsFile ?? '.leopold/GUARDRAILS.md');
  const autonomy = resolveAutonomy({ flag: options.autonomyFlag, env: options.autonomyEnv, guardrails: guardrails.guardrails.autonomy });
  const failed = (diagnostics: Diagnostic[], repair: RepairOutcome | null, text: string): CompileResult => ({
    ok: false,
    compiled: null,
    script: null,
    argsJson: null,
    diagnostics: sortDiagnostics(diagnostics),
    autonomy,
    repair,
    planText: text,
  });

  let text = planText;
  const parallelItems = guardrails.guardrails.parallelItems === 'on';
  let analysis = analyzePlan(text, shownFile, { onParseProgress: options.onParseProgress, parallelItems });
  let repair: RepairOutcome | null = null;
  if (hasErrors(analysis.diagnostics) && options.repair && autonomy.autonomy === 'full') {
    repair = repairPlan({ text, file: shownFile, ir: analysis.ir, diagnostics: analysis.diagnostics, ...options.repair, charter: options.charter });
    if (!repair.ok) return failed([...analysis.diagnostics, ...guardrails.diagnostics], repair, planText);
    text = repair.text;
    analysis = analyzePlan(text, shownFile, { parallelItems });
  }
  const diagnostics = [...analysis.diagnostics, ...guardrails.diagnostics];
  if (hasErrors(diagnostics)) return failed(diagnostics, repair, text);

  const compiled = buildCompiledPlan({
    ir: analysis.ir,
    waves: analysis.waves,
    planText: text,
    file: options.file,
    mission: options.mission,
    charter: options.charter,
    guardrails: guardrails.guardrails,
    autonomy: autonomy.autonomy,
  });
  const emitted = emitWorkflow(compiled, options.runtimeBundle, shownFile);
  if (!emitted.ok) return failed([...diagnostics, emitted.diagnostic], repair, text);
  return { ok: true, compiled, script: emitted.script, argsJson: emitted.argsJson, diagnostics: sortDiagnostics(diagnostics), autonomy, repair, planText: text };
}

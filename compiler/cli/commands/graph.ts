import type { Command } from 'commander';
import { dirname, join, resolve } from 'node:path';
import type { Guardrails } from '../../brief/guardrails.js';
import { BRIEF_FILES, readGuardrails } from '../../brief/load.js';
import { GraphOptionsSchema, parseOptions, type GraphOptions } from '../../brief/options.js';
import { readTextFile } from '../../brief/read-text.js';
import { hasErrors, LeopoldError, sortDiagnostics, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { renderDiagnostics } from '../../diagnostics/render.js';
import { dot, mermaid, renderGraphJson, type PlanAnalysis } from '../../graph-output/index.js';
import { buildCompiledPlan, emitScript, emitWorkflow, scriptSize } from '../../emit/index.js';
import { analyzePlan, type CompileOptions } from '../../index.js';
import type { ParseProgress } from '../../../runtime/plan/parse/index.js';
import { declaredValues } from '../../../runtime/plan/kind-facts.js';
import type { PlanItem } from '../../../runtime/plan/schema.js';
import { hasGraph } from '../../../runtime/run/index.js';
import { stagesOf } from '../../../runtime/run/index.js';
import { planLayout, readCompileOptions } from '../compile-inputs.js';
import { endQuietlyOnBrokenPipe, resolvePlanPath } from '../io.js';
import { parseProgress, SILENT_PROGRESS } from '../progress.js';
import { fromRepositoryRoot, repositoryRoot } from '../report.js';
import { EXIT } from '../exit.js';

const EXIT_HELP = `
Exit codes:
  0  the plan is valid (warnings allowed unless --strict)
  1  the plan has errors (or warnings, with --strict), including a plan too big for the
     512 KiB workflow script that leopold compile would refuse (host-contract/size)
  2  usage or input problem (missing, unreadable or binary file, conflicting flags)

Output:
  default    a summary of items and waves on stdout, diagnostics on stderr
  --json     one JSON document on stdout (diagnostics inside it); see docs/cli.md
  --mermaid  a Mermaid flowchart on stdout, diagnostics on stderr
  --dot      a Graphviz digraph on stdout, diagnostics on stderr
  --format github  annotation paths are relative to the repository root (the git work
                   tree, else the directory holding .leopold/), wherever graph runs
`;

/** `leopold graph [PLAN]`: validate a plan and show its graph; never writes a file. */
export function registerGraph(program: Command): void {
  program
    .command('graph')
    .description('validate a plan and show its graph (never writes files)')
    .argument('[plan]', 'path to PLAN.md (default: the nearest .leopold/PLAN.md, walking up)')
    .option('--json', 'print the graph as JSON (diagnostics included) instead of the summary')
    .option('--mermaid', 'print the graph as a Mermaid flowchart')
    .option('--dot', 'print the graph as a Graphviz digraph')
    .option('--strict', 'treat warnings as errors for the exit code')
    .option('--format <format>', 'diagnostics format on stderr: text, json or github', 'text')
    .addHelpText('after', EXIT_HELP)
    .action((plan: string | undefined, raw: unknown) => {
      endQuietlyOnBrokenPipe();
      process.exitCode = runGraph(plan, parseOptions(GraphOptionsSchema, raw));
    });
}

/** Runs `leopold graph` and returns its exit code; I/O problems throw LeopoldError (exit 2). */
function runGraph(planArg: string | undefined, opts: GraphOptions): number {
  const cwd = process.cwd();
  const planPath = resolvePlanPath(planArg, cwd);
  const text = readTextFile(planPath, 'plan file');
  // Only with text diagnostics: --json promises nothing on stderr, machine formats no stray byte.
  const progress = opts.json || opts.format !== 'text' ? SILENT_PROGRESS : parseProgress(text, planPath);
  const { analysis, sources } = checkPlanFile(planPath, text, cwd, progress.update);
  progress.done();

  if (opts.json) {
    process.stdout.write(renderGraphJson(analysis));
  } else {
    process.stdout.write(opts.mermaid ? mermaid(analysis) : opts.dot ? dot(analysis) : summary(analysis));
    const root = repositoryRoot(dirname(resolve(cwd, planPath)), cwd);
    const shown = opts.format === 'github' ? fromRepositoryRoot(analysis.diagnostics, cwd, root) : analysis.diagnostics;
    process.stderr.write(renderDiagnostics(shown, opts.format, sources));
    if (opts.format === 'text' && analysis.diagnostics.length > 0) process.stderr.write(`${tally(analysis.diagnostics)}\n`);
  }
  return exitCode(analysis.diagnostics, opts.strict);
}

/**
 * Everything `leopold graph` checks in a plan file, and the texts its diagnostics point
 * into: the plan's analysis, GUARDRAILS.md beside it (its problems are warnings here) and,
 * when nothing else is wrong, the script size compile would refuse. `run start` (either
 * engine) refuses a plan on the same diagnostics `graph --strict` does (entry-gate.ts).
 */
export function checkPlanFile(planPath: string, text: string, cwd: string, onParseProgress?: ParseProgress): { analysis: PlanAnalysis; sources: Map<string, string> } {
  // GUARDRAILS.md sits beside PLAN.md in a brief; its bad values are warnings like any other.
  const guardrailsPath = join(dirname(planPath), BRIEF_FILES.guardrails);
  const guardrails = readGuardrails(guardrailsPath);
  // Write scopes overlap only where items run together: with parallel_items on.
  const plain = analyzePlan(text, planPath, { onParseProgress, parallelItems: guardrails.guardrails.parallelItems === 'on' });
  const found = [...plain.diagnostics, ...guardrails.diagnostics];
  if (!hasErrors(found)) found.push(...sizeLimit(plain, planPath, guardrails.guardrails, cwd));
  const sources = new Map([[planPath, text]]);
  if (guardrails.diagnostics.length > 0) sources.set(guardrailsPath, guardrails.text);
  return { analysis: { ...plain, diagnostics: sortDiagnostics(found) }, sources };
}

/**
 * `host-contract/size` when `leopold compile` would refuse the plan for the script's size,
 * so graph never calls valid a plan compile cannot emit. The script is built in memory
 * (no host-contract check, nothing written) with the brief beside PLAN.md; without the
 * runtime bundle (a source checkout never built) the check is skipped.
 */
function sizeLimit(analysis: PlanAnalysis, planPath: string, guardrails: Guardrails, cwd: string): Diagnostic[] {
  let options: CompileOptions;
  try {
    options = readCompileOptions(planLayout(planPath, cwd), cwd, undefined);
  } catch (error) {
    if (error instanceof LeopoldError) return [];
    throw error;
  }
  const compiled = buildCompiledPlan({
    ir: analysis.ir,
    waves: analysis.waves,
    planText: '',
    file: options.file,
    mission: options.mission,
    charter: options.charter,
    guardrails,
    autonomy: 'full',
  });
  if (scriptSize(emitScript(compiled, options.runtimeBundle)).fits) return [];
  const emitted = emitWorkflow(compiled, options.runtimeBundle, planPath);
  return emitted.ok ? [] : [emitted.diagnostic];
}

function exitCode(diagnostics: readonly Diagnostic[], strict: boolean): number {
  if (hasErrors(diagnostics)) return EXIT.planErrors;
  if (strict && diagnostics.length > 0) return EXIT.planErrors;
  return EXIT.ok;
}

/** `1 error`, `2 errors`. */
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function tally(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

/** Terminal-safe one-line text: control characters would move the cursor or break lines. */
function shown(text: string): string {
  return text.replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g, ' ');
}

/**
 * The default view: every item with its kind and edges, then how the plan runs. A plain
 * checklist runs wave by wave. A routed plan runs by stages (dependencies and routes, so a
 * route target reads after its source): its entry items, and each route-only item marked
 * with the routes that can dispatch it (none taken: it is routed around).
 */
function summary({ ir, waves }: PlanAnalysis): string {
  const done = ir.items.filter((item) => item.done).length;
  const staged = hasGraph(ir.items) ? stagesOf(ir.items) : null;
  const shape = staged ? `routed, ${plural(staged.stages.length, 'stage')}` : plural(waves.length, 'wave');
  const out = [`${shown(ir.file)}: ${plural(ir.items.length, 'item')} (${done} done), ${shape}`];
  const width = String(ir.items.length).length;
  const kindOf = (item: PlanItem) => `${item.kind}${item.label ? `:${item.label}` : ''}`;
  const kindWidth = Math.max(0, ...ir.items.map((item) => kindOf(item).length));
  const routesIn = (index: number) => (staged?.routeOnly.get(index) ?? []).map((r) => `${r.from} ${r.when}`).join(', ');
  for (const item of ir.items) {
    const kind = kindOf(item);
    const facts = [
      item.deps.length > 0 ? `after ${item.deps.join(', ')}` : '',
      staged?.routeOnly.has(item.index) ? `route-only: from ${routesIn(item.index)}` : '',
      ...item.routes.map((r) => `on ${r.when} -> ${r.target > 0 ? r.target : r.targetText || '?'}`),
      item.emits.length > 0 ? `emits ${emitsOf(item)}` : '',
      item.needs.length > 0 ? `needs ${item.needs.map((n) => n.key).join(', ')}` : '',
    ].filter(Boolean);
    const anchor = item.anchor ? ` {#${item.anchor}}` : '';
    const tail = facts.length > 0 ? `  (${facts.join('; ')})` : '';
    out.push(`  [${item.done ? 'x' : ' '}] ${String(item.index).padStart(width)} ${shown(kind).padEnd(kindWidth)} ${shown(item.text)}${anchor}${shown(tail)}`);
  }
  if (staged) {
    if (staged.stages.length > 0) {
      out.push('runs (routed; a route-only item runs when a route into it is taken, else it is routed around):');
      out.push(`  entry: ${staged.entry.map((index) => `i${index}`).join(' ') || '(none)'}`);
    }
    const label = (index: number) => (staged.routeOnly.has(index) ? `i${index} (route-only: ${routesIn(index)})` : `i${index}`);
    staged.stages.forEach((stage, n) => out.push(shown(`  stage ${n + 1}: ${stage.map(label).join(', ')}`)));
  } else {
    if (waves.length > 0) out.push('waves:');
    waves.forEach((wave, n) => out.push(`  ${n + 1}: ${wave.join(' ')}`));
  }
  return `${out.join('\n')}\n`;
}

/** An item's `@emit` keys as written: `key` for `true`, `key=value`, a steering key as `key=a|b`. */
function emitsOf(item: PlanItem): string {
  return [...declaredValues(item)].map(([key, values]) => (values.length === 1 && values[0] === 'true' ? key : `${key}=${values.join('|')}`)).join(', ');
}

import type { Command } from 'commander';
import { dirname, join } from 'node:path';
import { BRIEF_FILES, readGuardrails } from '../../brief/load.js';
import { GraphOptionsSchema, parseOptions, type GraphOptions } from '../../brief/options.js';
import { readTextFile } from '../../brief/read-text.js';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { renderDiagnostics } from '../../diagnostics/render.js';
import { dot, mermaid, renderGraphJson, type PlanAnalysis } from '../../graph-output/index.js';
import { analyzePlan } from '../../index.js';
import type { PlanItem } from '../../../runtime/plan/schema.js';
import { endQuietlyOnBrokenPipe, resolvePlanPath } from '../io.js';
import { EXIT } from '../exit.js';

const EXIT_HELP = `
Exit codes:
  0  the plan is valid (warnings allowed unless --strict)
  1  the plan has errors (or warnings, with --strict)
  2  usage or input problem (missing, unreadable or binary file, conflicting flags)

Output:
  default    a summary of items and waves on stdout, diagnostics on stderr
  --json     one JSON document on stdout (diagnostics inside it); see docs/cli.md
  --mermaid  a Mermaid flowchart on stdout, diagnostics on stderr
  --dot      a Graphviz digraph on stdout, diagnostics on stderr
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
  const planPath = resolvePlanPath(planArg, process.cwd());
  const text = readTextFile(planPath, 'plan file');
  // GUARDRAILS.md sits beside PLAN.md in a brief; its bad values are warnings like any other.
  const guardrailsPath = join(dirname(planPath), BRIEF_FILES.guardrails);
  const guardrails = readGuardrails(guardrailsPath);
  const plain = analyzePlan(text, planPath);
  const analysis: PlanAnalysis = { ...plain, diagnostics: sortDiagnostics([...plain.diagnostics, ...guardrails.diagnostics]) };
  const sources = new Map([[planPath, text]]);
  if (guardrails.diagnostics.length > 0) sources.set(guardrailsPath, guardrails.text);

  if (opts.json) {
    process.stdout.write(renderGraphJson(analysis));
  } else {
    process.stdout.write(opts.mermaid ? mermaid(analysis) : opts.dot ? dot(analysis) : summary(analysis));
    process.stderr.write(renderDiagnostics(analysis.diagnostics, opts.format, sources));
    if (opts.format === 'text' && analysis.diagnostics.length > 0) process.stderr.write(`${tally(analysis.diagnostics)}\n`);
  }
  return exitCode(analysis.diagnostics, opts.strict);
}

function exitCode(diagnostics: readonly Diagnostic[], strict: boolean): number {
  if (hasErrors(diagnostics)) return EXIT.planErrors;
  if (strict && diagnostics.length > 0) return EXIT.planErrors;
  return EXIT.ok;
}

function tally(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

/** Terminal-safe one-line text: control characters would move the cursor or break lines. */
function shown(text: string): string {
  return text.replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g, ' ');
}

/** The default view: every item with its kind and edges, then the waves. */
function summary({ ir, waves }: PlanAnalysis): string {
  const done = ir.items.filter((item) => item.done).length;
  const out = [`${shown(ir.file)}: ${ir.items.length} item${ir.items.length === 1 ? '' : 's'} (${done} done), ${waves.length} wave${waves.length === 1 ? '' : 's'}`];
  const width = String(ir.items.length).length;
  const kindOf = (item: PlanItem) => `${item.kind}${item.label ? `:${item.label}` : ''}`;
  const kindWidth = Math.max(0, ...ir.items.map((item) => kindOf(item).length));
  for (const item of ir.items) {
    const kind = kindOf(item);
    const facts = [
      item.deps.length > 0 ? `after ${item.deps.join(', ')}` : '',
      ...item.routes.map((r) => `on ${r.when} -> ${r.target > 0 ? r.target : r.targetText || '?'}`),
      item.emits.length > 0 ? `emits ${item.emits.map((e) => (e.value === 'true' ? e.key : `${e.key}=${e.value}`)).join(', ')}` : '',
      item.needs.length > 0 ? `needs ${item.needs.map((n) => n.key).join(', ')}` : '',
    ].filter(Boolean);
    const anchor = item.anchor ? ` {#${item.anchor}}` : '';
    const tail = facts.length > 0 ? `  (${facts.join('; ')})` : '';
    out.push(`  [${item.done ? 'x' : ' '}] ${String(item.index).padStart(width)} ${shown(kind).padEnd(kindWidth)} ${shown(item.text)}${anchor}${shown(tail)}`);
  }
  if (waves.length > 0) out.push('waves:');
  waves.forEach((wave, n) => out.push(`  ${n + 1}: ${wave.join(' ')}`));
  return `${out.join('\n')}\n`;
}

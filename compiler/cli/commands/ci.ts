import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { parseOptions, wholeNumberOption } from '../../brief/options.js';
import { readTextFile } from '../../brief/read-text.js';
import { LeopoldError } from '../../diagnostics/diagnostic.js';
import { writeFileAtomic } from '../../../runtime/fs/atomic.js';
import type { WorkflowResult } from '../../../runtime/workflow/index.js';
import { cliEntry } from '../entry.js';
import { EXIT } from '../exit.js';
import { guardrailsRefusal } from '../guardrails-refusal.js';
import { endQuietlyOnBrokenPipe, resolvePlanPath } from '../io.js';
import { renderSimulation, simulatePlan, simulationJson } from './simulate.js';

/**
 * The stops at which the rehearsal reached the end of the plan: every item done, or every
 * item done that routing dispatched (the rest routed around). These always pass.
 */
export const END_STOPS = ['plan_complete', 'routed_complete'] as const;

/**
 * The other ways a workflow run ends, which pass only when `--allow-stop` names them: a
 * rehearsal that stops short of the end covered only part of the plan.
 */
export const ALLOWABLE_STOPS = ['awaiting_human', 'escalation', 'iteration_budget', 'budget_exceeded', 'no_progress', 'repeated_failure', 'deadlock', 'run_budget', 'subagent_cap', 'scribe_failed'] as const;

/** Commander's collector for a repeatable, comma-separated option. */
const collect = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(',').map((part) => part.trim())];

/** `leopold ci` options as commander hands them over; validated once here. */
export const CiOptionsSchema = z.object({
  out: z.string().min(1, 'expected a directory for the report files').default('leopold-ci'),
  json: z.boolean().default(false),
  checks: z.boolean().default(true),
  claude: z.string().min(1, 'expected a path to the claude binary').optional(),
  timeout: wholeNumberOption(1, 'a whole number of seconds').default(600),
  answers: z.string().min(1, 'expected a path to an answers JSON file').optional(),
  allowStop: z.array(z.enum(ALLOWABLE_STOPS)).default([]),
});
export type CiOptions = z.infer<typeof CiOptionsSchema>;

const HELP = `
The plan checks a CI job runs, as one command with exit codes a pipeline can trust:

  1. GUARDRAILS.md beside the plan, read as leopold run start reads it: a bad value, an
     unknown key or an unclosed comment is an error annotation
  2. leopold graph --strict --format github    plan errors and warnings as annotations
  3. leopold compile --check --format github   .claude/workflows/leopold-run.js is up to date
  4. leopold simulate --host claude-code       the compiled workflow rehearsed in the real
                                               client on the scripted model (no API key, no
                                               tokens), with --answers FILE if given; it
                                               must reach the end of the plan
                                               (${END_STOPS.join(', ')}) or a stop that
                                               --allow-stop names

--answers FILE scripts the rehearsal's agents as simulate --answers does (docs/host.md):
answers for the @human and persona nodes carry a plan past them. --allow-stop STOP
(repeatable, or comma-separated) lets the rehearsal pass at a stop short of the end:
awaiting_human for a plan that waits for a person under autonomy ask, or one of
${ALLOWABLE_STOPS.filter((s) => s !== 'awaiting_human').join(', ')}.

Writes into --out (default leopold-ci/): rehearsal.txt, rehearsal.json, summary.md and
ci.json (the machine-readable outcome), and appends summary.md to $GITHUB_STEP_SUMMARY
when it is set. --no-checks runs only steps 1 and 4 (for a workflow that runs 2 and 3 as
steps of their own).

Exit codes:
  0  every step passed
  1  a step failed (GUARDRAILS problems, plan errors or warnings, drift, a rehearsal that
     failed or stopped short of the end of the plan without --allow-stop)
  2  usage or I/O problem (no Claude Code client, an unwritable --out)
`;

/** One step's outcome. */
interface StepOutcome {
  name: string;
  ok: boolean;
  exit: number;
}

/** `leopold ci [PLAN]`: graph, compile --check and the rehearsal; the report files and job summary. */
export function registerCi(program: Command): void {
  program
    .command('ci')
    .description('the CI dry run: graph --strict, compile --check, a rehearsal in the real client; a report and job summary')
    .argument('[plan]', 'path to PLAN.md (default: the nearest .leopold/PLAN.md, walking up)')
    .option('--out <dir>', 'where the report files go (default: leopold-ci)')
    .option('--json', 'print the outcome as one JSON document (step output goes to stderr)')
    .option('--no-checks', 'skip graph --strict and compile --check; run only the rehearsal')
    .option('--claude <path>', 'the claude binary for the rehearsal')
    .option('--timeout <seconds>', 'how long the rehearsal may take (default 600)')
    .option('--answers <file>', 'scripted agent answers for the rehearsal (JSON; as simulate --answers)')
    .option('--allow-stop <stop>', 'a stop short of the plan\'s end that still passes (repeatable or comma-separated), e.g. awaiting_human', collect)
    .addHelpText('after', HELP)
    .action(async (plan: string | undefined, raw: unknown) => {
      endQuietlyOnBrokenPipe();
      process.exitCode = await runCi(plan, parseOptions(CiOptionsSchema, raw));
    });
}

async function runCi(planArg: string | undefined, opts: CiOptions): Promise<number> {
  // An answers file that cannot be read is a usage error before any step runs (the rehearsal reads it again).
  if (opts.answers !== undefined) readTextFile(opts.answers, 'answers file');
  const steps: StepOutcome[] = [];
  const planArgs = planArg === undefined ? [] : [planArg];
  // GUARDRAILS.md as `run start` reads it, with or without the checks: a problem is an error.
  const cwd = process.cwd();
  const guardrails = guardrailsRefusal(dirname(resolve(cwd, resolvePlanPath(planArg, cwd))), cwd, 'github');
  process.stderr.write(guardrails.rendered);
  steps.push({ name: 'guardrails', ok: guardrails.count === 0, exit: guardrails.count === 0 ? EXIT.ok : EXIT.planErrors });
  // Steps 2 and 3 are this very CLI, so their output is exactly what the commands print.
  const self = (args: string[], capture: boolean) =>
    spawnSync(process.execPath, [cliEntry(), ...args], {
      encoding: 'utf8',
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', opts.json ? process.stderr : 'inherit', 'inherit'],
    });
  if (opts.checks) {
    for (const [name, args] of [
      ['graph --strict', ['graph', ...planArgs, '--strict', '--format', 'github']],
      ['compile --check', ['compile', ...planArgs, '--check', '--format', 'github']],
    ] as const) {
      const out = self([...args], false);
      const exit = out.status ?? EXIT.internal;
      if (exit === EXIT.usage) throw new LeopoldError(`${name} could not run (exit 2); see its message above`);
      steps.push({ name, ok: exit === EXIT.ok, exit });
    }
  }

  const simulated = await simulatePlan(planArg, { host: 'claude-code', json: false, claude: opts.claude, timeout: opts.timeout, answers: opts.answers });
  const outDir = resolve(opts.out);
  const files: Record<string, string> = {};
  let result: WorkflowResult | null = null;
  let host = 'Claude Code';
  if (typeof simulated === 'number') {
    steps.push({ name: 'rehearsal', ok: false, exit: simulated });
  } else {
    host = simulated.header.host;
    result = simulated.run.ok ? (simulated.run.result as WorkflowResult) : null;
    const passes = result !== null && passingStop(result.stop, opts.allowStop);
    steps.push({ name: 'rehearsal', ok: passes, exit: passes ? EXIT.ok : EXIT.planErrors });
    files['rehearsal.txt'] = renderSimulation(simulated.header, simulated.run);
    files['rehearsal.json'] = `${JSON.stringify(simulationJson(simulated.header, simulated.run), null, 2)}\n`;
  }
  const ok = steps.every((step) => step.ok);
  const mermaid = self(['graph', ...planArgs, '--mermaid'], true);
  const outcome = {
    ok,
    steps,
    host,
    stop: result?.stop ?? null,
    detail: result?.detail ?? (typeof simulated === 'number' ? 'the plan has errors; nothing was rehearsed' : (simulated.run.error?.message ?? null)),
    done: result?.done ?? null,
    total: result?.total ?? null,
    routedAround: result?.routedAround.length ?? null,
    reachedEnd: result !== null && (END_STOPS as readonly string[]).includes(result.stop),
    allowedStops: opts.allowStop,
    answers: opts.answers ?? null,
    report: relative(process.cwd(), outDir) || '.',
  };
  // The drawing shows broken plans too (graph exits 1 on them but still draws).
  files['summary.md'] = summaryMarkdown(outcome, result?.decidedForYou ?? '', mermaid.stdout ?? '');
  files['ci.json'] = `${JSON.stringify(outcome, null, 2)}\n`;
  writeReport(outDir, files);

  if (opts.json) process.stdout.write(files['ci.json']);
  else {
    const stepsLine = steps.map((step) => `${step.name} ${step.ok ? 'ok' : 'FAILED'}`).join(' · ');
    const stop = result ? ` (${coverage(outcome)})` : '';
    process.stdout.write(`leopold ci: ${stepsLine}${stop}; report in ${outcome.report}/\n`);
  }
  return ok ? EXIT.ok : EXIT.planErrors;
}

/** Whether the rehearsal passes at this stop: the end of the plan, or a stop the user allowed. */
export function passingStop(stop: string, allowed: readonly string[]): boolean {
  return (END_STOPS as readonly string[]).includes(stop) || allowed.includes(stop);
}

/** What the rehearsal covered, in words: `plan_complete, 4 of 4 items done`, and why it failed when it stopped short. */
function coverage(outcome: { stop: string | null; done: number | null; total: number | null; routedAround: number | null; reachedEnd: boolean; allowedStops: readonly string[] }): string {
  const around = outcome.routedAround ? `, ${outcome.routedAround} routed around` : '';
  const items = `${outcome.done} of ${outcome.total} items done${around}`;
  if (outcome.reachedEnd) return `${outcome.stop}, ${items}`;
  const allowed = outcome.stop !== null && outcome.allowedStops.includes(outcome.stop);
  return `${outcome.stop}, ${items}: ${allowed ? 'stopped short of the end, allowed by --allow-stop' : 'stopped short of the end of the plan'}`;
}

/** The report files, and the job summary when the CI provides one. */
function writeReport(outDir: string, files: Record<string, string>): void {
  try {
    mkdirSync(outDir, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileAtomic(join(outDir, name), text);
    const summary = process.env.GITHUB_STEP_SUMMARY;
    if (summary) appendFileSync(summary, files['summary.md']!);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new LeopoldError(`cannot write the CI report into ${outDir} (${code})`);
  }
}

/** The job summary: the steps, the stop, "What I decided for you" under the default answers, the graph. */
export function summaryMarkdown(
  outcome: {
    ok: boolean;
    steps: StepOutcome[];
    host: string;
    stop: string | null;
    detail: string | null;
    done: number | null;
    total: number | null;
    routedAround: number | null;
    reachedEnd: boolean;
    allowedStops: readonly string[];
    answers: string | null;
  },
  decidedForYou: string,
  mermaid: string,
): string {
  const lines = [`## Leopold plan check: ${outcome.ok ? 'passed' : 'FAILED'}`, '', '| step | result |', '| --- | --- |'];
  for (const step of outcome.steps) {
    const extra = step.name === 'rehearsal' && outcome.stop ? `: ${coverage(outcome)}` : '';
    lines.push(`| ${step.name === 'rehearsal' ? `rehearsal in ${outcome.host}` : step.name} | ${step.ok ? 'pass' : `fail (exit ${step.exit})`}${extra} |`);
  }
  if (outcome.detail) lines.push('', `Stop detail: ${outcome.detail}`);
  lines.push('', `### What I decided for you (${outcome.answers === null ? 'default answers' : `answers from ${outcome.answers}`})`, '', '```text', decidedForYou.trim() === '' ? 'No decisions.' : decidedForYou.trim(), '```');
  if (mermaid.trim() !== '') lines.push('', '### The plan', '', '```mermaid', mermaid.trim(), '```');
  return `${lines.join('\n')}\n`;
}

import type { Command } from 'commander';
import { z } from 'zod';
import { parseOptions, wholeNumberOption } from '../../brief/options.js';
import { readTextFile } from '../../brief/read-text.js';
import { LeopoldError } from '../../diagnostics/diagnostic.js';
import { renderDiagnostics } from '../../diagnostics/render.js';
import { SCRIPT_PATH } from '../../emit/index.js';
import { checkEmittedScript } from '../../emit/emitted-check.js';
import { compile } from '../../index.js';
import type { HostRun } from '../../../runtime/host/index.js';
import { chainResult, chainStats, runLaunches } from '../launch-chain.js';
import { parseModelScript, type ModelScript } from '../../../runtime/scripted-model/index.js';
import { rehearseInClaudeCode } from './simulate-claude-code.js';
import { simulatedTrail } from '../../../runtime/decisions/decided-for-you.js';
import type { WorkflowResult } from '../../../runtime/workflow/index.js';
import { planLayout, readCompileOptions, vetRuntimeBundle } from '../compile-inputs.js';
import { endQuietlyOnBrokenPipe } from '../io.js';
import { EXIT } from '../exit.js';

/** `leopold simulate` options as commander hands them over; validated once here. */
export const SimulateOptionsSchema = z.object({
  answers: z.string().min(1, 'expected a path to an answers JSON file').optional(),
  json: z.boolean().default(false),
  autonomy: z.enum(['full', 'ask']).optional(),
  budget: wholeNumberOption(1, 'a whole number of tokens').optional(),
  maxIterations: wholeNumberOption(1).optional(),
  maxAgents: wholeNumberOption(1, 'a whole number of agents').optional(),
  host: z.enum(['stand-in', 'claude-code'], { message: 'expected stand-in or claude-code' }).default('stand-in'),
  claude: z.string().min(1, 'expected a path to the claude binary').optional(),
  timeout: wholeNumberOption(1, 'a whole number of seconds').default(600),
});
export type SimulateOptions = z.infer<typeof SimulateOptionsSchema>;

const EXIT_HELP = `
Compiles the plan in memory (nothing is written) and runs the script in the stand-in host
(runtime/host) with scripted agent answers (--answers, see docs/host.md) or schema-shaped
defaults. The scribe's CLI calls are simulated too: nothing touches .leopold/. A launch
that stops at run_budget (the host's 1,000-agent cap, or --max-agents, would not fit the
next item) is launched again with its result's continuation, as /leopold-workflow does;
the report lists each launch, then the final stop.

With --host claude-code the same rehearsal runs in your installed Claude Code client (the
project's @anthropic-ai/claude-code, else \`claude\` on PATH, or --claude PATH) against a
built-in scripted model on 127.0.0.1: the real workflow loader and runtime, no account,
no network, no tokens. It works in a scratch copy of the brief, which it removes; the
scribe there really runs its leopold commands. --answers takes the same file.

Exit codes:
  0  the run ended (whatever its stop condition)
  1  the plan has errors, or the script failed (threw, or the host refused it)
  2  usage or input problem (missing file, bad answers file)
`;

/** `leopold simulate [PLAN]`: compile in memory and run the script in the stand-in host. */
export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description('compile the plan in memory and run it in the stand-in workflow host; print the run')
    .argument('[plan]', 'path to PLAN.md (default: the nearest .leopold/PLAN.md, walking up)')
    .option('--answers <file>', 'scripted agent answers (JSON; see docs/host.md)')
    .option('--json', 'print the run as one JSON document')
    .option('--autonomy <posture>', 'full or ask (beats LEOPOLD_AUTONOMY and GUARDRAILS.md)')
    .option('--budget <tokens>', 'the host token budget (default: unlimited)')
    .option('--max-iterations <n>', 'args.maxIterations (can only lower GUARDRAILS max_iterations)')
    .option('--max-agents <n>', 'args.maxAgents: agents one launch may start (can only lower the host\'s 1,000)')
    .option('--host <host>', 'stand-in (default) or claude-code: the real client on a scripted model')
    .option('--claude <path>', 'with --host claude-code: the claude binary to run')
    .option('--timeout <seconds>', 'with --host claude-code: how long the rehearsal may take (default 600)')
    .addHelpText('after', EXIT_HELP)
    .action(async (plan: string | undefined, raw: unknown) => {
      endQuietlyOnBrokenPipe();
      process.exitCode = await runSimulate(plan, parseOptions(SimulateOptionsSchema, raw));
    });
}

async function runSimulate(planArg: string | undefined, opts: SimulateOptions): Promise<number> {
  const simulated = await simulatePlan(planArg, opts);
  if (typeof simulated === 'number') return simulated;
  const { header, run, launches } = simulated;
  process.stdout.write(opts.json ? `${JSON.stringify(simulationJson(header, run, launches), null, 2)}\n` : renderSimulation(header, run, launches));
  return run.ok ? EXIT.ok : EXIT.planErrors;
}

/** One simulated run and its report header, or the exit code when the plan has errors (already reported on stderr). */
export async function simulatePlan(
  planArg: string | undefined,
  opts: SimulateOptions,
): Promise<{ header: Header; run: HostRun; launches: HostRun[] } | number> {
  const cwd = process.cwd();
  const layout = planLayout(planArg, cwd);
  const planShown = layout.planShown;
  const text = readTextFile(planShown, 'plan file');
  const model = opts.answers === undefined ? parseModelScript([]) : readAnswers(opts.answers);
  const options = readCompileOptions(layout, cwd, opts.autonomy);
  await vetRuntimeBundle(options);
  const result = compile(text, options);
  if (!result.ok) {
    process.stderr.write(renderDiagnostics(result.diagnostics, 'text', new Map([[planShown, text]])));
    process.stderr.write(`leopold: ${planShown} has errors; nothing was simulated\n`);
    return EXIT.planErrors;
  }
  const args: Record<string, unknown> = {};
  if (opts.maxIterations !== undefined) args.maxIterations = opts.maxIterations;
  if (opts.maxAgents !== undefined) args.maxAgents = opts.maxAgents;
  const hasArgs = Object.keys(args).length > 0;
  let run!: HostRun;
  const launches: HostRun[] = [];
  let host = 'the stand-in host';
  if (opts.host === 'claude-code') {
    if (opts.budget !== undefined) throw new LeopoldError('--budget applies to the stand-in host only: the scripted model spends no tokens');
    const rehearsal = await rehearseInClaudeCode({ layout, script: result.script, model, args: hasArgs ? args : null, claude: opts.claude, timeoutMs: opts.timeout * 1000 });
    run = rehearsal.run;
    host = `Claude Code ${rehearsal.client.split(' ')[0]} (scripted model)`;
  } else {
    // A run that stops at run_budget is launched again with its continuation, as the
    // /leopold-workflow skill does, until it stops for another reason.
    const runs = await runLaunches(
      result.script,
      { file: SCRIPT_PATH, staticCheck: checkEmittedScript, answers: model.agents, budgetTotal: opts.budget ?? null, ...(hasArgs ? { args } : {}) },
      MAX_LAUNCHES,
    );
    run = runs.at(-1)!;
    launches.push(...runs.slice(0, -1));
  }
  const header = {
    host,
    plan: planShown,
    loop: result.compiled.graph ? ('routed' as const) : ('waves' as const),
    autonomy: result.compiled.autonomy,
    waves: result.compiled.waves.map((wave) => [...wave]),
  };
  return { header, run, launches };
}

/** A chain of launches that each stop at run_budget ends here whatever it has done (a guard against a run that never ends). */
const MAX_LAUNCHES = 1000;

function readAnswers(path: string): ModelScript {
  const text = readTextFile(path, 'answers file');
  try {
    return parseModelScript(JSON.parse(text) as unknown);
  } catch (error) {
    throw new LeopoldError(`${path}: ${(error as Error).message}`);
  }
}

export interface Header {
  /** Which host ran the script, as the report names it. */
  host: string;
  plan: string;
  loop: 'routed' | 'waves';
  autonomy: 'full' | 'ask';
  waves: number[][];
}

/** One launch of a chain, as the report lists it. */
function launchSummary(run: HostRun, n: number): Record<string, unknown> {
  const result = run.result as WorkflowResult;
  return { launch: n + 1, stop: result.stop, detail: result.detail, done: result.done, total: result.total, agents: run.stats.agents };
}

/**
 * The run as one JSON document (`--json`); `launches` are the earlier launches of a chain
 * (each stopped at run_budget). `result`, `stats`, `agents`, `phases` and `logs` are the
 * whole chain's (launch-chain.ts chainResult); each agent names its launch when there were several.
 */
export function simulationJson(header: Header, run: HostRun, launches: readonly HostRun[] = []): Record<string, unknown> {
  const runs = [...launches, run];
  const chained = launches.length > 0;
  const result = chainResult(runs);
  return {
    ...header,
    ...(chained ? { launches: runs.map((r, n) => (r.ok ? launchSummary(r, n) : { launch: n + 1, ok: false })) } : {}),
    ok: run.ok,
    phases: [...new Set(runs.flatMap((r) => r.phases))],
    agents: runs.flatMap((r, n) => r.journal.map((call) => ({ ...(chained ? { launch: n + 1 } : {}), index: call.index, label: call.label, phase: call.phase, status: call.status, tokens: call.tokens }))),
    // Nothing was written: the block must not point at a trail, in JSON either.
    result: result ? { ...result, decidedForYou: simulatedTrail(result.decidedForYou) } : null,
    error: run.error ?? null,
    violations: run.violations ?? [],
    logs: runs.flatMap((r) => r.logs),
    stats: chainStats(runs),
  };
}

/** The run as text: phases, agents called (label and status), decisions, stop reason. */
export function renderSimulation(header: Header, run: HostRun, launches: readonly HostRun[] = []): string {
  const out: string[] = [];
  const open = header.waves.reduce((n, wave) => n + wave.length, 0);
  out.push(`Simulated ${header.plan} in ${header.host}: ${open} open item${open === 1 ? '' : 's'}, ${header.loop === 'routed' ? 'routed loop' : 'wave loop'}, autonomy ${header.autonomy}`);
  if (launches.length > 0) {
    // Each launch stopped at run_budget and the next one continued it (docs/workflow.md).
    out.push('', `Launches (${launches.length + 1}):`);
    [...launches, run].forEach((launch, n) => {
      const r = launch.ok ? (launch.result as WorkflowResult) : null;
      out.push(`  ${String(n + 1).padStart(3)}  ${(r?.stop ?? 'failed').padEnd(14)}  done ${r?.done ?? 0}/${r?.total ?? 0}  agents ${launch.stats.agents}`);
    });
  }
  const runs = [...launches, run];
  out.push('', `Phases: ${[...new Set(runs.flatMap((launch) => launch.phases))].join(' → ') || '(none)'}`);
  const journal = runs.flatMap((launch) => launch.journal);
  out.push('', `Agents (${journal.length}${launches.length > 0 ? `, ${launches.length + 1} launches` : ''}):`);
  const width = Math.max(5, ...journal.map((call) => (call.label ?? '').length));
  for (const call of journal) {
    const status = call.status === 'answered' ? 'answered' : call.status === 'null' ? 'NO ANSWER (null)' : `THREW ${call.error?.message ?? ''}`;
    out.push(`  ${String(call.index).padStart(3)}  ${(call.label ?? '(no label)').padEnd(width)}  ${call.phase ?? ''}  ${status}`);
  }
  if (!run.ok) {
    out.push('', `The script failed: ${run.error?.name ?? 'Error'}: ${run.error?.message ?? ''}`);
    for (const v of run.violations ?? []) out.push(`  ${v.line}:${v.column} ${v.code} ${v.message}`);
    return `${out.join('\n')}\n`;
  }
  const result = chainResult(runs)!;
  const notes = runs.flatMap((launch) => launch.logs).filter((line) => !line.startsWith('stop:'));
  if (notes.length > 0) out.push('', 'Log:', ...notes.map((line) => `  ${line}`));
  // Nothing was written: the block must not point at a trail (docs/workflow.md).
  out.push('', result.decidedForYou === '' ? 'Decisions: none' : simulatedTrail(result.decidedForYou));
  out.push('', `Stop: ${result.stop} (${result.detail})`);
  const list = (xs: readonly number[]) => (xs.length === 0 ? '-' : xs.join(', '));
  out.push(`Done ${result.done}/${result.total}; incomplete: ${list(result.incomplete)}; stranded: ${list(result.stranded)}; routed around: ${list(result.routedAround)}`);
  const stats = chainStats(runs);
  out.push(`Agents run: ${stats.agents}; tokens: ${stats.tokensSpent}`);
  return `${out.join('\n')}\n`;
}

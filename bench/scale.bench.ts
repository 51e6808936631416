import { assertRuntimeBundle } from '../compiler/emit/runtime-bundle.js';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bareNode, coldLatency, dist } from './cold-process.js';
import { largestFitting } from './fits.js';
import { generateChecklist, generatePlan } from './plans.js';
import type { BenchTable } from './run.js';
import { compile, type CompileOptions } from '../compiler/index.js';
import { checkEmittedScript } from '../compiler/emit/emitted-check.js';
import { runLaunches } from '../compiler/cli/launch-chain.js';
import type { WorkflowResult } from '../runtime/workflow/index.js';
import { benchTempDir } from './temp.js';

// Issue #13's targets in one table: plans larger than one workflow run, and cost that stays
// linear. Every figure stands beside its target and is a ratio to, or a time against, a
// floor measured in the same run (the machine is shared and noisy).

const here = resolve(fileURLToPath(new URL('.', import.meta.url)));
const bundle = readFileSync(join(dist, 'workflow-runtime.js'), 'utf8');
// Checked with the script template once, as `leopold compile` does for a bundle without its build hash.
assertRuntimeBundle(bundle);
const options = (guardrails: string): CompileOptions => ({
  file: '.leopold/PLAN.md',
  mission: '# Mission\n\nShip the generated plan.\n',
  charter: '## Never\n\n- Never commit secrets.\n',
  guardrails,
  runtimeBundle: bundle,
});

const STOP_RUNS = 30;
const STOP_TARGET = 3;
const FIT_TARGET = 2500;
/** Issue #26: simulating 1,000 items costs at most 3 s of CPU (wall time on a shared machine is reported beside it). */
const RUN_TARGET_CPU_MS = 3000;
const FLAT_TARGET = 1.3;

/**
 * The Stop hook on a 1,000-item checklist, item 1 ticked and reported: the hook folds it and
 * hands out item 2. A cold turn finds `.leopold/` as the brief left it (anything an earlier
 * turn wrote there, state aside, is removed first); a warm turn finds what the previous
 * turn of the same plan left (a cache, had the hook one).
 */
function stopHookRows(): { rows: (string | number)[][]; cold: number; warm: number } {
  const plan = generateChecklist(1000).replace('- [ ] Step 1:', '- [x] Step 1:');
  const state = JSON.stringify({
    version: 1,
    active: true,
    engine: 'session',
    started_at: '2030-01-01T00:00:00.000Z',
    iteration: 1,
    last_done: 0,
    hook: { pending: { item: 1, offset: 0, rescue: false }, waves: null },
  });
  const project = (name: string) => {
    const root = benchTempDir(`leopold-bench-scale-${name}-`);
    const leo = join(root, '.leopold');
    mkdirSync(leo);
    for (const f of ['MISSION.md', 'CHARTER.md', 'GUARDRAILS.md']) copyFileSync(join(here, '../fixtures/example/.leopold', f), join(leo, f));
    writeFileSync(join(leo, 'PLAN.md'), plan);
    writeFileSync(join(leo, 'state.json'), state);
    return { root, leo, brief: new Set(readdirSync(leo)) };
  };
  const cold = project('cold');
  const warm = project('warm');
  const stdin = (root: string) =>
    JSON.stringify({ session_id: 'bench', transcript_path: join(root, '.claude', 'transcript.jsonl'), cwd: root, hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'Step 1 is done; ticked it.', background_tasks: [] });
  const hook = join(dist, 'hooks', 'stop.js');
  const env = (root: string): NodeJS.ProcessEnv => {
    const e: NodeJS.ProcessEnv = { ...process.env, CLAUDE_PROJECT_DIR: root };
    delete e.LEOPOLD_AUTONOMY;
    return e;
  };
  const block = /Work on item \d+ now, and only on it: Step 2/;
  // The hook finds its project through CLAUDE_PROJECT_DIR, so each turn kind is timed in its
  // own project, each beside its own `node -e 0`.
  const time = (label: string, p: typeof cold, prepare: () => void) =>
    coldLatency([bareNode(stdin(p.root)), { label, args: [hook], stdin: stdin(p.root), prepare, expect: block, status: 2 }], { cwd: p.root, env: env(p.root), runs: STOP_RUNS });
  const coldTurns = time('stop hook, cold turn (1,000 items)', cold, () => {
    for (const f of readdirSync(cold.leo)) if (!cold.brief.has(f)) rmSync(join(cold.leo, f), { recursive: true, force: true });
    writeFileSync(join(cold.leo, 'state.json'), state);
  });
  const warmTurns = time('stop hook, warm turn (1,000 items)', warm, () => writeFileSync(join(warm.leo, 'state.json'), state));
  rmSync(cold.root, { recursive: true, force: true });
  rmSync(warm.root, { recursive: true, force: true });
  return { rows: [...coldTurns.rows, ...warmTurns.rows], cold: coldTurns.ratios[1]!, warm: warmTurns.ratios[1]! };
}

interface Chain {
  ms: number;
  /** CPU time of this process (user + system, every thread: the JIT and GC included) over the chain. */
  cpuMs: number;
  agents: number;
  launches: number;
  stop: string;
  done: number;
}

/** Compiles a plan and runs it in the stand-in host, launch after launch through run_budget, as `leopold simulate` does. */
async function simulateChain(text: string, guardrails: string): Promise<Chain> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = compile(text, options(guardrails));
  if (!result.ok) throw new Error(`generated plan did not compile: ${result.diagnostics[0]?.code} ${result.diagnostics[0]?.message}`);
  const runs = await runLaunches(result.script, { staticCheck: checkEmittedScript, timeoutMs: 600_000 }, Number.POSITIVE_INFINITY);
  const failed = runs.findIndex((run) => !run.ok);
  if (failed !== -1) throw new Error(`launch ${failed + 1} failed: ${runs[failed]!.error?.message}`);
  const results = runs.map((run) => run.result as WorkflowResult);
  const used = process.cpuUsage(cpu);
  return {
    ms: performance.now() - started,
    cpuMs: (used.user + used.system) / 1000,
    agents: runs.reduce((sum, run) => sum + run.stats.agents, 0),
    launches: runs.length,
    stop: results.at(-1)!.stop,
    done: results.reduce((sum, ended) => sum + ended.done, 0),
  };
}

/** Wall time of `leopold simulate` as a fresh process on a one-item plan, beside `node -e 0`: one launch's fixed start-up. */
function startupRows(): { rows: (string | number)[][]; ratio: number; overMs: number } {
  const root = benchTempDir('leopold-bench-scale-sim-');
  mkdirSync(join(root, '.leopold'));
  writeFileSync(join(root, '.leopold', 'PLAN.md'), '# Plan\n\n- [ ] Step 1: update module 1 and its tests\n');
  writeFileSync(join(root, '.leopold', 'MISSION.md'), '# Mission\n\nShip it.\n');
  const { rows, ratios } = coldLatency(
    [bareNode(''), { label: 'leopold simulate, a one-item plan (one launch)', args: [join(dist, 'leopold.js'), 'simulate'], stdin: '', expect: /plan_complete/ }],
    { cwd: root, env: process.env, runs: 10 },
  );
  rmSync(root, { recursive: true, force: true });
  return { rows, ratio: ratios[1]!, overMs: Number(rows[1]![3]) };
}

const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

export default async function scaleBench(): Promise<BenchTable> {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];

  const stop = stopHookRows();
  rows.push(['Stop hook on a 1,000-item plan, cold turn', `${stop.cold.toFixed(2)}x node -e 0`, `≤ ${STOP_TARGET}x`, verdict(stop.cold <= STOP_TARGET)]);
  rows.push(['Stop hook on a 1,000-item plan, warm turn', `${stop.warm.toFixed(2)}x node -e 0`, `≤ ${STOP_TARGET}x`, verdict(stop.warm <= STOP_TARGET)]);

  const fitting = largestFitting((items) => generatePlan(items), options(''));
  rows.push(['Largest generated graph plan in 512 KiB', `${fitting} items`, `≥ ${FIT_TARGET}`, verdict(fitting >= FIT_TARGET)]);

  // Warm the process (JIT, the host's validator cache) so the chains below measure the loop.
  await simulateChain(generateChecklist(20), 'max_iterations: 100\n');
  const graph = await simulateChain(generatePlan(1000, 7), 'max_iterations: 2000\n');
  rows.push([
    `Simulated 1,000-node graph run, ${graph.launches === 1 ? '1 launch' : `${graph.launches} launches`} (${graph.agents} agents, ${graph.stop}): CPU`,
    `${(graph.cpuMs / 1000).toFixed(2)} s CPU (${(graph.ms / 1000).toFixed(2)} s wall)`,
    `≤ ${RUN_TARGET_CPU_MS / 1000} s CPU`,
    verdict(graph.cpuMs <= RUN_TARGET_CPU_MS),
  ]);

  const perAgent = new Map<number, Chain>();
  // The median of several chains per size (15 at 100 items, 5 at 1,000, 3 at 4,000): one
  // 100-item chain is a tenth of a second, so a single run moved the ratio by ±0.3 on a
  // shared machine, and a median of 5 still by ±0.3 under load (0.92 to 1.56 in one day).
  const ROUNDS: Readonly<Record<number, number>> = { 100: 15, 1000: 5, 4000: 3 };
  for (const items of [100, 1000, 4000]) {
    const chains: Chain[] = [];
    for (let round = 0; round < ROUNDS[items]!; round++) {
      const chain = await simulateChain(generateChecklist(items), `max_iterations: ${items * 2}\n`);
      if (chain.stop !== 'plan_complete' || chain.done !== items) throw new Error(`the ${items}-item chain ended ${chain.stop} with ${chain.done} done`);
      chains.push(chain);
    }
    const chain = chains.sort((x, y) => x.ms - y.ms)[Math.floor(chains.length / 2)]!;
    perAgent.set(items, chain);
    rows.push([`Simulate, ${items}-item checklist: ms per agent (${chain.launches === 1 ? '1 launch' : `${chain.launches} launches`}, ${chain.agents} agents)`, (chain.ms / chain.agents).toFixed(3), '-', '-']);
    if (items === 1000) {
      const cpu = [...chains].sort((x, y) => x.cpuMs - y.cpuMs)[Math.floor(chains.length / 2)]!.cpuMs;
      rows.push([`Simulate, 1,000-item checklist, every launch (median of ${chains.length}): CPU`, `${(cpu / 1000).toFixed(2)} s CPU`, `≤ ${RUN_TARGET_CPU_MS / 1000} s CPU`, verdict(cpu <= RUN_TARGET_CPU_MS)]);
    }
  }
  const cost = (items: number) => perAgent.get(items)!.ms / perAgent.get(items)!.agents;
  const flat = cost(4000) / cost(100);
  rows.push(['Per-agent cost, 4,000 items / 100 items', flat.toFixed(2), `≤ ${FLAT_TARGET}`, verdict(flat <= FLAT_TARGET)]);

  const startup = startupRows();
  rows.push(['`leopold simulate` fixed start-up: a one-item plan, fresh process', `${startup.ratio.toFixed(2)}x node -e 0 (+${startup.overMs} ms)`, 'reported apart', '-']);

  const medians = (r: (string | number)[][]) => r.map((row) => `${row[0]} ${row[2]} ms`).join(', ');
  notes.push(
    `Medians: ${medians(stop.rows)}; ${medians(startup.rows)}.`,
    'The Stop hook rows are cold processes (median of 30, interleaved with `node -e 0`) on a 1,000-item checklist whose item 1 was just ticked: the hook reads PLAN.md, folds the tick, routes and blocks with item 2. Cold: `.leopold/` holds only the brief and state.json, so the turn parses PLAN.md (the first turn of a run, or a plan edited by hand); a checklist is a plain plan, read line by line without remark (runtime/plan/parse/plain.ts), as most plans are. Warm: the parse the last writer of PLAN.md kept (.leopold/.PLAN.md.items.json, written by the tick or the previous turn) matches the text, so the turn loads no Markdown parser: every later turn of a run.',
    'The largest plan is found by bisection over bench/plans.ts generatePlan (routes, kinds, deps, needs, scenarios and scopes), compiled with the runtime bundle this run built.',
    'Simulated runs are in-process (compile, then runWorkflowScript launch after launch with the previous result\'s continue, as `leopold simulate` does) with default answers, after one warm-up chain, the median of 15 chains at 100 items, 5 at 1,000 and 3 at 4,000; a launch ends at run_budget before the host\'s 1,000 agents. ms per agent includes each launch\'s own start (loading the script, the realm). The CPU rows are the target\'s measure (issue #26: 3 s of CPU for 1,000 items): process.cpuUsage() over the chain, user and system time of every thread of this process (the JIT and the garbage collector too), from the compile to the last launch\'s result; wall time moves with the machine\'s load and is shown beside it.',
    'The start-up row is what one `leopold simulate` process pays before and around a single agent: node, the CLI\'s modules, compile, the host\'s loader (which parses the whole script), Ajv compiling the agent schemas and the realm; docs/host.md.',
  );
  return { title: 'Issue #13: plans larger than one run, cost that stays linear', columns: ['measure', 'measured', 'target', ''], rows, notes };
}

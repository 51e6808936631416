import { assertRuntimeBundle } from '../compiler/emit/runtime-bundle.js';
import { readFileSync } from 'node:fs';
import type { BenchTable } from './run.js';
import { generateChecklist as checklist, generatePlan } from './plans.js';
import { compile } from '../compiler/index.js';
import { checkEmittedScript } from '../compiler/emit/emitted-check.js';
import { runWorkflowScript } from '../runtime/host/index.js';

// Simulated run time of the emitted script in the stand-in host (runtime/host) with
// default answers: the engine's own cost (prompts, routing, scribe batches), the host's
// realm and Ajv checks (validators cached by schema text), the loader's one parse of the
// script. Agents cost nothing real, so ms/agent is the loop's overhead per agent.

const bundle = readFileSync(new URL('../dist/workflow-runtime.js', import.meta.url), 'utf8');
// Checked with the script template once, as `leopold compile` does for a bundle without its build hash.
assertRuntimeBundle(bundle);

function scriptFor(plan: string, guardrails: string): string {
  const result = compile(plan, {
    file: '.leopold/PLAN.md',
    mission: '# Mission\n\nShip the generated plan.\n',
    charter: '## Never\n\n- Never commit secrets.\n',
    guardrails,
    runtimeBundle: bundle,
  });
  if (!result.ok) throw new Error(`generated plan did not compile: ${result.diagnostics[0]?.code} ${result.diagnostics[0]?.message}`);
  return result.script;
}

async function timedRun(script: string): Promise<{ ms: number; agents: number; stop: string; done: number; total: number }> {
  const start = performance.now();
  const run = await runWorkflowScript(script, { staticCheck: checkEmittedScript, timeoutMs: 600_000 });
  const ms = performance.now() - start;
  if (!run.ok) throw new Error(`the simulated run failed: ${run.error?.message}`);
  const result = run.result as { stop: string; done: number; total: number };
  return { ms, agents: run.stats.agents, stop: result.stop, done: result.done, total: result.total };
}

// The floor: the host alone, a script that only calls agent() with a fresh schema object
// each time (as the engine does) and does nothing with the answers.
const FLOOR_AGENTS = 900;
const floorScript = [
  "export const meta = { name: 'floor', description: 'agent() calls and nothing else' };",
  `for (let i = 0; i < ${FLOOR_AGENTS}; i++) await agent('task ' + i, { schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } });`,
  'return { stop: "plan_complete", done: 0, total: 0 };',
  '',
].join('\n');

export default async function bench(): Promise<BenchTable> {
  const rows: (string | number)[][] = [];
  const floor = await timedRun(floorScript);
  const floorPerAgent = floor.ms / Math.max(1, floor.agents);
  rows.push([`floor: ${FLOOR_AGENTS} bare agent() calls, one schema`, `${(floorScript.length / 1024).toFixed(0)} KiB`, floor.ms.toFixed(0), floor.agents, floorPerAgent.toFixed(2), '1.00', '-', '-']);
  for (const [label, plan, guardrails] of [
    ['1,000-item checklist, default limits (max_iterations 50)', checklist(1000), ''],
    ['1,000-item checklist, max_iterations 1000', checklist(1000), 'max_iterations: 1000\n'],
    ['generated graph plan, 1,000 nodes, max_iterations 1000', generatePlan(1000, 7), 'max_iterations: 1000\n'],
  ] as const) {
    const script = scriptFor(plan, guardrails);
    const r = await timedRun(script);
    const perAgent = r.ms / Math.max(1, r.agents);
    rows.push([label, `${(script.length / 1024).toFixed(0)} KiB`, r.ms.toFixed(0), r.agents, perAgent.toFixed(2), (perAgent / floorPerAgent).toFixed(2), `${r.done}/${r.total}`, r.stop]);
  }
  return {
    title: 'Simulated workflow run (stand-in host, default answers)',
    columns: ['plan', 'script', 'ms', 'agents', 'ms/agent', 'ratio to floor', 'done', 'stop'],
    rows,
    notes: [
      'The floor row is the stand-in host alone (realm, scheduler, Ajv with its validator cache): what an agent() costs before the engine does anything.',
      'Default answers walk the happy path: each work item costs implementer + verifier + review panel + one scribe call.',
      'One launch ends at max_iterations or at run_budget (the next item\'s worst case would not fit in the host\'s 1,000 agents; the next launch continues, docs/workflow.md).',
    ],
  };
}

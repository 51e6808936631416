import { readFileSync } from 'node:fs';
import type { BenchTable } from './run.js';
import { generateChecklist as checklist, generatePlan } from './plans.js';
import { checkWorkflowScript } from '../compiler/emit/check/index.js';
import { compile } from '../compiler/index.js';
import { runWorkflowScript } from '../runtime/host/index.js';

// Simulated run time of the emitted script in the stand-in host (runtime/host) with
// default answers: the engine's own cost (prompts, routing, scribe batches), the host's
// realm and Ajv checks. Agents cost nothing real, so this is the loop's overhead per agent.

const bundle = readFileSync(new URL('../dist/workflow-runtime.js', import.meta.url), 'utf8');

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
  const run = await runWorkflowScript(script, { staticCheck: checkWorkflowScript, timeoutMs: 600_000 });
  const ms = performance.now() - start;
  if (!run.ok) throw new Error(`the simulated run failed: ${run.error?.message}`);
  const result = run.result as { stop: string; done: number; total: number };
  return { ms, agents: run.stats.agents, stop: result.stop, done: result.done, total: result.total };
}

export default async function bench(): Promise<BenchTable> {
  const rows: (string | number)[][] = [];
  for (const [label, plan, guardrails] of [
    ['1,000-item checklist, default limits (max_iterations 50)', checklist(1000), ''],
    ['1,000-item checklist, max_iterations 1000', checklist(1000), 'max_iterations: 1000\n'],
    ['generated graph plan, 800 nodes, max_iterations 1000', generatePlan(800, 7), 'max_iterations: 1000\n'],
  ] as const) {
    const script = scriptFor(plan, guardrails);
    const r = await timedRun(script);
    rows.push([label, `${(script.length / 1024).toFixed(0)} KiB`, r.ms.toFixed(0), r.agents, (r.ms / Math.max(1, r.agents)).toFixed(2), `${r.done}/${r.total}`, r.stop]);
  }
  return {
    title: 'Simulated workflow run (stand-in host, default answers)',
    columns: ['plan', 'script', 'ms', 'agents', 'ms/agent', 'done', 'stop'],
    rows,
    notes: [
      'Default answers walk the happy path: each work item costs implementer + verifier + review panel + one scribe call.',
      'A long run ends at max_iterations or at the host\'s 1,000-agent cap (reported as budget_exceeded), never by running every node.',
      'A generated 1,000-node graph plan no longer fits the 512 KiB script limit with the full engine embedded (about 566 KiB), so the graph row uses 800 nodes.',
    ],
  };
}

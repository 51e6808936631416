import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateChecklist } from '../../bench/plans.js';
import { builtLeopold } from '../compile/harness.js';
import { STRESS } from '../support/stress.js';

// `leopold simulate` of plans larger than one workflow run (docs/workflow.md, "Runs that
// continue"): launches chained through run_budget reach plan_complete with every item
// dispatched exactly once. `npm test` runs a small plan under a lowered agent budget;
// `npm run test:stress` runs 1,000 and 4,000 items at the host's real 1,000-agent cap.

const dir = mkdtempSync(join(tmpdir(), 'leopold-simulate-chain-'));
let bin = '';

beforeAll(async () => {
  bin = (await builtLeopold()).bin;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function simulateChecklist(items: number, extra: string[]): { code: number | null; stdout: string; stderr: string } {
  const project = join(dir, `p${items}`);
  mkdirSync(join(project, '.leopold'), { recursive: true });
  writeFileSync(join(project, '.leopold', 'PLAN.md'), generateChecklist(items));
  writeFileSync(join(project, '.leopold', 'MISSION.md'), '# Mission\n\nShip the generated plan.\n');
  // A plan this large raises max_iterations only: the run's subagent cap, left unset, follows
  // it (docs/guardrails.md, Subagents), so the chain never stops subagent_cap.
  writeFileSync(join(project, '.leopold', 'GUARDRAILS.md'), `max_iterations: ${items * 2}\n`);
  const r = spawnSync(process.execPath, [bin, 'simulate', ...extra], { cwd: project, encoding: 'utf8', timeout: 1_200_000, maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function expectChainCompletes(items: number, extra: string[], cap: number): void {
  const r = simulateChecklist(items, extra);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const launches = [...r.stdout.matchAll(/^ +(\d+) {2}(\w+) +done (\d+)\/(\d+) {2}agents (\d+)$/gm)].map((m) => ({
    stop: m[2]!,
    done: Number(m[3]),
    agents: Number(m[5]),
  }));
  expect(launches.length).toBeGreaterThan(1);
  expect(launches.map((l) => l.stop)).toEqual([...Array(launches.length - 1).fill('run_budget'), 'plan_complete']);
  for (const launch of launches) expect(launch.agents).toBeLessThanOrEqual(cap);
  expect(launches.reduce((n, l) => n + l.done, 0)).toBe(items);
  expect(r.stdout).toContain('Stop: plan_complete (every item is done)');
  // The run's counts are the whole chain's, not the last launch's.
  expect(r.stdout).toContain(`Done ${items}/${items}; incomplete: -;`);
  expect(r.stdout).toContain(`Agents run: ${launches.reduce((n, l) => n + l.agents, 0)};`);
  // No item dispatched twice, none skipped.
  const implemented = [...r.stdout.matchAll(/ (i\d+):implement /g)].map((m) => m[1]!);
  expect(implemented).toHaveLength(items);
  expect(new Set(implemented).size).toBe(items);
}

describe('leopold simulate: a plan larger than one run', () => {
  it.skipIf(STRESS)('chains launches through run_budget to plan_complete, each item dispatched once (300 items, 250 agents a launch)', () => {
    expectChainCompletes(300, ['--max-agents', '250'], 250);
  });

  it.skipIf(STRESS)('--json: result, stats and agents are the whole chain\'s; launches lists each', () => {
    const r = simulateChecklist(40, ['--max-agents', '50', '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as {
      launches: { launch: number; stop: string; done: number; agents: number }[];
      result: { stop: string; done: number; total: number; incomplete: number[]; outcomes: { item: number }[] };
      stats: { agents: number };
      agents: { launch: number; label: string }[];
    };
    expect(json.launches.length).toBeGreaterThan(1);
    expect(json.result).toMatchObject({ stop: 'plan_complete', done: 40, total: 40, incomplete: [] });
    expect(json.result.outcomes.map((o) => o.item)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const agents = json.launches.reduce((n, l) => n + l.agents, 0);
    expect(json.stats.agents).toBe(agents);
    expect(json.agents).toHaveLength(agents);
    expect(json.agents.at(-1)!.launch).toBe(json.launches.length);
  });

  it.runIf(STRESS)('a 1,000-item checklist reaches plan_complete across chained runs at the 1,000-agent cap', () => {
    expectChainCompletes(1000, [], 1000);
  });

  // About 16,000 agents in 17 launches; it fits the 512 KiB script because the embedded
  // plan leaves out each item's defaults (runtime/plan/compact.ts).
  it.runIf(STRESS)('a 4,000-item checklist reaches plan_complete across chained runs too', () => {
    expectChainCompletes(4000, [], 1000);
  }, 1_200_000);
});

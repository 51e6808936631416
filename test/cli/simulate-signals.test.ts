import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtLeopold } from '../compile/harness.js';
import { tempDir } from '../support/temp.js';

// Issue #13, signals from any node: the original Leopold's two-branch plan and its
// plan-grammar worked example (fixtures/corpus/plans/, our words, the same structure) take
// exactly one branch under default answers, through the built `leopold simulate`. The
// default answer of a steering key is its first declared value (the schema's enum/default).

const repo = resolve(import.meta.dirname, '../..');
const dir = tempDir('leopold-simulate-signals-'); // removed after the file (test/support/temp.ts)
let bin = '';

beforeAll(async () => {
  bin = (await builtLeopold()).bin;
});

interface Simulation {
  agents: { label: string; options?: Record<string, unknown> }[];
  result: { stop: string; done: number; total: number; incomplete: number[]; routedAround: number[]; stranded: number[] };
}

function simulate(plan: string, ...extra: string[]): Simulation {
  const r = spawnSync(process.execPath, [bin, 'simulate', plan, '--json', ...extra], { cwd: repo, encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Simulation;
}

/** The items whose own agents ran, in order (a work item's implementer, any other node's one agent). */
const dispatched = (s: Simulation) => [
  ...new Set(s.agents.map((a) => /^i(\d+):(implement|tool|gate|verify|feedback|persona:human)$/.exec(a.label)?.[1]).filter((n): n is string => n !== undefined).map(Number)),
];

describe('leopold simulate: a steering item takes exactly one branch under default answers', () => {
  it('the branch plan ships (1, 2, 3): the migration reports migrated=true, its first value; the rollback is routed around', () => {
    const s = simulate('fixtures/corpus/plans/branch.md');
    expect(dispatched(s)).toEqual([1, 2, 3]);
    expect(s.result).toMatchObject({ stop: 'routed_complete', done: 3, total: 4, incomplete: [4], routedAround: [4], stranded: [] });
  });

  it('the worked example runs the migration, the check, the release gate, feedback and the decision; the rollback is routed around', () => {
    const answers = join(dir, 'answers.json');
    writeFileSync(
      answers,
      JSON.stringify([
        { label: 'i7:persona:human', answers: [{ value: { name: 'Noor Haddad', role: 'Release Manager', expertise: ['release planning'], optimizesFor: ['safe releases'], rationale: 'A go/no-go call is a release manager’s.' } }] },
        {
          label: 'i7:human',
          answers: [{ value: { title: 'Release it today', class: 'reversible', charter: 'silent', decision: 'Release the migrated build today', why: 'bias to action: the checks passed', reversal: 'Roll the release back to the previous build.', summary: 'Released.' } }],
        },
      ]),
    );
    const s = simulate('fixtures/corpus/plans/grammar-worked-example.md', '--answers', answers);
    expect(dispatched(s)).toEqual([1, 2, 3, 4, 6, 7]);
    expect(s.result).toMatchObject({ stop: 'routed_complete', done: 6, total: 7, incomplete: [5], routedAround: [5], stranded: [] });
  });

  it('the worked example with nothing scripted still never reaches the rollback: it stops at the @human fork, whose default answer decides nothing', () => {
    const s = simulate('fixtures/corpus/plans/grammar-worked-example.md');
    expect(dispatched(s)).toEqual([1, 2, 3, 4, 6, 7]);
    expect(s.result).toMatchObject({ stop: 'escalation', incomplete: [5, 7] });
  });
});

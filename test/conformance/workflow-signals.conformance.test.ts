import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { workflowSuite } from './workflow-scenario.js';
import { STRESS } from '../support/stress.js';

// Signals from any node in the real client (issue #13): the original Leopold's two-branch
// plan and its plan-grammar worked example (fixtures/corpus/plans/, our words, the same
// structure) run in Claude Code on the scripted model with default answers, where a
// steering key's answer is its schema's first declared value, and take exactly one branch.
// Each scenario also runs in the stand-in host, which must make the same agent calls.

const { scenario } = workflowSuite();
const BRANCH = readFileSync('fixtures/corpus/plans/branch.md', 'utf8');
const WORKED_EXAMPLE = readFileSync('fixtures/corpus/plans/grammar-worked-example.md', 'utf8');

/** The items whose own agents ran, in call order. */
const dispatched = (keys: readonly string[]) => [
  ...new Set(keys.map((key) => /^i(\d+):(implement|tool|gate|verify|feedback|persona:human)$/.exec(key)?.[1]).filter((n): n is string => n !== undefined).map(Number)),
];

describe('the compiled workflow in the real client: a steering item takes one branch', () => {
  it('the branch plan ships: the migration answers migrated=true, item 3 runs and the rollback (4) is routed around', async () => {
    const { run, project, result } = await scenario({ plan: BRANCH }, []);
    expect(dispatched(run.agents.map((a) => a.key))).toEqual([1, 2, 3]);
    expect(result).toMatchObject({ stop: 'routed_complete', done: 3, incomplete: [4], routedAround: [4] });
    // The migration's implementer was given the steering choice in its schema, and its answer carried the default.
    const migrate = run.agents.find((a) => a.key === 'i2:implement')!;
    expect(JSON.stringify(migrate.schema)).toContain('"enum":["true","false"]');
    const events = project.read('.leopold/events.jsonl');
    expect(events).toMatch(/"event":"signals","item":2,"values":\{"migrated":"true"\}/);
    expect(events).toMatch(/"event":"route","from":2,"to":3,"when":"migrated=true"/);
    expect(events).not.toMatch(/"event":"route","from":2,"to":4/);
    expect(project.read('.leopold/PLAN.md')).toMatch(/- \[x\] \(after: 2\) Turn the new accounts page on[\s\S]*- \[ \] \(after: 2\) Undo the schema move/);
  });

  // In `npm run test:stress` (CI runs it too); `npm test` shows the branch plan and simulate shows both.
  it.runIf(STRESS)('the worked example: the check answers migrated=true, the rollback (5) is routed around, the release gate, feedback and decision run', async () => {
    const { run, result } = await scenario({ plan: WORKED_EXAMPLE }, [
      { label: 'i7:persona:human', answers: [{ value: { name: 'Noor Haddad', role: 'Release Manager', expertise: ['release planning'], optimizesFor: ['safe releases'], rationale: 'A go/no-go call is a release manager’s.' } }] },
      {
        label: 'i7:human',
        answers: [{ value: { title: 'Release it today', class: 'reversible', charter: 'silent', decision: 'Release the migrated build today', why: 'bias to action: the checks passed', reversal: 'Roll the release back to the previous build.', summary: 'Released.' } }],
      },
    ]);
    expect(dispatched(run.agents.map((a) => a.key))).toEqual([1, 2, 3, 4, 6, 7]);
    expect(result).toMatchObject({ stop: 'routed_complete', done: 6, total: 7, incomplete: [5], routedAround: [5] });
  });
});

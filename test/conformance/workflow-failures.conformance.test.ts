import { beforeAll, describe, expect, it } from 'vitest';
import { clientJournal } from '../../runtime/scripted-model/index.js';
import { HANDOFF, workflowSuite } from './workflow-scenario.js';

// Agents that fail in the real client: a failed verification, invalid structured answers,
// an agent that gives no answer (not for an API error: the client refused its structured
// answers). One run of a four-item plan holds them, one per item (each failure is over,
// the streak reset, before the next item starts), and is also run in the stand-in with the
// same answers (workflow-scenario.ts): the same agents, result and files. An agent that
// dies on an API error stops the run `api_error` (workflow-api-error.conformance.test.ts),
// so no item here scripts one.

const { scenario } = workflowSuite();

const PLAN = [
  '# Plan',
  '',
  '- [ ] Write the greeting module',
  '- [ ] (after: 1) Parse the name option',
  '- [ ] (after: 2) Document the greeting',
  '- [ ] (after: 3) Add the farewell module',
  '',
].join('\n');

const tests = (result: string, summary: string) => [{ command: 'npm test', result, summary }];
const invalid = { invalid: { status: 'finished' } };

let outcome: Awaited<ReturnType<typeof scenario>>;
beforeAll(async () => {
  outcome = await scenario({ plan: PLAN }, [
    // Item 1: its verification fails once, then passes.
    { label: 'i1:verify', answers: [{ value: { verdict: 'fail', tests_run: tests('fail', '1 failing'), evidence: 'greet() drops the name' } }, { value: { verdict: 'pass', tests_run: tests('pass', 'ok'), evidence: 'fixed' } }] },
    // Item 2: one invalid structured answer, then a valid one.
    { label: 'i2:implement', once: true, answers: [invalid, { value: HANDOFF }] },
    // Item 3: done at once (the API-error death it once scripted stops the run now).
    // Item 4: five invalid structured answers, all the client allows.
    { label: 'i4:implement', once: true, answers: Array.from({ length: 5 }, () => invalid) },
  ]);
}, 240_000);

describe('the compiled workflow in the real client: failing agents', () => {
  it('finishes the plan whatever its agents did', () => {
    expect(outcome.result.stop).toBe('plan_complete');
  });

  it('recovers from a failed verification: the item is implemented again and verified', () => {
    expect(outcome.project.read('.leopold/events.jsonl')).toMatch(/"event":"failure","item":1,"kind":"verification"/);
    expect(outcome.run.agents.filter((agent) => agent.key === 'i1:verify')).toHaveLength(2);
  });

  it('retries an invalid structured answer: the client refuses it and the next answer is used', () => {
    const implement = outcome.run.log.filter((entry) => entry.key === 'i2:implement');
    expect(implement.map((entry) => entry.attempt)).toEqual([1, 2]);
  });

  it('gives an agent 5 structured answers in all, then agent() throws and the attempt counts as failed', () => {
    expect(outcome.run.agents.find((agent) => agent.key === 'i4:implement')?.attempts).toBe(5);
    // The client marks that agent failed; the loop asks the implementer once more (its first fix round).
    const journal = clientJournal(outcome.run.client).agents;
    const at = journal.findIndex((agent) => agent.label === 'i4:implement');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(journal[at]?.state).not.toBe('done');
    // The null is looked into through the scribe first: no API error explains it (no StopFailure fired), so the run goes on.
    expect(journal[at + 1]).toMatchObject({ label: 'scribe' });
    expect(journal[at + 2]).toMatchObject({ label: 'i4:fix:1' });
    const events = outcome.project.read('.leopold/events.jsonl');
    expect(events).toMatch(/"event":"no-answer","item":4,"agents":\["i4:implement"\]/);
    expect(events).not.toMatch(/"event":"api-error"/);
  });
});

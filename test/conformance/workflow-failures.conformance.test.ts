import { describe, expect, it } from 'vitest';
import { clientJournal } from '../../runtime/scripted-model/index.js';
import { TWO_ITEMS, HANDOFF, workflowSuite } from './workflow-scenario.js';

// Agents that fail in the real client: a failed verification, invalid structured answers,
// a dead agent; each also run in the stand-in (workflow-scenario.ts).

const { scenario } = workflowSuite();

describe('the compiled workflow in the real client: failing agents', () => {
  it('recovers from a failed verification: the item is implemented again and verified', async () => {
    const { result, project } = await scenario({ plan: TWO_ITEMS }, [
      { label: 'i1:verify', answers: [{ value: { verdict: 'fail', tests_run: [{ command: 'npm test', result: 'fail', summary: '1 failing' }], evidence: 'greet() drops the name' } }, { value: { verdict: 'pass', tests_run: [{ command: 'npm test', result: 'pass', summary: 'ok' }], evidence: 'fixed' } }] },
    ]);
    expect(result.stop).toBe('plan_complete');
    expect(project.read('.leopold/events.jsonl')).toMatch(/"event":"failure","item":1,"kind":"verification"/);
  });

  it('retries an invalid structured answer: the client refuses it and the next answer is used', async () => {
    const { run, result } = await scenario({ plan: TWO_ITEMS }, [{ label: 'i1:implement', once: true, answers: [{ invalid: { status: 'finished' } }, { value: HANDOFF }] }]);
    expect(result.stop).toBe('plan_complete');
    const implement = run.log.filter((entry) => entry.key === 'i1:implement');
    expect(implement.map((entry) => entry.attempt)).toEqual([1, 2]);
  });

  it('survives a dead agent: the client gives up on the API error, agent() is null, and the verifier is asked again', async () => {
    const { run, result } = await scenario({ plan: TWO_ITEMS }, [{ label: 'i1:verify', once: true, answers: [{ die: true }] }]);
    expect(result.stop).toBe('plan_complete');
    const verifiers = run.agents.filter((agent) => agent.key === 'i1:verify');
    expect(verifiers).toHaveLength(2);
    // The first verifier's requests all got the scripted API error; the second one answered.
    const replies = run.log.filter((entry) => entry.key === 'i1:verify').map((entry) => entry.reply.split(' ')[0]);
    expect(replies.at(-1)).toBe('StructuredOutput');
    expect(replies.slice(0, -1).every((reply) => reply === 'error')).toBe(true);
  });

  it('gives an agent 5 structured answers in all, then agent() throws and the attempt counts as failed', async () => {
    const invalid = Array.from({ length: 5 }, () => ({ invalid: { status: 'finished' } }));
    const { run, result } = await scenario({ plan: TWO_ITEMS }, [{ label: 'i1:implement', once: true, answers: invalid }]);
    expect(result.stop).toBe('plan_complete');
    expect(run.agents.find((agent) => agent.key === 'i1:implement')?.attempts).toBe(5);
    // The client marks that agent failed; the loop asks the implementer once more (its first fix round).
    const journal = clientJournal(run.client).agents;
    expect(journal[0]).toMatchObject({ label: 'i1:implement' });
    expect(journal[0]?.state).not.toBe('done');
    expect(journal[1]).toMatchObject({ label: 'i1:fix:1' });
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKFLOW_TOOLS, projectFixtures, runReal } from './harness.js';
import { BY_SCRIPT_PATH, launch } from './workflow-scenario.js';

// What a workflow sees when the model server answers a workflow subagent with an HTTP
// error (docs/host.md, "A workflow agent on an API error"): the scripted model answers
// every request of item 1's first implementer with the status; the client retries
// (CLAUDE_CODE_MAX_RETRIES=2 keeps it short), gives up, and agent() resolves to null. The
// project's settings also log every SubagentStart/SubagentStop/StopFailure hook input, to
// pin which hooks fire in the main session.

const fixtures = projectFixtures();
const PLAN = '# Plan\n\n- [ ] Write the greeting module\n';
const RETRIES = 2;

describe.each([
  [529, 'server_error'],
  [401, 'authentication_failed'],
])('a workflow agent whose requests get HTTP %i', (status, error) => {
  it(`is retried ${RETRIES} times, then agent() is null and the run goes on; StopFailure fires (error ${error}) for the subagent, SubagentStop does not, and Leopold logs it without ending the run`, async () => {
    const p = fixtures.project({ plan: PLAN });
    expect(p.leopold(['compile']).code).toBe(0);
    const log = join(p.dir, '..', 'hooks.log');
    const settingsPath = join(p.dir, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as { hooks: Record<string, unknown[]> };
    const tap = { hooks: [{ type: 'command', command: `(cat; echo) >> '${log}'` }] };
    for (const name of ['SubagentStart', 'SubagentStop', 'StopFailure']) settings.hooks[name] = [...(settings.hooks[name] ?? []), tap];
    writeFileSync(settingsPath, JSON.stringify(settings, null, 2));

    const script = { ...launch(BY_SCRIPT_PATH), agents: [{ label: 'i1:implement', answers: [{ die: true, status }] }] };
    const run = await runReal(p, { prompt: 'Run the Leopold workflow.', script, allowedTools: WORKFLOW_TOOLS, env: { CLAUDE_CODE_MAX_RETRIES: String(RETRIES) } });
    expect(run.client.timedOut).toBe(false);

    // The first request and RETRIES retries, all refused; then the loop's next agent (the fix round) answers.
    const implement = run.log.filter((entry) => entry.key === 'i1:implement');
    expect(implement.map((entry) => entry.reply)).toEqual(Array.from({ length: RETRIES + 1 }, () => `error ${status}`));
    expect(run.agents.map((agent) => agent.key).slice(0, 2)).toEqual(['i1:implement', 'i1:fix:1']);
    expect(run.results[0]).toMatchObject({ stop: 'plan_complete', done: 1 });

    const hooks = readFileSync(log, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
    const failed = hooks.filter((h) => h.hook_event_name === 'StopFailure');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ agent_type: 'workflow-subagent', error });
    const dead = failed[0]!.agent_id;
    expect(hooks.filter((h) => h.hook_event_name === 'SubagentStart' && h.agent_id === dead)).toHaveLength(1);
    expect(hooks.filter((h) => h.hook_event_name === 'SubagentStop' && h.agent_id === dead)).toEqual([]);

    // Leopold's StopFailure hook logs the workflow agent's API error and ends session runs only:
    // the workflow run finished as its result says.
    const events = p.read('.leopold/events.jsonl').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.filter((e) => e.event === 'api-error')).toEqual([expect.objectContaining({ engine: 'workflow', error, agent: dead })]);
    expect(events.filter((e) => e.event === 'stop').map((e) => e.reason)).toEqual(['plan_complete']);
    expect(JSON.parse(p.read('.leopold/state.json'))).toMatchObject({ active: false, stop_reason: 'plan_complete' });
  }, 300_000);
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKFLOW_TOOLS, projectFixtures, runReal } from './harness.js';
import { BY_SCRIPT_PATH, launch } from './workflow-scenario.js';
import { apiErrorDetail, apiErrorResume } from '../../runtime/api-error/index.js';

// What a workflow does when the model server answers a workflow subagent with an HTTP
// error (docs/host.md, "A workflow agent on an API error"): the scripted model answers
// every request of item 1's first implementer with the status; the client retries
// (CLAUDE_CODE_MAX_RETRIES=2 keeps it short), gives up, fires StopFailure in the main
// session and resolves agent() to null. Leopold's StopFailure hook keeps the error in
// state.json; the script's check after the null (a scribe call) learns it from `leopold
// record`'s ack, at once or (when the detached hook lands after that ack) at the item's
// next scribe call, and the run stops `api_error`; `leopold run finish --reason api_error`
// ends it with the error and the resume hint. The project's settings also log every
// SubagentStart/SubagentStop/StopFailure hook input, to pin which hooks fire.

const fixtures = projectFixtures();
const PLAN = '# Plan\n\n- [ ] Write the greeting module\n- [ ] Document the greeting\n';
const RETRIES = 2;

describe.each([
  [529, 'server_error', true],
  [401, 'authentication_failed', false],
])('a workflow agent whose requests get HTTP %i', (status, error, retryable) => {
  it(`is retried ${RETRIES} times, then agent() is null; StopFailure fires (error ${error}) for the subagent, SubagentStop does not; the workflow run stops api_error with the error and how to resume`, async () => {
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

    // The first request and RETRIES retries, all refused; then the script looks into the null through its scribe.
    const implement = run.log.filter((entry) => entry.key === 'i1:implement');
    expect(implement.map((entry) => entry.reply)).toEqual(Array.from({ length: RETRIES + 1 }, () => `error ${status}`));
    expect(run.agents.map((agent) => agent.key).slice(0, 2)).toEqual(['i1:implement', 'scribe']);
    // The run stopped on the error: item 2 never started, and no final review ran.
    expect(run.agents.map((agent) => agent.key)).not.toContain('i2:implement');
    expect(run.agents.map((agent) => agent.key)).not.toContain('final:review');
    const detail = apiErrorDetail(error, 'an agent');
    expect(run.results[0]).toMatchObject({ stop: 'api_error', detail, total: 2 });

    const hooks = readFileSync(log, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
    const failed = hooks.filter((h) => h.hook_event_name === 'StopFailure');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ agent_type: 'workflow-subagent', error });
    const dead = failed[0]!.agent_id;
    expect(hooks.filter((h) => h.hook_event_name === 'SubagentStart' && h.agent_id === dead)).toHaveLength(1);
    expect(hooks.filter((h) => h.hook_event_name === 'SubagentStop' && h.agent_id === dead)).toEqual([]);

    // The hook logged the agent's error; the script's check, its stop and run finish's end follow.
    const events = p.read('.leopold/events.jsonl').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.filter((e) => e.event === 'api-error')).toEqual([expect.objectContaining({ engine: 'workflow', error, retryable, agent: dead })]);
    expect(events.filter((e) => e.event === 'no-answer')[0]).toMatchObject({ item: 1, agents: ['i1:implement'] });
    expect(events.filter((e) => e.event === 'stop')).toEqual([expect.objectContaining({ reason: 'api_error', detail, error, retryable, total: 2 })]);
    expect(events.at(-1)).toMatchObject({ event: 'finish', reason: 'api_error' });
    expect(JSON.parse(p.read('.leopold/state.json'))).toMatchObject({ active: false, stop_reason: 'api_error', api_error: { error, retryable, at: expect.any(String) } });

    // The report `leopold run finish` printed to the session: the error and how to resume.
    const finished = run.mainTexts.at(-1)!;
    expect(finished).toContain('Leopold run ended: api_error');
    expect(finished).toContain(detail.slice(0, 60));
    expect(finished).toContain(apiErrorResume(error, 'workflow'));
    expect(finished).toContain('resume with /leopold-workflow');
    // run status says it too, from state.json.
    const shown = p.leopold(['run', 'status']).stdout;
    expect(shown).toContain(`API error: ${detail}`);
    expect(shown).toContain(`Resume: ${apiErrorResume(error, 'workflow')}`);
  }, 300_000);
});

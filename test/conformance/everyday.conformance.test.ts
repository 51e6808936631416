import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_CLI, PROJECT_CLI_RULE } from '../../runtime/project-cli/index.js';
import { sandboxAvailability } from '../../runtime/lock/sandbox.js';
import { projectFixtures, runReal, type Project, type RealRun } from './harness.js';

// The everyday run in the real client: /leopold-status and /leopold-stop typed mid-run, a
// second session that must not drive the run, a takeover, and a turn that dies on an API
// error (the scripted model answers 529; the client's retries are off so it gives up at
// once and fires StopFailure).

const fixtures = projectFixtures();
const PLAN = '# Plan\n\n- [ ] Write the greeting module\n- [ ] (after: 1) Document the greeting\n- [ ] (after: 2) Add a changelog entry\n';
const events = (p: Project) => p.read('.leopold/events.jsonl').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
const state = (p: Project) => JSON.parse(p.read('.leopold/state.json')) as Record<string, unknown>;
/** What the client showed the user from the hooks (`Stop says: …`, one line per line of a systemMessage). */
const hookNotices = (run: RealRun) =>
  run.client.events.filter((e) => e.type === 'system' && e.subtype === 'informational').map((e) => String(e.content ?? ''));
const mainAnswers = (run: RealRun) => run.log.filter((entry) => entry.thread === 'main');

describe('the everyday run in the real client', () => {
  it('mid-run, /leopold-status in a second session shows the run and leaves it alone; /leopold-stop in the owning session stops it', async () => {
    const p = fixtures.project({ plan: PLAN });
    const owner = randomUUID();
    // Session `owner` started the run (its commands carry its id) and item 1 is done.
    expect(p.leopold(['run', 'start'], undefined, { CLAUDE_CODE_SESSION_ID: owner }).code).toBe(0);
    expect(p.leopold(['plan', 'tick', '1', '--unverified']).code).toBe(0); // the user ticks it by hand
    const before = p.read('.leopold/state.json');

    // Another session: the skill's `!` line ran `leopold run status` before the model read it.
    const second = await runReal(p, { prompt: '/leopold-status', script: { main: [{ text: 'The run is active, 1 of 3 items done, conducted by another session.' }] } });
    expect(second.client.timedOut).toBe(false);
    expect(second.mainTexts[0]).toContain('Run: active · engine session');
    expect(second.mainTexts[0]).toContain(`Owner: session ${owner} (started the run,`);
    // Its stop was its own: one answer, no item handed out, the run's state untouched, told once.
    expect(mainAnswers(second).map((entry) => entry.key)).toEqual(['start']);
    expect(p.read('.leopold/state.json')).toBe(before);
    expect(events(p).filter((e) => e.event === 'turn')).toEqual([]);
    expect(hookNotices(second).join('\n')).toMatch(/conducted by another Claude Code session .*run takeover/);

    // The owning session, mid-run: the user types /leopold-stop.
    const stopping = await runReal(p, { prompt: '/leopold-stop', extraArgs: ['--session-id', owner], script: { main: [{ text: 'Stopping the run.' }] } });
    expect(stopping.client.timedOut).toBe(false);
    const sandboxed = sandboxAvailability().available;
    // Inside Claude's sandbox .leopold/STOP is read-only: the stop is requested and the Stop hook raises it.
    expect(stopping.mainTexts[0]).toMatch(sandboxed ? /Stop requested \(\.leopold\/stop-request\)/ : /Kill switch raised: \.leopold\/STOP/);
    expect(existsSync(join(p.dir, '.leopold', 'STOP'))).toBe(true);
    expect(existsSync(join(p.dir, '.leopold', 'stop-request'))).toBe(false);
    expect(state(p)).toMatchObject({ active: false, stop_reason: 'kill_switch' });
    expect(events(p).find((e) => e.event === 'stop')).toMatchObject({ reason: 'kill_switch', done: 1, total: 3 });
    if (sandboxed) expect(events(p)).toContainEqual(expect.objectContaining({ event: 'kill_switch', via: 'stop-request', session: owner }));
    expect(hookNotices(stopping).join('\n')).toMatch(/Leopold run ended: kill_switch/);
    expect(mainAnswers(stopping)).toHaveLength(1);
  });

  it('a run whose session is gone is handed over with run takeover, and /leopold-run in the new session conducts it to the end', async () => {
    const p = fixtures.project({ plan: PLAN });
    const gone = randomUUID();
    expect(p.leopold(['run', 'start'], undefined, { CLAUDE_CODE_SESSION_ID: gone }).code).toBe(0);
    const takeover = p.leopold(['run', 'takeover']);
    expect(takeover.stdout).toMatch(/^Run handed over: from session \S+ to the next Claude Code session whose turn ends\./);
    const script = { main: [{ tool: 'Bash', input: { command: `${PROJECT_CLI} run status` } }, { text: 'Continuing the active run.' }] };
    const run = await runReal(p, { prompt: '/leopold-run', script, allowedTools: PROJECT_CLI_RULE });
    expect(run.client.timedOut).toBe(false);
    expect(p.read('.leopold/PLAN.md')).toBe(PLAN.replace(/- \[ \]/g, '- [x]'));
    const log = events(p);
    expect(log.find((e) => e.event === 'takeover')).toMatchObject({ from: gone, to: null });
    const claimed = log.find((e) => e.event === 'owner');
    expect(claimed).toMatchObject({ via: 'claim' });
    expect(claimed!.session).not.toBe(gone);
    expect(log.find((e) => e.event === 'stop')).toMatchObject({ reason: 'plan_complete' });
  });

  it('a turn that dies on an API error (HTTP 529) ends the run api_error, retryable, and run status says how to resume', async () => {
    const p = fixtures.project({ plan: PLAN, files: { '.leopold/ALLOW_GIT': 'Granted by leopold run allow git.\n' } });
    const script = {
      main: [{ tool: 'Bash', input: { command: `${PROJECT_CLI} run start` } }, { text: 'started' }],
      session: [{ item: 1, turns: [[{ error: { status: 529, message: 'Overloaded' } }]] }],
    };
    const run = await runReal(p, { prompt: 'Start the Leopold run.', script, allowedTools: PROJECT_CLI_RULE, env: { CLAUDE_CODE_MAX_RETRIES: '0' } });
    expect(run.client.timedOut).toBe(false);
    const result = run.client.events.find((e) => e.type === 'result');
    expect(result).toMatchObject({ is_error: true, api_error_status: 529 });
    // The hook runs detached from the client, which exits at once after the failed turn: wait for its last
    // write, the grants taken back (state.json turns inactive before its events land). A ceiling, not a measure.
    for (let waited = 0; !events(p).some((e) => e.event === 'grants-cleared') && waited < 60_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    expect(state(p)).toMatchObject({ active: false, stop_reason: 'api_error', api_error: { error: 'server_error', retryable: true } });
    const log = events(p);
    expect(log.find((e) => e.event === 'api-error')).toMatchObject({ error: 'server_error', retryable: true });
    expect(log.find((e) => e.event === 'stop')).toMatchObject({ reason: 'api_error', done: 0, total: 3, engine: 'session' });
    expect(log.filter((e) => e.event === 'turn')).toHaveLength(1);
    // The grant was for this run: taken back.
    expect(existsSync(join(p.dir, '.leopold', 'ALLOW_GIT'))).toBe(false);
    const status = p.leopold(['run', 'status']);
    expect(status.stdout).toMatch(/^API error: a turn died on an API error: server_error: .*A retry can help\.$/m);
    expect(status.stdout).toMatch(/^Resume: When the API answers again, resume with \/leopold-run in Claude Code/m);
    expect(readFileSync(join(p.dir, '.leopold', 'PLAN.md'), 'utf8')).toBe(PLAN);
  });
});

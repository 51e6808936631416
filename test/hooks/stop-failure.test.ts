import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtHook } from '../support/built-dist.js';
import { webhookServer } from '../support/webhook-server.js';

// The BUILT StopFailure hook (`node dist/hooks/stop-failure.js`, and `leopold hook
// stop-failure`) with the input Claude Code 2.1.332 sends when an API error ends a turn:
// the owning session's run ends `api_error` with the kind and whether a retry helps, the
// stop event and the report, the grants taken back; anything else is left alone.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-stop-failure-')));
let bins: Record<string, string[]> = {};

beforeAll(async () => {
  bins = await builtHook(work, 'stop-failure');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const STARTED = '2020-01-01T00:00:00.000Z';
const RUN = { version: 1, active: true, engine: 'session', started_at: STARTED, iteration: 3, owner: { session: 'session-a', since: STARTED, via: 'start' } };
const PLAN = '# Plan\n\n- [x] First thing\n- [ ] Second thing\n- [ ] Third thing\n';

let n = 0;
function project(state: Record<string, unknown> = RUN, files: Record<string, string> = {}): string {
  const dir = join(work, `p${n++}`);
  mkdirSync(join(dir, '.leopold'), { recursive: true });
  writeFileSync(join(dir, '.leopold', 'state.json'), JSON.stringify(state));
  writeFileSync(join(dir, '.leopold', 'PLAN.md'), PLAN);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, '.leopold', name), text);
  return dir;
}

/** What the client sends (verbatim keys, measured): session_id, transcript_path, cwd, prompt_id, hook_event_name, error, last_assistant_message. */
const failure = (dir: string, error: string, session = 'session-a', event = 'StopFailure') =>
  JSON.stringify({
    session_id: session,
    transcript_path: join(dir, 't.jsonl'),
    cwd: dir,
    prompt_id: 'p1',
    hook_event_name: event,
    error,
    last_assistant_message: 'API Error: 529 overloaded. This is a server-side issue, usually temporary.',
  });

// Async: a test's webhook server answers in this process while the hook runs.
function run(bin: string, stdin: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CLAUDE_PROJECT_DIR;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, bins[bin]!, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const stateText = (dir: string) => readFileSync(join(dir, '.leopold', 'state.json'), 'utf8');
const eventsOf = (dir: string) =>
  existsSync(join(dir, '.leopold', 'events.jsonl'))
    ? readFileSync(join(dir, '.leopold', 'events.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];

describe.each(['dist/hooks/stop-failure.js', 'dist/leopold.js hook stop-failure'])('%s', (bin) => {
  it("a transient error in the owner's turn: the run ends api_error, retryable, with the stop event, the report and how to resume", async () => {
    const dir = project(RUN, { 'ALLOW_GIT': 'Granted by leopold run allow git.\n' });
    const out = await run(bin, failure(dir, 'server_error'), dir);
    expect(out.code).toBe(0);
    const state = JSON.parse(stateText(dir));
    expect(state).toMatchObject({ active: false, stop_reason: 'api_error', api_error: { error: 'server_error', retryable: true }, iteration: 3 });
    expect(state.finished_at).toMatch(/^\d{4}-/);
    expect(eventsOf(dir)).toMatchObject([
      { event: 'api-error', error: 'server_error', retryable: true, session: 'session-a' },
      { event: 'stop', reason: 'api_error', iteration: 3, done: 1, total: 3, engine: 'session' },
      { event: 'grants-cleared', grants: ['git'], reason: 'api_error' },
    ]);
    expect(String(eventsOf(dir)[1]!.detail)).toMatch(/^a turn died on an API error: server_error: .*A retry can help\.$/);
    // The grant was for this run: gone, so the resumed run starts with git locked.
    expect(existsSync(join(dir, '.leopold', 'ALLOW_GIT'))).toBe(false);
    const message = (JSON.parse(out.stdout) as { systemMessage: string }).systemMessage;
    expect(message).toMatch(/^Leopold run ended: api_error\nEngine: session · iterations: 3 /);
    expect(message).toContain('Plan: 1/3 items done');
    expect(message).toContain('Remaining: 2 ("Second thing"), 3 ("Third thing")');
    expect(message).toMatch(/When the API answers again, resume with \/leopold-run in Claude Code/);
    expect(message).toContain('git grants were taken back (git)');
  });

  it('an error a retry cannot fix says what to fix first, and is not retryable', async () => {
    const dir = project();
    const out = await run(bin, failure(dir, 'authentication_failed'), dir);
    expect(JSON.parse(stateText(dir))).toMatchObject({ stop_reason: 'api_error', api_error: { error: 'authentication_failed', retryable: false } });
    const message = (JSON.parse(out.stdout) as { systemMessage: string }).systemMessage;
    expect(message).toMatch(/log in again .*A retry alone will not help\./);
    expect(message).toMatch(/Once that is fixed, resume with \/leopold-run/);
  });

  it('an unknown kind, or none at all, counts as lasting', async () => {
    const dir = project();
    await run(bin, failure(dir, ''), dir);
    expect(JSON.parse(stateText(dir))).toMatchObject({ stop_reason: 'api_error', api_error: { error: 'unknown', retryable: false } });
  });

  it("another session's failed turn, a workflow run, no run, another event or garbage: nothing is written", async () => {
    const cases: [Record<string, unknown> | null, string][] = [
      [RUN, failure('', 'rate_limit', 'session-b')],
      [{ ...RUN, engine: 'workflow' }, failure('', 'rate_limit')],
      [{ ...RUN, active: false }, failure('', 'rate_limit')],
      [RUN, failure('', 'rate_limit', 'session-a', 'Stop')],
      [RUN, 'not json'],
    ];
    for (const [state, stdin] of cases) {
      const dir = project(state ?? RUN);
      const before = stateText(dir);
      const out = await run(bin, stdin.replace('"cwd":""', `"cwd":${JSON.stringify(dir)}`), dir);
      expect(out).toMatchObject({ code: 0, stdout: '' });
      expect(stateText(dir)).toBe(before);
      expect(eventsOf(dir)).toEqual([]);
    }
  });

  it("a workflow agent's failed turn (measured: agent_type workflow-subagent) is kept in the workflow run's state.json (the first one) and logged; it never ends a run itself", async () => {
    const agent = (dir: string, error: string) => JSON.stringify({ ...JSON.parse(failure(dir, error)), agent_id: 'a1b2', agent_type: 'workflow-subagent' });
    const workflow = project({ ...RUN, engine: 'workflow' });
    const before = JSON.parse(stateText(workflow)) as Record<string, unknown>;
    const out = await run(bin, agent(workflow, 'rate_limit'), workflow);
    expect(out).toMatchObject({ code: 0, stdout: '' });
    // Still active (the script ends it): only `api_error` is new, for `leopold record` to report to the script.
    const after = JSON.parse(stateText(workflow)) as Record<string, unknown>;
    expect(after).toMatchObject({ ...before, active: true, stop_reason: null, api_error: { error: 'rate_limit', retryable: true, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) } });
    expect(eventsOf(workflow)).toMatchObject([{ event: 'api-error', engine: 'workflow', error: 'rate_limit', retryable: true, agent: 'a1b2' }]);
    // A second agent's error is logged; the first stays the run's.
    expect(await run(bin, agent(workflow, 'authentication_failed'), workflow)).toMatchObject({ code: 0, stdout: '' });
    expect(JSON.parse(stateText(workflow))).toEqual(after);
    expect(eventsOf(workflow).map((e) => e.error)).toEqual(['rate_limit', 'authentication_failed']);
    // The same input on the owner's session run (its session id is the main session's): the session run goes on.
    const session = project();
    const kept = stateText(session);
    expect(await run(bin, agent(session, 'server_error'), session)).toMatchObject({ code: 0, stdout: '' });
    expect(stateText(session)).toBe(kept);
    expect(eventsOf(session)).toEqual([]);
  });

  it('posts the report to notify_webhook like every end of a run', async () => {
    const server = await webhookServer();
    try {
      const dir = project(RUN, { 'GUARDRAILS.md': `- notify_webhook: ${server.url}\n` });
      await run(bin, failure(dir, 'rate_limit'), dir);
      expect(server.received).toHaveLength(1);
      expect(JSON.parse(server.received[0]!.body)).toMatchObject({ title: 'Leopold run ended: api_error' });
      expect(eventsOf(dir).at(-1)).toMatchObject({ event: 'notify', ok: true });
    } finally {
      await server.close();
    }
  });
});

describe('dist/hooks/stop-failure.js and the run lock', () => {
  it('a grant given for the run is taken back in the armed lock too: the refs are read-only for the next run', async () => {
    const dir = project({ version: 1, active: false });
    execFileSync('git', ['init', '-q', dir]);
    const cli = (...args: string[]) => spawnSync(process.execPath, [bins['dist/leopold.js hook stop-failure']![0]!, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, CLAUDECODE: '', CLAUDE_CODE_SESSION_ID: 'session-a' } });
    expect(cli('run', 'start').status).toBe(0);
    expect(cli('run', 'allow', 'git').status).toBe(0);
    const denied = () => (JSON.parse(readFileSync(join(dir, '.claude', 'settings.local.json'), 'utf8')) as { sandbox: { filesystem: { denyWrite: string[] } } }).sandbox.filesystem.denyWrite;
    expect(denied()).not.toContain(join(dir, '.git', 'refs'));
    await run('dist/hooks/stop-failure.js', failure(dir, 'rate_limit'), dir);
    expect(JSON.parse(readFileSync(join(dir, '.leopold', 'lock.json'), 'utf8'))).toMatchObject({ grants: [] });
    expect(denied()).toContain(join(dir, '.git', 'refs'));
    expect(existsSync(join(dir, '.leopold', 'ALLOW_GIT'))).toBe(false);
  });
});

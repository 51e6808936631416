import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtHook } from '../support/built-dist.js';
import { blockOf, messageOf } from '../support/stop-output.js';
import { webhookServer, webhookServers } from '../support/webhook-server.js';

// notify_webhook end to end: the BUILT `leopold run finish` and Stop hook POST the final
// report to a real HTTP server on 127.0.0.1. Spawned asynchronously: the server answers
// from this process's event loop, which spawnSync would block.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-notify-')));
let bins: Record<string, string[]> = {};
beforeAll(async () => {
  bins = await builtHook(work, 'stop');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const server = webhookServers();

const SECRET_DECISION = [
  '# Decisions',
  '',
  '## D1 — Deploy with the token ghp_0123456789abcdefghijABCDEFGHIJ   (turn 1, 2999-01-01T00:00:00Z)',
  'Fork:        escalation — item 1',
  'Class:       reversible',
  'Charter:     silent',
  'Decision:    Use password=hunter2 for the staging database.',
  'Why:         bias to action',
  // The block lists the decision and the Reversal: the token there must reach no webhook.
  'Reversal:    Rotate the credentials, starting with ghp_0123456789abcdefghijABCDEFGHIJ.',
  '',
].join('\n');

let n = 0;
function project(webhook: string, options: { plan: string; state?: unknown }): string {
  const dir = join(work, `p${n++}`);
  mkdirSync(join(dir, '.leopold'), { recursive: true });
  writeFileSync(join(dir, '.leopold', 'PLAN.md'), options.plan);
  writeFileSync(join(dir, '.leopold', 'GUARDRAILS.md'), `# Guardrails\n\n- notify_webhook: ${webhook}\n`);
  writeFileSync(join(dir, '.leopold', 'DECISIONS.md'), SECRET_DECISION);
  if (options.state !== undefined) writeFileSync(join(dir, '.leopold', 'state.json'), JSON.stringify(options.state));
  return dir;
}

function run(argv: string[], cwd: string, stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, LEOPOLD_AUTONOMY: '' };
  delete env.CLAUDE_PROJECT_DIR;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
const leopold = (cwd: string, args: string[]) => run([bins['dist/leopold.js hook stop']![0]!, ...args], cwd);
const eventsOf = (dir: string) =>
  readFileSync(join(dir, '.leopold', 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

function expectMasked(text: string) {
  expect(text).not.toContain('hunter2');
  expect(text).not.toContain('ghp_0123456789');
  expect(text).toContain('ghp_***');
  expect(text).toContain('password=***');
}

describe('notify_webhook: leopold run finish', () => {
  it('POSTs { title, body } with What I decided for you, secrets masked, and records a notify event', async () => {
    const hook = await server({ status: 200 });
    const dir = project(hook.url, { plan: '- [x] one\n- [ ] two\n' });
    expect((await leopold(dir, ['run', 'start'])).code).toBe(0);
    const finish = await leopold(dir, ['run', 'finish', '--reason', 'routed_complete']);
    expect(finish.code).toBe(0);
    expect(finish.stderr).toBe('');
    expect(finish.stdout).toMatch(/^Leopold run ended: routed_complete/);

    expect(hook.received).toHaveLength(1);
    const request = hook.received[0]!;
    expect(request).toMatchObject({ method: 'POST', url: '/hook', headers: { 'content-type': 'application/json' } });
    const payload = JSON.parse(request.body) as { title: string; body: string };
    expect(Object.keys(payload).sort()).toEqual(['body', 'title']);
    expect(payload.title).toBe('Leopold run ended: routed_complete');
    expect(payload.body).toMatch(/^Leopold run ended: routed_complete\n/);
    expect(payload.body).toContain('Plan: 1/2 items done');
    expect(payload.body).toContain('What I decided for you');
    expectMasked(payload.body);
    // stdout is the user's own terminal: the summary there is not masked.
    expect(finish.stdout).toContain('hunter2');
    expect(eventsOf(dir).map((e) => e.event)).toEqual(['start', 'finish', 'notify']);
    expect(eventsOf(dir).at(-1)).toMatchObject({ event: 'notify', ok: true, status: 200 });
  });

  it('a server that never answers: run finish still ends the run and exits 0, saying the report was not delivered', async () => {
    const hook = await server('hang');
    const dir = project(hook.url, { plan: '- [x] one\n' });
    await leopold(dir, ['run', 'start']);
    const finish = await leopold(dir, ['run', 'finish']);
    expect(finish.code).toBe(0);
    expect(finish.stdout).toMatch(/^Leopold run ended/);
    expect(finish.stderr).toMatch(/notify_webhook: the report was not delivered \(no answer within 3000 ms\)/);
    expect(hook.received).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, '.leopold', 'state.json'), 'utf8'))).toMatchObject({ active: false });
    expect(eventsOf(dir).at(-1)).toEqual({ ts: expect.any(String), event: 'notify', ok: false, error: 'no answer within 3000 ms' });
  });

  it('notify_webhook: none posts nothing and records no notify event', async () => {
    const dir = project('none', { plan: '- [x] one\n' });
    await leopold(dir, ['run', 'start']);
    const finish = await leopold(dir, ['run', 'finish']);
    expect(finish.code).toBe(0);
    expect(eventsOf(dir).map((e) => e.event)).toEqual(['start', 'finish']);
  });
});

const ACTIVE = { version: 1, active: true, engine: 'session', started_at: '2020-01-01T00:00:00.000Z' };
const stopInput = (cwd: string) =>
  JSON.stringify({ session_id: 's1', transcript_path: join(cwd, 'transcript.jsonl'), cwd, hook_event_name: 'Stop', stop_hook_active: false, background_tasks: [] });

describe('notify_webhook: the Stop hook (dist/hooks/stop.js)', () => {
  const stopHook = () => bins['dist/hooks/stop.js']!;

  it('posts the final message at a stop condition, masked, and records a notify event', async () => {
    const hook = await server({ status: 202 });
    const dir = project(hook.url, { plan: '- [x] First thing\n- [x] Second thing\n', state: ACTIVE });
    const out = await run(stopHook(), work, stopInput(dir));
    expect(out.code).toBe(0);
    const message = messageOf({ ...out, status: out.code });
    expect(message).toMatch(/^Leopold run ended: plan_complete/);
    expect(hook.received).toHaveLength(1);
    const payload = JSON.parse(hook.received[0]!.body) as { title: string; body: string };
    expect(payload.title).toBe('Leopold run ended: plan_complete');
    expect(payload.body).toContain('What I decided for you');
    expectMasked(payload.body);
    expect(eventsOf(dir).slice(-2)).toMatchObject([
      { event: 'stop', reason: 'plan_complete' },
      { event: 'notify', ok: true, status: 202 },
    ]);
  });

  it('never posts on a block (the run goes on)', async () => {
    const hook = await server();
    const dir = project(hook.url, { plan: '- [ ] First thing\n', state: ACTIVE });
    const out = await run(stopHook(), work, stopInput(dir));
    expect(blockOf({ ...out, status: out.code })).toMatch(/Work on item 1 now/);
    expect(hook.received).toHaveLength(0);
  });

  it('a hanging or refusing webhook: the hook still prints its answer and exits 0, bounded', async () => {
    const hang = await server('hang');
    const dir = project(hang.url, { plan: '- [x] First thing\n', state: ACTIVE });
    const out = await run(stopHook(), work, stopInput(dir));
    expect(out.code).toBe(0);
    expect(messageOf({ ...out, status: out.code })).toMatch(/^Leopold run ended: plan_complete/);
    expect(eventsOf(dir).at(-1)).toMatchObject({ event: 'notify', ok: false, error: 'no answer within 3000 ms' });

    const gone = await webhookServer();
    await gone.close();
    const refused = project(gone.url, { plan: '- [x] First thing\n', state: ACTIVE });
    const answer = await run(stopHook(), work, stopInput(refused));
    expect(answer.code).toBe(0);
    expect(messageOf({ ...answer, status: answer.code })).toMatch(/^Leopold run ended: plan_complete/);
    expect(eventsOf(refused).at(-1)).toMatchObject({ event: 'notify', ok: false, error: expect.stringMatching(/ECONNREFUSED/) });
  });
});

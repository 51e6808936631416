import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtHook } from '../support/built-dist.js';
import { blockOf, messageOf } from '../support/stop-output.js';

// One owner per session run, through the BUILT `node dist/hooks/stop.js` with real hook
// JSON: the session that owns the run is conducted, another session's stop is its own (the
// run's state untouched, told once), an unowned run is claimed by the first session whose
// turn ends, and a stop request from /leopold-stop becomes the kill switch at any
// session's Stop.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-stop-owner-')));
let hook: string[] = [];

beforeAll(async () => {
  hook = (await builtHook(work, 'stop'))['dist/hooks/stop.js']!;
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const PLAN = '# Plan\n\n- [ ] First thing\n- [ ] Second thing\n';
const STARTED = '2020-01-01T00:00:00.000Z';
const OWNED_BY_A = { version: 1, active: true, engine: 'session', started_at: STARTED, owner: { session: 'session-a', since: STARTED, via: 'start' } };

let n = 0;
function project(state: Record<string, unknown>): string {
  const dir = join(work, `p${n++}`);
  mkdirSync(join(dir, '.leopold'), { recursive: true });
  writeFileSync(join(dir, '.leopold', 'state.json'), JSON.stringify(state));
  writeFileSync(join(dir, '.leopold', 'PLAN.md'), PLAN);
  return dir;
}

function stop(dir: string, session: string | null): { stdout: string; stderr: string; status: number | null } {
  const input = { ...(session === null ? {} : { session_id: session }), cwd: dir, hook_event_name: 'Stop', stop_hook_active: false, background_tasks: [] };
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CLAUDE_PROJECT_DIR;
  delete env.LEOPOLD_AUTONOMY;
  const out = spawnSync(process.execPath, hook, { input: JSON.stringify(input), cwd: dir, encoding: 'utf8', env });
  return { stdout: out.stdout, stderr: out.stderr, status: out.status };
}

const SILENT = { stdout: '', stderr: '', status: 0 };

const stateText = (dir: string) => readFileSync(join(dir, '.leopold', 'state.json'), 'utf8');
const stateOf = (dir: string) => JSON.parse(stateText(dir)) as Record<string, unknown>;
const eventsOf = (dir: string) =>
  existsSync(join(dir, '.leopold', 'events.jsonl'))
    ? readFileSync(join(dir, '.leopold', 'events.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];

describe('one owner per run (dist/hooks/stop.js)', () => {
  it("another session's stop is its own: allowed, told once who conducts the run and how to take it over, the run's state untouched", () => {
    const dir = project(OWNED_BY_A);
    const before = stateText(dir);
    const message = messageOf(stop(dir, 'session-b'));
    expect(message).toMatch(/^Leopold: a run is active in this project, conducted by another Claude Code session \(session-a, since 2020-01-01T00:00:00\.000Z\)\. This session is not driving it/);
    expect(message).toContain('`! node_modules/.bin/leopold run takeover`');
    expect(stateText(dir)).toBe(before);
    expect(eventsOf(dir)).toMatchObject([{ event: 'bystander', session: 'session-b', owner: 'session-a' }]);
    // Once per session: its next stops say nothing, and still change nothing.
    expect(stop(dir, 'session-b')).toEqual(SILENT);
    expect(stateText(dir)).toBe(before);
    expect(eventsOf(dir)).toHaveLength(1);
    // A third session is told too.
    expect(messageOf(stop(dir, 'session-c'))).toContain('conducted by another Claude Code session');
    // The owner is conducted as ever.
    expect(blockOf(stop(dir, 'session-a'))).toMatch(/Leopold run, turn 1 of at most 50\. Work on item 1 now/);
    expect(stateOf(dir)).toMatchObject({ iteration: 1, owner: { session: 'session-a', via: 'start' } });
  });

  it('a run with no owner (started outside Claude Code) is claimed by the first session whose turn ends; then the others are bystanders', () => {
    const dir = project({ version: 1, active: true, engine: 'session', started_at: STARTED });
    expect(blockOf(stop(dir, 'session-a'))).toMatch(/item 1 now/);
    expect(stateOf(dir)).toMatchObject({ owner: { session: 'session-a', via: 'claim' }, iteration: 1 });
    expect(eventsOf(dir)[0]).toMatchObject({ event: 'owner', session: 'session-a', via: 'claim' });
    const before = stateText(dir);
    expect(messageOf(stop(dir, 'session-b'))).toContain('(session-a, since');
    expect(stateText(dir)).toBe(before);
  });

  it('a host that sends no session id cannot tell sessions apart: the run is conducted as before, and nobody claims it', () => {
    const dir = project({ version: 1, active: true, engine: 'session', started_at: STARTED });
    expect(blockOf(stop(dir, null))).toMatch(/item 1 now/);
    expect(stateOf(dir).owner ?? null).toBeNull();
  });

  it("a stop request (/leopold-stop inside Claude's sandbox) becomes the kill switch at a bystander's Stop, and the owner's run then stops", () => {
    const dir = project(OWNED_BY_A);
    writeFileSync(join(dir, '.leopold', 'stop-request'), 'Stop requested by leopold run stop.\n');
    const before = stateText(dir);
    stop(dir, 'session-b');
    expect(readFileSync(join(dir, '.leopold', 'STOP'), 'utf8')).toMatch(/^Raised by Leopold's Stop hook, on the request of leopold run stop/);
    expect(existsSync(join(dir, '.leopold', 'stop-request'))).toBe(false);
    expect(stateText(dir)).toBe(before);
    expect(eventsOf(dir)[0]).toMatchObject({ event: 'kill_switch', via: 'stop-request', session: 'session-b' });
    const summary = messageOf(stop(dir, 'session-a'));
    expect(summary).toMatch(/^Leopold run ended: kill_switch\n/);
    expect(stateOf(dir)).toMatchObject({ active: false, stop_reason: 'kill_switch' });
  });

  it('a stop request with no active run still raises the kill switch, as leopold run stop does', () => {
    const dir = project({ version: 1, active: false });
    writeFileSync(join(dir, '.leopold', 'stop-request'), 'x\n');
    expect(stop(dir, 'session-a')).toEqual(SILENT);
    expect(existsSync(join(dir, '.leopold', 'STOP'))).toBe(true);
    expect(existsSync(join(dir, '.leopold', 'stop-request'))).toBe(false);
  });

  it("after an API error ended the run, the owner's next Stop says once how to resume (the client shows nothing a StopFailure hook prints)", () => {
    const ended = { ...OWNED_BY_A, active: false, stop_reason: 'api_error', api_error: { error: 'rate_limit', retryable: true, at: STARTED } };
    const dir = project(ended);
    expect(stop(dir, 'session-b')).toEqual(SILENT);
    const message = messageOf(stop(dir, 'session-a'));
    expect(message).toMatch(/^Leopold: the run ended when a turn died on an API error \(2020-01-01T00:00:00\.000Z\): a turn died on an API error: rate_limit: .*A retry can help\. When the API answers again, resume with \/leopold-run/);
    expect(stateOf(dir)).toMatchObject({ active: false, api_error: { error: 'rate_limit', told: true } });
    expect(stop(dir, 'session-a')).toEqual(SILENT);
  });

  it('after an API error ended a workflow run, the Stop hook says nothing: run finish ended it and printed the report with the resume hint', () => {
    const ended = { ...OWNED_BY_A, engine: 'workflow', active: false, stop_reason: 'api_error', api_error: { error: 'server_error', retryable: true, at: STARTED } };
    const dir = project(ended);
    const before = stateText(dir);
    expect(stop(dir, 'session-a')).toEqual(SILENT);
    expect(stateText(dir)).toBe(before);
  });
});

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { leopoldBinary } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

// The built CLI's side of one owner per run: `run start` from a Claude Code session records
// that session as the owner, `run status` names it, `run takeover` hands the run over (to
// the session it runs in, or from a terminal to whichever session's turn ends next) and
// records it, and refuses where Claude's sandbox keeps the lock's files read-only.

let bin: string;
beforeAll(async () => {
  bin = await leopoldBinary();
});

function project(): string {
  const root = tempDir('leopold-owner-');
  mkdirSync(join(root, '.leopold'));
  writeFileSync(join(root, '.leopold', 'PLAN.md'), '- [x] one\n- [ ] two\n');
  return root;
}

/** The CLI as a terminal runs it (no session), or as a Claude Code session's command (`session`). */
function run(root: string, args: string[], session?: string, as?: 'nobody') {
  const env = { ...process.env, LEOPOLD_AUTONOMY: '', CLAUDECODE: '', CLAUDE_CODE_SESSION_ID: session ?? '' };
  const argv = as === 'nobody' ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, bin, ...args]] : [process.execPath, [bin, ...args]];
  const out = spawnSync(argv[0] as string, argv[1] as string[], { cwd: root, encoding: 'utf8', env });
  return { code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr };
}
const state = (root: string) => JSON.parse(readFileSync(join(root, '.leopold', 'state.json'), 'utf8')) as Record<string, unknown>;
const events = (root: string) =>
  readFileSync(join(root, '.leopold', 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

const setprivWorks = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', '0']).status === 0;

describe('leopold run: the owning session', () => {
  it('run start from a session records it as the owner; status names it', () => {
    const root = project();
    expect(run(root, ['run', 'start'], 'session-a').code).toBe(0);
    expect(state(root)).toMatchObject({ active: true, owner: { session: 'session-a', via: 'start' } });
    expect(events(root)[0]).toMatchObject({ event: 'start', owner: 'session-a' });
    expect(run(root, ['run', 'status']).stdout).toMatch(/^Owner: session session-a \(started the run, \d{4}-/m);
  });

  it('run start from a terminal records no owner: the first session whose turn ends claims it', () => {
    const root = project();
    expect(run(root, ['run', 'start']).code).toBe(0);
    expect(state(root).owner).toBeNull();
    expect(run(root, ['run', 'status']).stdout).toMatch(/^Owner: none yet \(the first Claude Code session whose turn ends claims it\)$/m);
  });

  it('run takeover hands the run to the session it runs in, or (from a terminal) to the next one, and records both ends', () => {
    const root = project();
    run(root, ['run', 'start'], 'session-a');
    const here = run(root, ['run', 'takeover'], 'session-b');
    expect(here.code, here.stderr).toBe(0);
    expect(here.stdout).toMatch(/^Run handed over: from session session-a to this session \(session-b\)\.\nRun \/leopold-run here to continue it\./);
    expect(state(root)).toMatchObject({ active: true, owner: { session: 'session-b', via: 'takeover' } });
    const terminal = run(root, ['run', 'takeover']);
    expect(terminal.stdout).toMatch(/^Run handed over: from session session-b to the next Claude Code session whose turn ends\./);
    expect(state(root).owner).toBeNull();
    expect(events(root).filter((e) => e.event === 'takeover')).toMatchObject([
      { from: 'session-a', to: 'session-b' },
      { from: 'session-b', to: null },
    ]);
  });

  it('run takeover with no active session run changes nothing', () => {
    const root = project();
    run(root, ['run', 'start', '--engine', 'workflow'], 'session-a');
    const before = readFileSync(join(root, '.leopold', 'state.json'), 'utf8');
    const out = run(root, ['run', 'takeover'], 'session-b');
    expect(out).toMatchObject({ code: 0, stdout: 'No active session run to take over.\n' });
    expect(readFileSync(join(root, '.leopold', 'state.json'), 'utf8')).toBe(before);
  });

  it.skipIf(!setprivWorks)("run takeover refuses where the lock's files are read-only (as in Claude's sandbox), saying who can do it", () => {
    const root = project();
    run(root, ['run', 'start'], 'session-a');
    expect(existsSync(join(root, '.leopold', 'lock.json'))).toBe(true);
    const before = readFileSync(join(root, '.leopold', 'state.json'), 'utf8');
    // As nobody, lock.json (root's, 0644) is read-only, as the sandbox makes it for Claude's commands.
    for (const dir of [dirname(bin), join(root, '..'), root]) chmodSync(dir, 0o755);
    const out = run(root, ['run', 'takeover'], 'session-b', 'nobody');
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^leopold: only you can hand the run to another session: .*Type `! node_modules\/\.bin\/leopold run takeover` in the Claude Code session that should conduct the run/);
    expect(readFileSync(join(root, '.leopold', 'state.json'), 'utf8')).toBe(before);
  });

  it('run stop outside the sandbox raises the kill switch itself', () => {
    const root = project();
    run(root, ['run', 'start'], 'session-a');
    const out = run(root, ['run', 'stop'], 'session-a');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Kill switch raised: \.leopold\/STOP\./);
    expect(readFileSync(join(root, '.leopold', 'STOP'), 'utf8')).toMatch(/^Raised by leopold run stop at /);
    expect(existsSync(join(root, '.leopold', 'stop-request'))).toBe(false);
    expect(run(root, ['run', 'stop']).stdout).toMatch(/^Kill switch already raised/);
  });
});

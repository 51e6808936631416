import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { privatePackage } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

// No file type hangs the Stop hook or `plan tick` (docs/runtime.md, "Writing and reading
// the project's files"): a FIFO (opening it would wait for a writer), a link to /dev/zero
// (endless) or a directory in the place of each file they read. The hook answers as
// docs/hooks.md says (a block, a message, or nothing: fail open); `plan tick` refuses in
// one line naming the file, exit 2, except for the items cache, which is only a cache and
// is ignored. The 120 s timeout is a bound that turns a hang into a failure, not a measure
// of time (a loaded stress run once took a directory GUARDRAILS.md past an earlier 10 s).

let bin = '';
let stopHook = '';
beforeAll(async () => {
  const pkg = await privatePackage();
  bin = join(pkg, 'dist', 'leopold.js');
  stopHook = join(pkg, 'dist', 'hooks', 'stop.js');
});

const work = tempDir('leopold-special-');
const env = { ...process.env, LEOPOLD_AUTONOMY: '', CLAUDE_CODE_SESSION_ID: '', CLAUDE_PROJECT_DIR: '' };
const PLAN = '# Plan\n\n- [ ] one\n- [ ] two\n';

const KINDS = {
  'a FIFO': (path: string) => expect(spawnSync('mkfifo', [path]).status).toBe(0),
  'a link to /dev/zero': (path: string) => symlinkSync('/dev/zero', path),
  'a directory': (path: string) => mkdirSync(path),
} as const;

/** What each kind is called in the one-line refusal. */
const REFUSAL = { 'a FIFO': 'it is a FIFO, not a regular file', 'a link to /dev/zero': 'it is a character device, not a regular file', 'a directory': 'it is a directory, not a file (EISDIR)' } as const;

let n = 0;
/**
 * A project with every file the two read present and valid (an active session run when
 * `active`, a charter, guardrails, the items cache left by a tick), then `name` replaced by `kind`.
 */
function project(name: string, kind: keyof typeof KINDS, options: { active: boolean }): string {
  const dir = join(work, `p${n++}`);
  const leo = join(dir, '.leopold');
  mkdirSync(leo, { recursive: true });
  writeFileSync(join(leo, 'PLAN.md'), PLAN);
  writeFileSync(join(leo, 'CHARTER.md'), '# Charter\n\n- Never hide money movements.\n');
  writeFileSync(join(leo, 'GUARDRAILS.md'), '- max_iterations: 20\n');
  writeFileSync(join(dir, 'transcript.jsonl'), '{"type":"user"}\n');
  if (options.active) expect(run(dir, [bin, 'run', 'start', '--engine', 'session']).status).toBe(0);
  else writeFileSync(join(leo, 'events.jsonl'), '');
  // The tick leaves the items cache behind (and, with no run, needs no receipt).
  expect(run(dir, [bin, 'plan', 'tick', '1', '--unverified']).status).toBe(0);
  expect(readFileSync(join(leo, '.PLAN.md.items.json'), 'utf8')).toMatch(/"items"/);
  rmSync(join(leo, name), { force: true });
  KINDS[kind](join(leo, name));
  return dir;
}

function run(cwd: string, argv: string[], input = '') {
  return spawnSync(process.execPath, argv, { cwd, encoding: 'utf8', env, input, timeout: 120_000 });
}

/** Answered: no timeout, no signal, no stack trace. */
function expectAnswered(out: ReturnType<typeof run>): void {
  expect(out.error, 'it did not answer within the bound').toBeUndefined();
  expect(out.signal).toBeNull();
  expect(out.stderr).not.toMatch(/internal error|\n\s+at |Error:/);
}

const HOOK_FILES = ['state.json', 'events.jsonl', 'PLAN.md', 'GUARDRAILS.md', 'CHARTER.md', '.PLAN.md.items.json'];

describe.each(Object.keys(KINDS) as (keyof typeof KINDS)[])('%s where a file is read', (kind) => {
  it.each(HOOK_FILES)(`the Stop hook answers with .leopold/%s as ${kind}`, (name) => {
    const dir = project(name, kind, { active: true });
    const input = JSON.stringify({ session_id: 's1', transcript_path: join(dir, 'transcript.jsonl'), cwd: dir, hook_event_name: 'Stop', stop_hook_active: false, background_tasks: [] });
    const out = run(dir, [stopHook], input);
    expectAnswered(out);
    // The three answers docs/hooks.md allows: a block (exit 2, the reason on stderr), a
    // message (exit 0, JSON on stdout), or nothing (exit 0: fail open, the session may stop).
    if (out.status === 2) {
      expect(out.stdout).toBe('');
      expect(out.stderr).toMatch(/^Leopold run/);
    } else {
      expect(out.status, out.stderr).toBe(0);
      expect(out.stderr).toBe('');
      if (out.stdout !== '') expect(JSON.parse(out.stdout)).toEqual({ systemMessage: expect.any(String) });
    }
    // Where it cannot read the state, plan, log or guardrails it fails open (prints nothing):
    // it never blocks on a turn it could not count. The charter and the items cache it can do
    // without (the cache is parsed again): the turn is counted and the next item handed out.
    if (['state.json', 'PLAN.md', 'events.jsonl', 'GUARDRAILS.md'].includes(name)) expect({ status: out.status, stdout: out.stdout, stderr: out.stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
    else expect(out.stderr).toMatch(/Work on item 2/);
  });

  it.each(['PLAN.md', 'state.json', 'events.jsonl'])(`plan tick refuses .leopold/%s as ${kind}: one line, exit 2`, (name) => {
    // events.jsonl is read for the item's receipt, during a run only.
    const dir = project(name, kind, { active: name === 'events.jsonl' });
    const out = run(dir, [bin, 'plan', 'tick', '2']);
    expectAnswered(out);
    expect(out.status, out.stderr).toBe(2);
    expect(out.stderr).toBe(`leopold: cannot read .leopold/${name}: ${REFUSAL[kind]}\n`);
    if (name !== 'PLAN.md') expect(readFileSync(join(dir, '.leopold', 'PLAN.md'), 'utf8')).toBe(PLAN.replace('[ ] one', '[x] one'));
  });

  it(`plan tick ignores the items cache as ${kind} (only a cache) and ticks from PLAN.md`, () => {
    const dir = project('.PLAN.md.items.json', kind, { active: false });
    const out = run(dir, [bin, 'plan', 'tick', '2']);
    expectAnswered(out);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toBe('ticked item 2: two\n');
    expect(readFileSync(join(dir, '.leopold', 'PLAN.md'), 'utf8')).toBe(PLAN.replace(/\[ \]/g, '[x]'));
  });
});

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ioFailureLine } from '../../compiler/cli/io-error.js';
import { privatePackage } from '../support/built-dist.js';

// Every command that writes answers a target it cannot write (read-only, a file where a
// directory should be, a directory where a file should be) with one line on stderr and
// exit 2, never a stack trace (exit 3), and leaves no half-written file behind. As root
// chmod stops nothing, so read-only targets are tested by running the binary as `nobody`.

const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-io-failure-')));
// A private copy of the package (init needs its templates beside the binary).
let bin = '';
const setprivWorks = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', '0']).status === 0;

beforeAll(async () => {
  const pkg = await privatePackage();
  bin = join(pkg, 'dist', 'leopold.js');
  for (const dir of [work, pkg]) chmodSync(dir, 0o755); // nobody must reach the binary and the projects below
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
/** A project with a valid plan; `state` makes a run active. */
function project(options: { active?: boolean } = {}): string {
  const dir = join(work, `p${n++}`);
  mkdirSync(join(dir, '.leopold'), { recursive: true });
  writeFileSync(join(dir, '.leopold', 'PLAN.md'), '- [ ] one\n- [ ] two\n');
  if (options.active) {
    const started = spawnSync(process.execPath, [bin, 'run', 'start'], { cwd: dir, encoding: 'utf8' });
    expect(started.status, started.stderr).toBe(0);
  }
  return dir;
}

function leopold(cwd: string, args: string[], options: { asNobody?: boolean; input?: string } = {}) {
  const env = { ...process.env, LEOPOLD_AUTONOMY: '' };
  const [cmd, argv] = options.asNobody
    ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, bin, ...args]]
    : [process.execPath, [bin, ...args]];
  const out = spawnSync(cmd as string, argv as string[], { cwd, encoding: 'utf8', env, input: options.input ?? '' });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** Makes `dir` and everything in it read-only for nobody (root owns it all). */
function readOnly(dir: string): void {
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    chmodSync(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o555 : 0o444);
  }
  chmodSync(dir, 0o555);
}

/** The exit-2 contract: one line naming the failure, no stack, no leftover temp file. */
function expectIoFailure(out: { code: number | null; stderr: string }, dir: string, cause: RegExp): void {
  expect(out.code, out.stderr).toBe(2);
  expect(out.stderr.trim().split('\n')).toHaveLength(1);
  expect(out.stderr).toMatch(/^leopold: /);
  expect(out.stderr).toMatch(cause);
  expect(out.stderr).not.toMatch(/internal error|\n\s+at /);
  const temps = readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.tmp'));
  expect(temps).toEqual([]);
}

const snapshot = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => [join(e.parentPath, e.name), readFileSync(join(e.parentPath, e.name), 'utf8')]),
  );

describe('I/O failures: one line, exit 2, nothing half-written', () => {
  it('compile: .claude/workflows is a file (EEXIST/ENOTDIR)', () => {
    const dir = project();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'workflows'), 'in the way\n');
    const out = leopold(dir, ['compile']);
    expectIoFailure(out, dir, /\.claude\/workflows.*\((EEXIST|ENOTDIR)\)$/m);
    expect(existsSync(join(dir, '.leopold', 'workflow-args.json'))).toBe(false);
  });

  it('compile: workflow-args.json is a directory (EISDIR): the script is not written either', () => {
    const dir = project();
    mkdirSync(join(dir, '.leopold', 'workflow-args.json'));
    const out = leopold(dir, ['compile']);
    expectIoFailure(out, dir, /workflow-args\.json.*\((EISDIR|EEXIST|ENOTEMPTY|EPERM)\)$/m);
    expect(existsSync(join(dir, '.claude', 'workflows', 'leopold-run.js'))).toBe(false);
  });

  it('run start: state.json is a directory (EISDIR)', () => {
    const dir = project();
    mkdirSync(join(dir, '.leopold', 'state.json'));
    expectIoFailure(leopold(dir, ['run', 'start']), dir, /state\.json/);
  });

  it.skipIf(!setprivWorks)('run start: a read-only .leopold/ (EACCES)', () => {
    const dir = project();
    readOnly(join(dir, '.leopold'));
    expectIoFailure(leopold(dir, ['run', 'start'], { asNobody: true }), dir, /\(EACCES\)$/m);
  });

  it.skipIf(!setprivWorks)('run stop: a read-only .leopold/ (EACCES); no STOP appears', () => {
    const dir = project({ active: true });
    readOnly(join(dir, '.leopold'));
    expectIoFailure(leopold(dir, ['run', 'stop'], { asNobody: true }), dir, /STOP.*\(EACCES\)$/m);
    expect(existsSync(join(dir, '.leopold', 'STOP'))).toBe(false);
  });

  it.skipIf(!setprivWorks)('run finish: a read-only .leopold/ (EACCES); state.json unchanged', () => {
    const dir = project({ active: true });
    const before = snapshot(dir);
    readOnly(join(dir, '.leopold'));
    expectIoFailure(leopold(dir, ['run', 'finish', '--reason', 'iteration_budget'], { asNobody: true }), dir, /\(EACCES\)$/m);
    expect(snapshot(dir)).toEqual(before);
  });

  it.skipIf(!setprivWorks)('plan tick: a read-only .leopold/ (EACCES); PLAN.md unchanged', () => {
    const dir = project();
    readOnly(join(dir, '.leopold'));
    for (const json of [[], ['--json']]) {
      expectIoFailure(leopold(dir, ['plan', 'tick', '1', ...json], { asNobody: true }), dir, /\(EACCES\)$/m);
    }
    expect(readFileSync(join(dir, '.leopold', 'PLAN.md'), 'utf8')).toBe('- [ ] one\n- [ ] two\n');
  });

  it.skipIf(!setprivWorks)('plan amend: a read-only .leopold/ (EACCES); PLAN.md unchanged', () => {
    const dir = project({ active: true });
    const before = snapshot(dir);
    readOnly(join(dir, '.leopold'));
    const block = '```leopold-amend\nADD (after: 1) Write the changelog\n```\n';
    const out = leopold(dir, ['plan', 'amend', '--context', 'feedback'], { asNobody: true, input: block });
    expectIoFailure(out, dir, /\(EACCES\)/);
    expect(snapshot(dir)).toEqual(before);
  });

  it.skipIf(!setprivWorks)('record: a read-only .leopold/ (EACCES)', () => {
    const dir = project({ active: true });
    readOnly(join(dir, '.leopold'));
    const out = leopold(dir, ['record'], { asNobody: true, input: JSON.stringify({ events: [{ event: 'failure', item: 1, kind: 'blocked', evidence: 'x' }] }) });
    expect(out.code).toBe(2);
    expect(out.stderr).not.toMatch(/internal error|\n\s+at /);
    // The ack names the file relative to the project, never a path on this machine.
    const ack = JSON.parse(out.stdout) as { ok: boolean; error: string };
    expect(ack.ok).toBe(false);
    expect(ack.error).toMatch(/^cannot [\w ]+ \.leopold\/\S+: permission denied \(EACCES\)$/);
    expect(ack.error).not.toContain(dir);
  });

  it('init: .claude is a file (EEXIST/ENOTDIR); settings.json not written', () => {
    const dir = project();
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.claude'), 'in the way\n');
    const out = leopold(dir, ['init']);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toBe('leopold: cannot create the directory .claude: a file is in the way (EEXIST)\n');
    expect(out.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(readFileSync(join(dir, '.claude'), 'utf8')).toBe('in the way\n');
  });

  it.skipIf(!setprivWorks)('init: a read-only project (EACCES)', () => {
    const dir = project();
    mkdirSync(join(dir, '.git'));
    readOnly(dir);
    const out = leopold(dir, ['init'], { asNobody: true });
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toMatch(/EACCES/);
  });
});

describe('ioFailureLine', () => {
  const fsError = (code: string, syscall: string, path: string) => Object.assign(new Error(`${code}: x, ${syscall} '${path}'`), { code, syscall, path });

  it('names the file and the cause for every file-system failure a write can meet', () => {
    for (const [code, cause] of [
      ['EACCES', 'permission denied'],
      ['EROFS', 'read-only file system'],
      ['ENOSPC', 'no space left on the device'],
      ['EEXIST', 'a file is in the way'],
      ['EISDIR', 'it is a directory'],
      ['ENOTDIR', 'a file is where a directory is expected'],
    ] as const) {
      expect(ioFailureLine(fsError(code, 'open', '/p/.leopold/STOP'), '/p')).toBe(`cannot write .leopold/STOP: ${cause} (${code})`);
    }
  });

  it('names an atomic write by its target, quotes a path with spaces, and ignores what is not an fs failure', () => {
    expect(ioFailureLine(fsError('ENOSPC', 'open', '/p/.leopold/.state.json.123.4.tmp'), '/p')).toBe('cannot write .leopold/state.json: no space left on the device (ENOSPC)');
    expect(ioFailureLine(fsError('EACCES', 'mkdir', '/p/my dir/.claude'), '/p')).toBe('cannot create the directory "my dir/.claude": permission denied (EACCES)');
    expect(ioFailureLine(new Error('boom'), '/p')).toBeNull();
    expect(ioFailureLine(Object.assign(new Error('x'), { code: 'ERR_ASSERTION' }), '/p')).toBeNull();
    expect(ioFailureLine(null, '/p')).toBeNull();
  });
});

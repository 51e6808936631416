import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { privatePackage } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

// A full disk loses nothing (docs/runtime.md, "Writing and reading the project's files"):
// every writer, run on a small tmpfs filled to the last page (then with a few pages left,
// so it meets the full disk at its lock and then in its own data), leaves every file
// byte-identical, leaves no temp or lock file, and exits 2 with one line naming the file
// and the cause. The Stop hook lets the session stop with the reason (docs/hooks.md, "Fail
// open") and its state.json stays whole. Mounting needs root (Linux CI runs as root);
// elsewhere the suite is skipped, saying why.

const mnt = tempDir('leopold-enospc-');
const canMount = process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1024k', 'tmpfs', mnt]).status === 0;
let bin = '';
let stopHook = '';

beforeAll(async () => {
  if (!canMount) return;
  const pkg = await privatePackage();
  bin = join(pkg, 'dist', 'leopold.js');
  stopHook = join(pkg, 'dist', 'hooks', 'stop.js');
});
afterAll(() => {
  if (canMount) spawnSync('umount', [mnt]);
  rmSync(mnt, { recursive: true, force: true });
});

/** A plan big enough that its rewrite needs many pages: 300 items, about 20 KB. */
const PLAN = `# Plan\n\n${Array.from({ length: 300 }, (_, i) => `- [ ] Item number ${i + 1}: do the thing carefully and check it twice\n`).join('')}`;
const FILLER = join(mnt, 'filler');

let n = 0;
/** A project on the tmpfs with a 300-item plan; `active` starts a session run. */
function project(options: { active?: boolean; git?: boolean } = {}): string {
  const dir = join(mnt, `p${n++}`);
  mkdirSync(join(dir, '.leopold'), { recursive: true });
  if (options.git) mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, '.leopold', 'PLAN.md'), PLAN);
  if (options.active) expect(leopold(dir, ['run', 'start', '--engine', 'session']).code).toBe(0);
  return dir;
}

/** Takes every free page of the tmpfs but `spare` (4 KiB each): the write past them fails with ENOSPC. */
function fill(spare = 0): void {
  const fd = openSync(FILLER, 'w');
  try {
    const { bavail, bsize } = statfsSync(mnt);
    if (bavail > 1) spawnSync('fallocate', ['-l', String((bavail - 1) * bsize), FILLER]);
    const page = Buffer.alloc(4096, 1);
    for (;;) {
      try {
        writeSync(fd, page, 0, page.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
        throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
  expect(statfsSync(mnt).bavail).toBe(0);
  if (spare > 0) truncateSync(FILLER, statSync(FILLER).size - spare * 4096);
}

/** Removes the filler and the projects: the next case starts on an empty tmpfs, whatever this one left. */
afterEach(() => {
  if (canMount) for (const name of readdirSync(mnt)) rmSync(join(mnt, name), { recursive: true, force: true });
});

function leopold(cwd: string, args: string[], input = '') {
  const env = { ...process.env, LEOPOLD_AUTONOMY: '', CLAUDE_CODE_SESSION_ID: '' };
  const out = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env, input });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** Every file under `dir` (the filler is outside it), by path, as bytes. */
function snapshot(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(join(entry.parentPath, entry.name), readFileSync(join(entry.parentPath, entry.name)));
  }
  return files;
}

/** Every file under `dir`, sorted (a temp or lock file left behind shows here). */
const fileNames = (dir: string) => [...snapshot(dir).keys()].sort();

/** The free pages each writer is run with: none (its first lock or file fails), then room for its locks but not its data. */
const SPARES = [0, 1, 2, 3, 4];

/**
 * Runs `command` on the tmpfs filled to each of SPARES and checks the writer's contract
 * whenever it fails: exit 2, one line naming the file and the cause (on stderr; `record`
 * answers its caller on stdout, as `{"ok":false,"error":…}`, docs/decisions.md), no stack,
 * every file byte-identical, no file added or removed (no temp, no lock, no partial set).
 * With no page spare it must fail; once it succeeds the disk had room and the loop ends.
 * Some failure must name `target`, the file the writer replaces: the atomic write itself
 * met the full disk, not only a lock before it. Returns the lines, for the report.
 */
function expectNothingLost(dir: string, target: RegExp, command: () => { code: number | null; stdout: string; stderr: string }, on: 'stderr' | 'ack' = 'stderr'): string[] {
  const before = snapshot(dir);
  const lines: string[] = [];
  for (const spare of SPARES) {
    fill(spare);
    const out = command();
    rmSync(FILLER);
    if (spare > 0 && out.code === 0) break;
    expect(out.code, `${spare} pages spare: ${out.stderr}`).toBe(2);
    expect(out.stderr).not.toMatch(/internal error|\n\s+at /);
    const line = on === 'stderr' ? out.stderr : out.stdout;
    expect(line.trim().split('\n'), `${spare} pages spare`).toHaveLength(1);
    if (on === 'stderr') {
      expect(out.stderr).toMatch(/^leopold: cannot /);
    } else {
      expect(out.stderr).toBe('');
      expect(JSON.parse(out.stdout)).toMatchObject({ ok: false, error: expect.any(String) });
    }
    expect(line).toMatch(/no space left on the device \(ENOSPC\)/);
    expect(fileNames(dir), `${spare} pages spare: ${line}`).toEqual([...before.keys()].sort());
    const after = snapshot(dir);
    for (const [path, bytes] of before) expect(after.get(path)?.equals(bytes), `${spare} pages spare: ${path}`).toBe(true);
    lines.push(line.trim());
  }
  expect(lines.some((line) => target.test(line) && !/lock/.test(line)), lines.join('\n')).toBe(true);
  return lines;
}

describe.skipIf(!canMount)(`a full disk loses nothing${canMount ? '' : ' (skipped: mounting a tmpfs needs root on Linux)'}`, () => {
  it('the filler leaves no free page, and its removal gives them back', () => {
    fill();
    expect(() => writeFileSync(join(mnt, 'one-more'), 'x')).toThrow(/ENOSPC/);
    rmSync(FILLER);
    expect(statfsSync(mnt).bavail).toBeGreaterThan(0);
  });

  it('plan tick: PLAN.md unchanged', () => {
    // No run: an active run would first ask for item 3's verification receipt.
    const dir = project();
    expectNothingLost(dir, /PLAN\.md/, () => leopold(dir, ['plan', 'tick', '3']));
  });

  it('plan amend (a block on stdin): PLAN.md and state.json unchanged, nothing amended', () => {
    const dir = project({ active: true });
    const block = '```leopold-amend\nADD (after: 1) Write the changelog\n```\n';
    expectNothingLost(dir, /PLAN\.md/, () => leopold(dir, ['plan', 'amend', '--context', 'feedback'], block));
  });

  it('record (a decision and an event): DECISIONS.md and events.jsonl unchanged', () => {
    const dir = project({ active: true });
    const decision = { title: 'Keep refunded invoices', fork: 'escalation', item: 4, persona: { name: 'Ada Park', role: 'Billing Lead', expertise: ['invoicing'] }, class: 'reversible', charter: 'Never hide money movements.', decision: 'Include them with a status column.', why: 'completeness', reversal: 'Filter status=refunded.', turn: 3 };
    // An earlier decision, so there is a DECISIONS.md to keep.
    expect(leopold(dir, ['record'], JSON.stringify({ decisions: [decision] })).code).toBe(0);
    const input = JSON.stringify({ decisions: [{ ...decision, title: `${'A long decision '.repeat(400)}` }], events: [{ event: 'start', item: 4 }] });
    expectNothingLost(dir, /DECISIONS\.md|events\.jsonl/, () => leopold(dir, ['record'], input), 'ack');
  });

  // compile and init may leave the empty directories they made (.claude/workflows): no file.
  it('compile: the workflow script and its arguments are not written', () => {
    const dir = project();
    expectNothingLost(dir, /leopold-run\.js|workflow-args\.json/, () => leopold(dir, ['compile']));
  });

  it('init: .claude/settings.json and the rest are not written', () => {
    const dir = project({ git: true });
    expectNothingLost(dir, /settings\.json|MISSION\.md|\.md/, () => leopold(dir, ['init']));
  });

  it('run start: state.json is not written', () => {
    const dir = project();
    expectNothingLost(dir, /state\.json|lock\.json/, () => leopold(dir, ['run', 'start', '--engine', 'session']));
  });

  it('run finish: state.json unchanged', () => {
    const dir = project({ active: true });
    expectNothingLost(dir, /state\.json/, () => leopold(dir, ['run', 'finish', '--reason', 'iteration_budget']));
  });

  it('the Stop hook lets the session stop with the reason (exit 0, a systemMessage) and leaves state.json whole and unchanged', () => {
    const dir = project({ active: true });
    writeFileSync(join(dir, 'transcript.jsonl'), '{"type":"user"}\n');
    const state = join(dir, '.leopold', 'state.json');
    const before = readFileSync(state);
    // The hook would count this turn and write state.json: on a disk with room it blocks with the next item.
    const files = fileNames(dir);
    const input = JSON.stringify({ session_id: 's1', transcript_path: join(dir, 'transcript.jsonl'), cwd: dir, hook_event_name: 'Stop', stop_hook_active: false, background_tasks: [] });
    const env = { ...process.env, LEOPOLD_AUTONOMY: '', CLAUDE_PROJECT_DIR: '' };
    const causes: string[] = [];
    // No page spare (the state lock fails), then one (the lock fits, state.json's temp file does not).
    for (const spare of [0, 1]) {
      fill(spare);
      const out = spawnSync(process.execPath, [stopHook], { cwd: dir, encoding: 'utf8', env, input });
      rmSync(FILLER);
      expect(out.status, out.stderr).toBe(0);
      expect(out.stderr).toBe('');
      const { systemMessage } = JSON.parse(out.stdout) as { systemMessage: string };
      const cause = /^Leopold: this turn could not be saved \((.*no space left on the device \(ENOSPC\))\), so the run is paused: state\.json is unchanged/.exec(systemMessage);
      expect(cause, systemMessage).not.toBeNull();
      causes.push(cause![1]!);
      const after = readFileSync(state);
      expect(after.equals(before), `${spare} pages spare`).toBe(true);
      expect(() => JSON.parse(after.toString('utf8'))).not.toThrow();
      expect(fileNames(dir)).toEqual(files);
    }
    expect(causes).toEqual([
      'cannot take the lock .leopold/state.json.lock: no space left on the device (ENOSPC)',
      'cannot write .leopold/state.json: no space left on the device (ENOSPC)',
    ]);
    // With room again the same turn is counted and blocked: the full disk, not the project, was the cause.
    const again = spawnSync(process.execPath, [stopHook], { cwd: dir, encoding: 'utf8', env, input });
    expect(again.status, again.stderr).toBe(2);
    expect(again.stderr).toMatch(/item 1/);
    expect(readFileSync(state).equals(before)).toBe(false);
  });
});

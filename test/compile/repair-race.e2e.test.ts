import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtLeopold, root } from './harness.js';
import { tempDir } from '../support/temp.js';

// A `leopold plan tick` that lands while `leopold compile` waits for a slow --repair-cmd is
// never lost: the repair is judged and written under PLAN.md.lock against the file as it is
// then (docs/compile.md). Both commands are the built binary; the verdict is PLAN.md's bytes.

let bin = '';
beforeAll(async () => {
  ({ bin } = await builtLeopold());
});

const FIXTURE = join(root, 'fixtures/repair/dangling-route');
/**
 * The repair command: it reads the prompt, says it started, then waits until the test has
 * ticked (the file `ticked`, polled for at most 60 s) before it answers. The tick therefore
 * lands while the repair runs however slow the machine is; nothing here depends on time.
 */
const REPAIR_COMMAND = 'cat >/dev/null; : > started; n=0; while [ ! -e ticked ] && [ $n -lt 1200 ]; do sleep 0.05; n=$((n+1)); done; cat answer.md';

interface Raced {
  compile: { code: number; stdout: string; stderr: string };
  tick: { code: number; stdout: string; compileStillRunning: boolean };
  plan: Buffer;
  dir: string;
}

/** Starts a repair whose command sleeps, ticks `item` while it sleeps, and waits for both. */
async function raceTick(item: number): Promise<Raced> {
  const dir = tempDir('leopold-repair-race-');
  cpSync(join(FIXTURE, 'PLAN.md'), join(dir, '.leopold', 'PLAN.md'));
  const answer = readFileSync(join(FIXTURE, 'answer.md'), 'utf8');
  cpSync(join(FIXTURE, 'answer.md'), join(dir, 'answer.md'));
  expect(answer).toContain('ROUTE 2 fail -> 3');
  const child = spawn(process.execPath, [bin, 'compile', '--repair-cmd', REPAIR_COMMAND], { cwd: dir, env: { ...process.env, LEOPOLD_AUTONOMY: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const closed = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  // The repair command is running (it has read the prompt) before the tick starts.
  while (!existsSync(join(dir, 'started'))) await new Promise((resolve) => setTimeout(resolve, 10));
  const tick = spawnSync(process.execPath, [bin, 'plan', 'tick', String(item), '--json'], { cwd: dir, encoding: 'utf8' });
  const compileStillRunning = child.exitCode === null;
  writeFileSync(join(dir, 'ticked'), '');
  const code = await closed;
  return { compile: { code, stdout, stderr }, tick: { code: tick.status ?? -1, stdout: tick.stdout, compileStillRunning }, plan: readFileSync(join(dir, '.leopold', 'PLAN.md')), dir };
}

/** `text` with item line `prefix` ticked: exactly the one byte `plan tick` changes. */
function ticked(text: string, line: string): string {
  const at = text.indexOf(`- [ ] ${line}`);
  expect(at).toBeGreaterThanOrEqual(0);
  return `${text.slice(0, at)}- [x] ${line}${text.slice(at + `- [ ] ${line}`.length)}`;
}

describe('compile repair vs a concurrent plan tick', () => {
  it('a tick that lands during a slow --repair-cmd survives the repair: PLAN.md holds both changes', async () => {
    const raced = await raceTick(4);
    // The tick did not wait for the repair command: it held no lock while the command ran.
    expect(raced.tick.compileStillRunning).toBe(true);
    expect(raced.tick.code).toBe(0);
    expect(JSON.parse(raced.tick.stdout)).toMatchObject({ ok: true, item: 4, changed: true });
    expect(raced.compile.stderr).toContain('changed while the repair ran; the proposals were judged again against it and still apply');
    expect(raced.compile.code).toBe(0);
    // Byte for byte: the golden repair of the fixture, plus the tick's one byte.
    const expected = ticked(readFileSync(join(FIXTURE, 'PLAN.after.md'), 'utf8'), 'Ship it');
    expect(raced.plan.toString('utf8')).toBe(expected);
    // The diff printed is the one that was applied: against the ticked plan, so it applies with patch.
    expect(raced.compile.stdout).toContain('-  @on fail -> 9\n+  @on fail -> 3\n');
    expect(raced.compile.stdout).toContain(' - [x] Ship it\n');
    expect(readFileSync(join(raced.dir, '.leopold', 'DECISIONS.md'), 'utf8')).toContain('ROUTE 2 fail -> 3');
    // The workflow was compiled from the plan as written, tick included.
    const args = readFileSync(join(raced.dir, '.leopold', 'workflow-args.json'), 'utf8');
    expect(args).toContain('"done": true');
  });

  it('a tick that makes the proposals no longer fit: nothing is written, one line says why, the tick stays', async () => {
    const raced = await raceTick(2);
    expect(raced.tick.compileStillRunning).toBe(true);
    expect(raced.tick.code).toBe(0);
    expect(raced.compile.code).toBe(1);
    const line = raced.compile.stderr.split('\n').find((l) => l.startsWith('leopold: repair refused:'));
    expect(line).toBe(
      'leopold: repair refused: .leopold/PLAN.md changed while the repair ran (a `leopold plan tick` or amendment landed), and the proposals no longer fit it (ROUTE 2 fail -> 3: refused no-touch-done); .leopold/PLAN.md was not changed.',
    );
    expect(raced.compile.stderr).not.toMatch(/^\s+at .+:\d+:\d+/m); // no stack trace
    expect(raced.plan.toString('utf8')).toBe(ticked(readFileSync(join(FIXTURE, 'PLAN.md'), 'utf8'), '@gate Review the parser'));
    expect(existsSync(join(raced.dir, '.leopold', 'DECISIONS.md'))).toBe(false);
    expect(existsSync(join(raced.dir, '.leopold', 'PLAN.md.lock'))).toBe(false);
  });
});

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leopoldBinary } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

// The run lock through the CLI: run start arms it, status shows it, unlock lifts it, and
// where the sandbox cannot run (no bwrap on PATH) every one of them says so by name.

let bin: string;
beforeAll(async () => {
  bin = await leopoldBinary();
});
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const root = tempDir('leopold-run-lock-');
  made.push(root);
  spawnSync('git', ['init', '-q'], { cwd: root });
  mkdirSync(join(root, '.leopold'));
  writeFileSync(join(root, '.leopold', 'PLAN.md'), '- [ ] one\n');
  return root;
}

/** A PATH with node and git and nothing else: no bubblewrap, no socat. */
function bareBin(): string {
  const dir = tempDir('leopold-bare-bin-');
  made.push(dir);
  symlinkSync(process.execPath, join(dir, 'node'));
  const git = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  symlinkSync(git, join(dir, 'git'));
  return dir;
}

const run = (cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
  const out = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, LEOPOLD_AUTONOMY: '', CLAUDECODE: '', ...env } });
  return { code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr };
};

describe('leopold run and the lock', () => {
  it('start arms, status shows, finish keeps, unlock lifts and leaves nothing behind', () => {
    const root = project();
    expect(run(root, ['run', 'start']).stdout).toMatch(/Lock armed/);
    expect(existsSync(join(root, '.leopold', 'lock.json'))).toBe(true);
    expect(run(root, ['run', 'status']).stdout).toMatch(/^Lock: armed since .* grants: none/m);
    expect(JSON.parse(run(root, ['run', 'status', '--json']).stdout).lock).toMatchObject({ armed: true, grants: [] });
    const finish = run(root, ['run', 'finish']);
    expect(finish.stdout).toMatch(/Git stays locked: .*leopold run unlock/);
    expect(existsSync(join(root, '.leopold', 'lock.json'))).toBe(true);
    expect(run(root, ['run', 'unlock']).stdout).toMatch(/^Lock lifted/m);
    expect(existsSync(join(root, '.leopold', 'lock.json'))).toBe(false);
    expect(existsSync(join(root, '.claude'))).toBe(false);
    expect(run(root, ['run', 'unlock']).stdout).toBe('The lock is not armed.\n');
  });

  it('allow git and allow push write the tokens; anything else is a usage error', () => {
    const root = project();
    expect(run(root, ['run', 'allow', 'git']).code).toBe(0);
    expect(readFileSync(join(root, '.leopold', 'ALLOW_GIT'), 'utf8')).toMatch(/leopold run allow git/);
    expect(run(root, ['run', 'allow', 'push']).code).toBe(0);
    const bad = run(root, ['run', 'allow', 'force']);
    expect(bad.code).toBe(2);
    // One line, one `leopold:` prefix.
    expect(bad.stderr).toBe('leopold: run allow takes git or push, not "force"\n');
  });

  it('without bubblewrap: a named warning from start and status; --require-sandbox refuses and writes nothing', () => {
    const root = project();
    const PATH = bareBin();
    const refused = run(root, ['run', 'start', '--require-sandbox'], { PATH });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--require-sandbox: Claude Code's sandbox cannot run here \(bubblewrap \(bwrap\) and socat are not installed\).*No run was started/);
    expect(existsSync(join(root, '.leopold', 'state.json'))).toBe(false);
    expect(existsSync(join(root, '.leopold', 'lock.json'))).toBe(false);
    const started = run(root, ['run', 'start'], { PATH });
    expect(started.code).toBe(0);
    expect(started.stderr).toMatch(/^warning\[sandbox-unavailable\]: /);
    expect(started.stdout).toMatch(/only the git guard holds it here/);
    expect(run(root, ['run', 'status'], { PATH }).stderr).toMatch(/^warning\[sandbox-unavailable\]: /);
  });

  it('inside the armed sandbox (a session\'s run status, where no nested sandbox can start) the lock\'s record is trusted: no false warning', () => {
    const root = project();
    const started = run(root, ['run', 'start']);
    expect(started.code, started.stderr).toBe(0);
    const armed = JSON.parse(readFileSync(join(root, '.leopold', 'lock.json'), 'utf8')) as { sandbox?: { available?: boolean } };
    if (armed.sandbox?.available !== true) return; // no bubblewrap here: nothing armed to trust
    // The probe fails (no bwrap on this PATH), as it does inside the sandbox.
    const PATH = bareBin();
    const inside = run(root, ['run', 'status'], { PATH, CLAUDECODE: '1' });
    expect(inside.stderr).not.toMatch(/sandbox-unavailable/);
    expect(inside.stdout).toMatch(/the sandbox this session runs in/);
    // Outside a Claude Code session the same failing probe is reported.
    expect(run(root, ['run', 'status'], { PATH, CLAUDECODE: '' }).stderr).toMatch(/^warning\[sandbox-unavailable\]: /);
    expect(run(root, ['run', 'unlock', '--accept-changes']).code).toBe(0);
  });

  it('a settings.local.json that is not JSON: start refuses with the file named, no run started', () => {
    const root = project();
    mkdirSync(join(root, '.claude'));
    writeFileSync(join(root, '.claude', 'settings.local.json'), '{ nope');
    const out = run(root, ['run', 'start']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/settings\.local\.json: not valid JSON/);
    expect(out.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(root, '.leopold', 'state.json'))).toBe(false);
  });
});

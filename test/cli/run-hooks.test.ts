import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { privatePackage } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

// `leopold run start` checks that the hooks it relies on can start, as Claude Code would
// start them (sh -c, the PATH it was started with, an empty input), and refuses the run,
// saying why and what to do, when one cannot: before anything is written or armed.

let pkg = '';
beforeAll(async () => {
  pkg = await privatePackage();
});

const NODE_DIR = dirname(process.execPath);

/** A bin directory holding only what a hook needs besides node: sh and git (init and the lock look for git). */
function binWithout(node: 'none' | 'real' | { version: string }): string {
  const bin = tempDir('leopold-path-');
  for (const tool of ['sh', 'git']) {
    const found = spawnSync('/bin/sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    symlinkSync(found, join(bin, tool));
  }
  if (node === 'real') symlinkSync(process.execPath, join(bin, 'node'));
  else if (node !== 'none') {
    // A node that reports an old version when asked, and otherwise is the real one.
    writeFileSync(join(bin, 'node'), `#!/bin/sh\nif [ "$1" = "-p" ]; then echo ${node.version}; exit 0; fi\nexec "${process.execPath}" "$@"\n`);
    chmodSync(join(bin, 'node'), 0o755);
  }
  return bin;
}

/** A git project set up by the package's own `leopold init`; `installed` lays out node_modules/leopold as npm i does. */
function project(installed: boolean): string {
  const root = tempDir('leopold-run-hooks-');
  mkdirSync(join(root, '.git'));
  const init = cli(root, ['init'], `${NODE_DIR}:/usr/bin:/bin`);
  expect(init.code, init.stderr).toBe(0);
  writeFileSync(join(root, '.leopold', 'PLAN.md'), '- [ ] one\n');
  if (installed) {
    mkdirSync(join(root, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(pkg, join(root, 'node_modules', 'leopold'), 'dir');
    symlinkSync('../leopold/dist/leopold.js', join(root, 'node_modules', '.bin', 'leopold'));
  }
  return root;
}

function cli(cwd: string, args: string[], PATH: string) {
  const out = spawnSync(process.execPath, [join(pkg, 'dist', 'leopold.js'), ...args], { cwd, encoding: 'utf8', env: { PATH, HOME: cwd, LEOPOLD_AUTONOMY: '' } });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** Nothing of a run was written: no state, no lock armed. */
function nothingStarted(root: string): void {
  expect(existsSync(join(root, '.leopold', 'state.json'))).toBe(false);
  expect(existsSync(join(root, '.claude', 'settings.local.json'))).toBe(false);
}

describe('leopold run start: the hooks must be able to start', () => {
  it('hooks registered and installed, node on PATH: the run starts', () => {
    const root = project(true);
    const start = cli(root, ['run', 'start'], binWithout('real'));
    expect(start.code, start.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(root, '.leopold', 'state.json'), 'utf8'))).toMatchObject({ active: true });
  });

  it('registered but not installed: refused, naming the missing files and npm ci', () => {
    const root = project(false);
    const start = cli(root, ['run', 'start'], binWithout('real'));
    expect(start.code).toBe(2);
    expect(start.stderr.trim().split('\n').filter((l) => l.startsWith('leopold:'))).toHaveLength(1);
    expect(start.stderr).toMatch(/^leopold: refusing to start the run: the git guard \(\.claude\/settings\.json: node "\$CLAUDE_PROJECT_DIR"\/node_modules\/leopold\/dist\/hooks\/guard\.js\) cannot start: its file is missing \(.*node_modules\/leopold\/dist\/hooks\/guard\.js\); the Stop hook .* cannot start: its file is missing/m);
    expect(start.stderr).toContain('To fix: install the project\'s Leopold (npm ci, or npm i -D leopold)');
    nothingStarted(root);
  });

  it('no node on the PATH the hooks get: refused, saying so', () => {
    const root = project(true);
    const start = cli(root, ['run', 'start'], binWithout('none'));
    expect(start.code).toBe(2);
    expect(start.stderr).toMatch(/cannot start: `node` is not on the PATH Claude Code gives its hooks \(.*node: not found\)/);
    expect(start.stderr).toContain('To fix: install Node 20.19 or later');
    nothingStarted(root);
  });

  it('a node older than 20.19 on that PATH: refused, naming the version', () => {
    const root = project(true);
    const start = cli(root, ['run', 'start'], binWithout({ version: '18.20.4' }));
    expect(start.code).toBe(2);
    expect(start.stderr).toContain("is 18.20.4, older than Leopold's 20.19");
    nothingStarted(root);
  });

  it('a hook file that does not load: refused with what it printed', () => {
    const root = project(true);
    // Another install's hook (any .../dist/hooks/guard.js is Leopold's), half written.
    const broken = join(tempDir('leopold-broken-'), 'dist', 'hooks', 'guard.js');
    mkdirSync(dirname(broken), { recursive: true });
    writeFileSync(broken, 'this is not javascript(\n');
    const settings = readFileSync(join(root, '.claude', 'settings.json'), 'utf8').replaceAll('node \\"$CLAUDE_PROJECT_DIR\\"/node_modules/leopold/dist/hooks/guard.js', `node ${broken}`);
    writeFileSync(join(root, '.claude', 'settings.json'), settings);
    const start = cli(root, ['run', 'start'], binWithout('real'));
    expect(start.code).toBe(2);
    expect(start.stderr).toMatch(/the git guard \(\.claude\/settings\.json: node \S+guard\.js\) cannot start: it exited 1: SyntaxError/);
    nothingStarted(root);
  });

  it('no Leopold hooks registered (the plugin from a marketplace, which the CLI cannot see): nothing to check', () => {
    const root = tempDir('leopold-run-bare-');
    mkdirSync(join(root, '.leopold'), { recursive: true });
    writeFileSync(join(root, '.leopold', 'PLAN.md'), '- [ ] one\n');
    expect(cli(root, ['run', 'start'], binWithout('none')).code).toBe(0);
  });
});

import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtHook, leopoldBinary } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

// The run's audit and the grants' life through the built CLI (runtime/lock/audit.ts,
// docs/lock.md): `run start` takes a baseline, `run finish` and `run unlock` list what a run
// left that would take effect later and refuse (exit 1) until the user undoes or accepts
// it; a grant lasts one run. What the real client cannot write during a run (hooks,
// .npmrc) is planted here from outside, as a layer that failed would let it through.

let bin: string;
let stopHook: string[];
beforeAll(async () => {
  bin = await leopoldBinary();
  stopHook = (await builtHook(tempDir('leopold-audit-hook-'), 'stop'))['dist/hooks/stop.js']!;
});

interface Project {
  root: string;
  home: string;
  env: NodeJS.ProcessEnv;
  leopold(args: string[], extraEnv?: NodeJS.ProcessEnv): { code: number; stdout: string; stderr: string };
  git(...args: string[]): string;
  sh(command: string): void;
}

function project(): Project {
  const base = tempDir('leopold-audit-');
  const root = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(join(root, '.leopold'), { recursive: true });
  mkdirSync(home);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: '', GIT_CONFIG_NOSYSTEM: '1', LEOPOLD_AUTONOMY: '', CLAUDECODE: '' };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Audit');
  git('config', 'user.email', 'audit@example.invalid');
  writeFileSync(join(root, '.leopold', 'PLAN.md'), '- [ ] one\n');
  writeFileSync(join(root, '.leopold', 'GUARDRAILS.md'), '# Guardrails\n');
  writeFileSync(join(root, '.leopold', '.gitignore'), 'state.json\nevents.jsonl\nlock.json\n*.tmp\n');
  writeFileSync(join(root, 'README.md'), '# Project\n');
  writeFileSync(join(root, 'package.json'), `${JSON.stringify({ name: 'p', private: true, scripts: { test: 'echo ok' } }, null, 2)}\n`);
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  return {
    root,
    home,
    env,
    leopold: (args, extraEnv = {}) => {
      const out = spawnSync(process.execPath, [bin, ...args], { cwd: root, env: { ...env, ...extraEnv }, encoding: 'utf8' });
      return { code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr };
    },
    git,
    sh: (command) => {
      execFileSync('sh', ['-c', command], { cwd: root, env, stdio: 'ignore' });
    },
  };
}

/** The `undo:` lines of an audit listing, in order. */
const undoLines = (text: string) => [...text.matchAll(/^ {4}undo: (.*)$/gm)].map((m) => m[1]!);
/** The paths an audit listing names. */
const listed = (text: string) => [...text.matchAll(/^ {2}(\S[^:]*): /gm)].map((m) => m[1]!);

describe('the run audit', () => {
  it('run finish after a run that planted a hook, a .npmrc and a skip-worktree flag: exit 1, the three listed with their undo; undone, unlock exits 0 and leaves nothing behind', () => {
    const p = project();
    expect(p.leopold(['run', 'start']).code).toBe(0);
    writeFileSync(join(p.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\ntouch planted\n');
    chmodSync(join(p.root, '.git', 'hooks', 'pre-commit'), 0o755);
    writeFileSync(join(p.root, '.npmrc'), 'script-shell=./payload.sh\n');
    p.git('update-index', '--skip-worktree', 'README.md');

    const finish = p.leopold(['run', 'finish']);
    expect(finish.code, finish.stdout + finish.stderr).toBe(1);
    expect(finish.stdout).toMatch(/^Leopold run ended/);
    expect(finish.stdout).toContain('The lock found 3 changes since the run started');
    expect(listed(finish.stdout)).toEqual(['.git/hooks/pre-commit', '.npmrc', 'README.md']);
    expect(finish.stdout).toMatch(/README\.md: marked skip-worktree in the index/);
    expect(undoLines(finish.stdout)).toEqual(['rm -rf -- .git/hooks/pre-commit', ': > .npmrc', 'git update-index --no-skip-worktree -- README.md']);

    // Unlocking is refused while they stand; undone, the audit is clean.
    const refused = p.leopold(['run', 'unlock']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/The lock stays armed/);
    expect(existsSync(join(p.root, '.leopold', 'lock.json'))).toBe(true);
    for (const line of undoLines(finish.stdout)) p.sh(line);
    const unlock = p.leopold(['run', 'unlock']);
    expect(unlock.code, unlock.stdout).toBe(0);
    expect(unlock.stdout).toMatch(/^Audit: nothing the run could have planted/);
    expect(unlock.stdout).toMatch(/^Lock lifted/m);
    // Every stand-in arming made is gone again.
    expect(readdirSync(p.root).sort()).toEqual(['.git', '.leopold', 'README.md', 'package.json']);
    for (const name of ['commondir', 'config.worktree', 'modules']) expect(existsSync(join(p.root, '.git', name)), name).toBe(false);
    expect(p.git('status', '--porcelain')).toBe('');
  });

  it('after a clean run (ordinary work: files edited, staged, unstaged) run finish exits 0', () => {
    const p = project();
    expect(p.leopold(['run', 'start']).code).toBe(0);
    mkdirSync(join(p.root, 'src'));
    writeFileSync(join(p.root, 'src', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(p.root, 'README.md'), '# Project\n\nMore.\n');
    p.git('add', '-A');
    p.git('restore', '--staged', 'README.md');
    const finish = p.leopold(['run', 'finish']);
    expect(finish.code, finish.stdout).toBe(0);
    expect(finish.stdout).toMatch(/Audit: nothing the run could have planted to take effect later has changed since the run started/);
    expect(p.leopold(['run', 'unlock']).code).toBe(0);
  });

  it('lists what no layer may deny: a staged GUARDRAILS.md, a package.json script, a changed package in node_modules, merge state; a reinstalled node_modules is not a change', () => {
    const p = project();
    mkdirSync(join(p.root, 'node_modules', 'tool'), { recursive: true });
    writeFileSync(join(p.root, 'node_modules', 'tool', 'index.js'), 'module.exports = 1;\n');
    expect(p.leopold(['run', 'start']).code).toBe(0);
    const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: p.root, env: p.env, input: '# anything goes\n', encoding: 'utf8' }).trim();
    p.git('update-index', '--cacheinfo', `100644,${blob},.leopold/GUARDRAILS.md`);
    const pkg = JSON.parse(readFileSync(join(p.root, 'package.json'), 'utf8'));
    pkg.scripts.pretest = 'sh payload.sh';
    writeFileSync(join(p.root, 'package.json'), JSON.stringify(pkg));
    writeFileSync(join(p.root, 'node_modules', 'tool', 'index.js'), 'require("child_process").execSync("touch x");\n');
    writeFileSync(join(p.root, '.git', 'MERGE_HEAD'), `${p.git('rev-parse', 'HEAD').trim()}\n`);
    const finish = p.leopold(['run', 'finish']);
    expect(finish.code).toBe(1);
    expect(listed(finish.stdout)).toEqual(['.git/MERGE_HEAD', '.leopold/GUARDRAILS.md', 'package.json scripts.pretest', 'node_modules']);
    expect(finish.stdout).toMatch(/node_modules: changed since the run started: tool \(1 entry, e\.g\. tool\/index\.js\)/);
    expect(undoLines(finish.stdout)).toEqual([
      'rm -rf -- .git/MERGE_HEAD',
      'git restore --staged -- .leopold/GUARDRAILS.md',
      'git restore --source=HEAD --staged --worktree -- package.json',
      'rm -rf node_modules && npm ci',
    ]);
    // The user undoes the rest and reinstalls node_modules (a new directory): clean.
    for (const line of undoLines(finish.stdout).slice(0, 3)) p.sh(line);
    // As the undo line says: removed first, then installed again.
    rmSync(join(p.root, 'node_modules'), { recursive: true });
    mkdirSync(join(p.root, 'node_modules', 'tool'), { recursive: true });
    writeFileSync(join(p.root, 'node_modules', 'tool', 'index.js'), 'module.exports = 1;\n');
    // The new directory often gets the old one's inode number back (ext4 hands it out again);
    // the birth time tells it apart. Made certain here: the baseline is rewritten to name the
    // new directory's inode number with the old directory's birth time.
    const nm = statSync(join(p.root, 'node_modules'));
    if (nm.birthtimeMs > 0) {
      const lockFile = join(p.root, '.leopold', 'lock.json');
      const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
      const recorded = lock.audit.node_modules as string;
      expect(recorded).toMatch(/^\d+:\d+@[\d.]+$/);
      lock.audit.node_modules = `${nm.dev}:${nm.ino}@${recorded.split('@')[1]}`;
      writeFileSync(lockFile, JSON.stringify(lock));
    }
    const unlock = p.leopold(['run', 'unlock']);
    expect(unlock.code, unlock.stdout).toBe(0);
  });

  it('read under another HOME than the run started with (the client\'s, a hook\'s): the run\'s home is audited, by absolute path; your own dotfiles are never listed or undone', () => {
    const p = project();
    const yours = tempDir('leopold-audit-your-home-');
    writeFileSync(join(yours, '.gitconfig'), '[user]\n\tname = You\n');
    writeFileSync(join(yours, '.npmrc'), 'fund=false\n');
    expect(p.leopold(['run', 'start']).code).toBe(0);
    // The run plants a user-level git config in the home it ran under.
    writeFileSync(join(p.home, '.gitconfig'), '[core]\n\thooksPath = /tmp/x\n');
    const finish = p.leopold(['run', 'finish'], { HOME: yours });
    expect(finish.code, finish.stdout).toBe(1);
    expect(listed(finish.stdout)).toEqual([join(p.home, '.gitconfig')]);
    expect(undoLines(finish.stdout)).toEqual([`rm -rf -- ${join(p.home, '.gitconfig')}`]);
    expect(finish.stdout).not.toContain(yours);
    expect(finish.stdout).not.toContain('$HOME');
    for (const line of undoLines(finish.stdout)) p.sh(line);
    expect(p.leopold(['run', 'unlock'], { HOME: yours }).code).toBe(0);
    expect(readFileSync(join(yours, '.gitconfig'), 'utf8')).toBe('[user]\n\tname = You\n');
    expect(existsSync(join(yours, '.npmrc'))).toBe(true);
  });

  it('--accept-changes takes a new baseline (finish) or lifts the lock anyway (unlock)', () => {
    const p = project();
    expect(p.leopold(['run', 'start']).code).toBe(0);
    writeFileSync(join(p.root, '.git', 'info', 'attributes'), '* filter=x\n');
    const accepted = p.leopold(['run', 'finish', '--accept-changes']);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toMatch(/Accepted 1 change you reviewed[\s\S]*\.git\/info\/attributes: created/);
    expect(p.leopold(['run', 'unlock']).code).toBe(0);

    expect(p.leopold(['run', 'start']).code).toBe(0);
    writeFileSync(join(p.home, '.gitconfig'), '[core]\n\thooksPath = /tmp/x\n');
    expect(p.leopold(['run', 'unlock']).code).toBe(1);
    const unlock = p.leopold(['run', 'unlock', '--accept-changes']);
    expect(unlock.code).toBe(0);
    expect(unlock.stdout).toMatch(/~\/\.gitconfig: created/);
    expect(existsSync(join(p.root, '.leopold', 'lock.json'))).toBe(false);
  });

  it('status, finish and unlock run no program the run could have put first on PATH (npx puts node_modules/.bin there)', () => {
    const p = project();
    const bin = join(p.root, 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    expect(p.leopold(['run', 'start']).code).toBe(0);
    const marker = join(p.home, 'planted-ran');
    for (const name of ['git', 'bwrap', 'socat']) {
      writeFileSync(join(bin, name), `#!/bin/sh\ntouch '${marker}-${name}'\nexit 0\n`);
      chmodSync(join(bin, name), 0o755);
    }
    const path = `${bin}:${process.env.PATH}`;
    expect(p.leopold(['run', 'status'], { PATH: path }).code).toBe(0);
    // The planted files are the audit's to list (node_modules/.bin changed); nothing ran them.
    const finish = p.leopold(['run', 'finish'], { PATH: path });
    expect(finish.stdout).toMatch(/node_modules: changed since the run started: \.bin/);
    expect(p.leopold(['run', 'unlock', '--accept-changes'], { PATH: path }).code).toBe(0);
    expect(readdirSync(p.home).filter((name) => name.startsWith('planted-ran'))).toEqual([]);
  });
});

describe('grants last one run', () => {
  it('a grant given in one run is gone in the next: finish ends it and re-arms the refs; a grant given between runs ends at the next start', () => {
    const p = project();
    expect(p.leopold(['run', 'start']).code).toBe(0);
    expect(p.leopold(['run', 'allow', 'git']).code).toBe(0);
    const lock = () => JSON.parse(readFileSync(join(p.root, '.leopold', 'lock.json'), 'utf8'));
    const denied = () => JSON.parse(readFileSync(join(p.root, '.claude', 'settings.local.json'), 'utf8')).sandbox.filesystem.denyWrite as string[];
    expect(lock().grants).toEqual(['git']);
    expect(denied()).not.toContain(join(p.root, '.git', 'refs'));

    const finish = p.leopold(['run', 'finish']);
    expect(finish.stdout).toMatch(/Grant ended with the run \(\.leopold\/ALLOW_GIT\)/);
    expect(existsSync(join(p.root, '.leopold', 'ALLOW_GIT'))).toBe(false);
    expect(lock().grants).toEqual([]);
    expect(denied()).toContain(join(p.root, '.git', 'refs'));

    // Given while no run is active: said so, and the next run starts without it.
    const early = p.leopold(['run', 'allow', 'push']);
    expect(early.stderr).toMatch(/warning: no run is active: a grant lasts one run/);
    const start = p.leopold(['run', 'start']);
    expect(start.code).toBe(0);
    expect(start.stdout).toMatch(/Grant ended before this run \(\.leopold\/ALLOW_PUSH\)/);
    expect(existsSync(join(p.root, '.leopold', 'ALLOW_PUSH'))).toBe(false);
    expect(lock().grants).toEqual([]);
  });

  it('the Stop hook ends a grant once no run is active (a run finished inside the sandbox could not) and re-arms the lock', () => {
    const p = project();
    expect(p.leopold(['run', 'start']).code).toBe(0);
    expect(p.leopold(['run', 'allow', 'git']).code).toBe(0);
    // While the run is active the grant stands, whatever the hook sees.
    const input = JSON.stringify({ hook_event_name: 'Stop', session_id: 's', cwd: p.root });
    const hook = () => spawnSync(process.execPath, stopHook, { cwd: p.root, input, env: { ...p.env, CLAUDE_PROJECT_DIR: p.root }, encoding: 'utf8' });
    writeFileSync(join(p.root, '.leopold', 'STOP'), 'stop\n');
    expect(hook().status).toBe(0);
    // The kill switch ended the run at this stop: the grant ended with it.
    expect(existsSync(join(p.root, '.leopold', 'ALLOW_GIT'))).toBe(false);
    expect(JSON.parse(readFileSync(join(p.root, '.leopold', 'lock.json'), 'utf8')).grants).toEqual([]);
    // A grant given after the run: ended at the next stop.
    rmSync(join(p.root, '.leopold', 'STOP'));
    expect(p.leopold(['run', 'allow', 'push']).code).toBe(0);
    expect(hook().status).toBe(0);
    expect(existsSync(join(p.root, '.leopold', 'ALLOW_PUSH'))).toBe(false);
  });
});

describe('a stand-in the sandbox left behind', () => {
  it('an empty MERGE_HEAD (a killed command\'s mount point) is no change and unlock removes it', () => {
    const p = project();
    expect(p.leopold(['run', 'start']).code).toBe(0);
    writeFileSync(join(p.root, '.git', 'MERGE_HEAD'), '');
    mkdirSync(join(p.root, '.git', 'info', '.claude-sandbox-noreplace'));
    expect(p.leopold(['run', 'finish']).code).toBe(0);
    expect(p.leopold(['run', 'unlock']).code).toBe(0);
    expect(existsSync(join(p.root, '.git', 'MERGE_HEAD'))).toBe(false);
  });

  it('a node_modules/.bin that did not exist is created for the lock and removed after it', () => {
    const p = project();
    mkdirSync(join(p.root, 'node_modules'));
    symlinkSync('/bin/true', join(p.root, 'node_modules', 'x'));
    expect(p.leopold(['run', 'start']).code).toBe(0);
    expect(existsSync(join(p.root, 'node_modules', '.bin'))).toBe(true);
    expect(p.leopold(['run', 'unlock']).code).toBe(0);
    expect(existsSync(join(p.root, 'node_modules', '.bin'))).toBe(false);
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { armLock, grantLift, readLockRecord, releaseLock, SANDBOX_PLACEHOLDERS } from '../../../runtime/lock/index.js';
import { remoteTarget } from '../../../runtime/lock/arm.js';
import { excludedCommands, excludedWarning } from '../../../runtime/lock/sandbox.js';
import { trustedPathEntries } from '../../../runtime/lock/trusted.js';
import { tempDir } from '../../support/temp.js';

// The OS lock's settings: what arming adds to .claude/settings.local.json, .git/info/exclude
// and .git/packed-refs, and that releasing leaves the user's own settings byte for byte.

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const now = new Date('2026-12-01T12:00:00.000Z');
// A home of its own: the lock also covers the user's git, npm and shell config there.
const home = tempDir('leopold-lock-home-');

function project(options: { git?: boolean } = {}): { root: string; leopold: string; settings: string } {
  const root = tempDir('leopold-lock-');
  made.push(root);
  mkdirSync(join(root, '.leopold'));
  writeFileSync(join(root, '.leopold', 'GUARDRAILS.md'), '# Guardrails\n');
  if (options.git !== false) execFileSync('git', ['init', '-q'], { cwd: root });
  return { root, leopold: join(root, '.leopold'), settings: join(root, '.claude', 'settings.local.json') };
}
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('arming the lock', () => {
  it('turns the sandbox on, shuts the escape hatch, and denies writes to the refs and the protected files, by absolute path', () => {
    const p = project();
    const { record, changed } = armLock(p.leopold, { now, requireSandbox: false, home });
    expect(changed).toBe(true);
    const settings = json(p.settings);
    expect(settings.sandbox.enabled).toBe(true);
    expect(settings.sandbox.allowUnsandboxedCommands).toBe(false);
    expect(settings.sandbox.failIfUnavailable).toBeUndefined();
    const denyWrite: string[] = settings.sandbox.filesystem.denyWrite;
    for (const path of ['.git/HEAD', '.git/refs', '.git/packed-refs', '.leopold/GUARDRAILS.md', '.leopold/STOP', '.leopold/ALLOW_GIT', '.leopold/ALLOW_PUSH', '.leopold/lock.json', '.claude/settings.json', '.claude/settings.local.json']) {
      expect(denyWrite).toContain(join(p.root, path));
    }
    expect(denyWrite.every((path) => path.startsWith(`${p.root}/`))).toBe(true);
    // The Write/Edit tools, which the sandbox does not cover.
    expect(settings.permissions.deny).toEqual(expect.arrayContaining(['Edit(/.leopold/GUARDRAILS.md)', 'Write(/.leopold/ALLOW_GIT)', 'Edit(/.git/refs/**)', 'Edit(/.claude/settings.local.json)']));
    // The record names no machine path, and engages the guard.
    const recordText = readFileSync(join(p.leopold, 'lock.json'), 'utf8');
    expect(recordText).not.toContain(p.root);
    expect(record.grants).toEqual([]);
    expect(readLockRecord(p.leopold)?.armed_at).toBe(now.toISOString());
  });

  it('creates an empty packed-refs (a denied path that does not exist becomes unreadable) and lists the placeholders in .git/info/exclude', () => {
    const p = project();
    armLock(p.leopold, { now, requireSandbox: false, home });
    expect(readFileSync(join(p.root, '.git', 'packed-refs'), 'utf8')).toBe('');
    const exclude = readFileSync(join(p.root, '.git', 'info', 'exclude'), 'utf8');
    expect(exclude).toContain('\n.bashrc\n');
    expect(exclude).toContain('\n**/.claude/workflows\n');
    // git status shows none of them even when the files appear (the sandbox's placeholders).
    for (const name of ['.bashrc', '.vscode', '.mcp.json']) writeFileSync(join(p.root, name), '');
    mkdirSync(join(p.root, '.claude', 'agents'), { recursive: true });
    writeFileSync(join(p.root, '.claude', 'agents', 'x'), '');
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: p.root, encoding: 'utf8' });
    expect(status).not.toMatch(/\.bashrc|\.vscode|\.mcp\.json|\.claude\/agents|settings\.local\.json/);
    expect(SANDBOX_PLACEHOLDERS.length).toBeGreaterThan(20);
  });

  it('keeps the user\'s own settings and is idempotent', () => {
    const p = project();
    mkdirSync(join(p.root, '.claude'));
    const mine = { permissions: { allow: ['Bash(npm test)'], deny: ['Bash(curl *)'] }, sandbox: { enabled: false, network: { allowedDomains: ['registry.npmjs.org'] }, filesystem: { denyWrite: ['/secret'] } }, model: 'x' };
    writeFileSync(p.settings, `${JSON.stringify(mine, null, 2)}\n`);
    armLock(p.leopold, { now, requireSandbox: true, home });
    const armed = readFileSync(p.settings, 'utf8');
    const settings = JSON.parse(armed);
    expect(settings.model).toBe('x');
    expect(settings.permissions.allow).toEqual(['Bash(npm test)']);
    expect(settings.permissions.deny[0]).toBe('Bash(curl *)');
    // Their sandbox was off: the lock keeps the network they had (any host) minus the remotes.
    expect(settings.sandbox.network).toEqual({ allowedDomains: ['registry.npmjs.org', '*'] });
    expect(settings.sandbox.filesystem.allowWrite).toEqual([p.root]);
    expect(settings.sandbox.filesystem.denyWrite[0]).toBe('/secret');
    expect(settings.sandbox.failIfUnavailable).toBe(true);
    expect(armLock(p.leopold, { now: new Date('2027-01-01T00:00:00Z'), requireSandbox: false, home }).changed).toBe(false);
    expect(readFileSync(p.settings, 'utf8')).toBe(armed);
  });

  it('refuses a settings file that is not JSON, writing nothing', () => {
    const p = project();
    mkdirSync(join(p.root, '.claude'));
    writeFileSync(p.settings, '{ "permissions": ');
    expect(() => armLock(p.leopold, { now, requireSandbox: false, home })).toThrow(/settings\.local\.json: not valid JSON/);
    expect(existsSync(join(p.leopold, 'lock.json'))).toBe(false);
    expect(readFileSync(p.settings, 'utf8')).toBe('{ "permissions": ');
  });

  it('outside a git repository arms the protected files alone', () => {
    const p = project({ git: false });
    armLock(p.leopold, { now, requireSandbox: false, home });
    const denyWrite: string[] = json(p.settings).sandbox.filesystem.denyWrite;
    expect(denyWrite.some((path) => path.includes('/.git/'))).toBe(false);
    expect(denyWrite).toContain(join(p.root, '.leopold', 'GUARDRAILS.md'));
  });
});

describe('a sandbox the user configured', () => {
  it('is never widened: no extra path or host, only the denials and the project root', () => {
    const p = project();
    mkdirSync(join(p.root, '.claude'));
    const before = `${JSON.stringify({ sandbox: { enabled: true, network: { allowedDomains: ['registry.npmjs.org'] } } }, null, 2)}\n`;
    writeFileSync(p.settings, before);
    armLock(p.leopold, { now, requireSandbox: false, home });
    const sandbox = json(p.settings).sandbox;
    expect(sandbox.network.allowedDomains).toEqual(['registry.npmjs.org']);
    expect(sandbox.filesystem.allowWrite).toEqual([p.root]);
    releaseLock(p.leopold);
    expect(readFileSync(p.settings, 'utf8')).toBe(before);
  });
});

describe('releasing the lock', () => {
  it('restores the settings, the exclude file and packed-refs byte for byte', () => {
    const p = project();
    mkdirSync(join(p.root, '.claude'));
    const before = `${JSON.stringify({ permissions: { deny: ['Bash(curl *)'] }, sandbox: { enabled: false } }, null, 2)}\n`;
    writeFileSync(p.settings, before);
    const exclude = readFileSync(join(p.root, '.git', 'info', 'exclude'), 'utf8');
    armLock(p.leopold, { now, requireSandbox: true, home });
    expect(releaseLock(p.leopold)).not.toBeNull();
    expect(readFileSync(p.settings, 'utf8')).toBe(before);
    expect(readFileSync(join(p.root, '.git', 'info', 'exclude'), 'utf8')).toBe(exclude);
    expect(existsSync(join(p.root, '.git', 'packed-refs'))).toBe(false);
    expect(existsSync(join(p.leopold, 'lock.json'))).toBe(false);
    expect(releaseLock(p.leopold)).toBeNull();
  });

  it('removes a settings file arming created', () => {
    const p = project();
    armLock(p.leopold, { now, requireSandbox: false, home });
    releaseLock(p.leopold);
    expect(existsSync(p.settings)).toBe(false);
  });

  it('keeps what the user changed while the lock was armed', () => {
    const p = project();
    armLock(p.leopold, { now, requireSandbox: false, home });
    const settings = json(p.settings);
    settings.permissions.allow = ['Bash(make)'];
    writeFileSync(p.settings, JSON.stringify(settings));
    releaseLock(p.leopold);
    expect(json(p.settings)).toEqual({ permissions: { allow: ['Bash(make)'] } });
  });
});

describe('grants', () => {
  it('allow git writes the token and leaves the refs writable; unlock and re-arm follow the token files', () => {
    const p = project();
    armLock(p.leopold, { now, requireSandbox: false, home });
    expect(grantLift(p.leopold, 'git', now, home)).toEqual({ armed: true });
    expect(readFileSync(join(p.leopold, 'ALLOW_GIT'), 'utf8')).toContain('leopold run allow git');
    const settings = json(p.settings);
    expect(settings.sandbox.filesystem.denyWrite).not.toContain(join(p.root, '.git', 'refs'));
    expect(settings.sandbox.filesystem.denyWrite).toContain(join(p.root, '.leopold', 'ALLOW_GIT'));
    expect(settings.permissions.deny).not.toContain('Edit(/.git/refs/**)');
    expect(readLockRecord(p.leopold)?.grants).toEqual(['git']);
    rmSync(join(p.leopold, 'ALLOW_GIT'));
    armLock(p.leopold, { now, requireSandbox: false, home });
    expect(json(p.settings).sandbox.filesystem.denyWrite).toContain(join(p.root, '.git', 'refs'));
    releaseLock(p.leopold);
    expect(existsSync(p.settings)).toBe(false);
  });

  it('without an armed lock a grant is the token alone', () => {
    const p = project();
    expect(grantLift(p.leopold, 'push', now, home)).toEqual({ armed: false });
    expect(existsSync(join(p.leopold, 'ALLOW_PUSH'))).toBe(true);
    expect(existsSync(p.settings)).toBe(false);
  });
});

describe('the remotes', () => {
  it('reads a host or a local path from every URL form git accepts', () => {
    expect(remoteTarget('https://github.com/o/r.git')).toEqual({ host: 'github.com' });
    expect(remoteTarget('ssh://git@GitLab.example:2222/o/r')).toEqual({ host: 'gitlab.example' });
    expect(remoteTarget('git@github.com:o/r.git')).toEqual({ host: 'github.com' });
    expect(remoteTarget('host.example:path/r')).toEqual({ host: 'host.example' });
    expect(remoteTarget('file:///srv/r.git')).toEqual({ path: '/srv/r.git' });
    expect(remoteTarget('/srv/r.git')).toEqual({ path: '/srv/r.git' });
    expect(remoteTarget('../r.git')).toEqual({ path: '../r.git' });
  });

  it('puts network remotes on the sandbox deny list and makes local ones read-only, until push is granted; release takes both back', () => {
    const p = project();
    execFileSync('git', ['remote', 'add', 'origin', 'git@github.com:o/r.git'], { cwd: p.root });
    execFileSync('git', ['remote', 'add', 'mirror', '../mirror.git'], { cwd: p.root });
    execFileSync('git', ['config', 'url.https://gitlab.example/.pushInsteadOf', 'gl:'], { cwd: p.root });
    execFileSync('git', ['remote', 'add', 'rewritten', 'gl:o/r'], { cwd: p.root });
    armLock(p.leopold, { now, requireSandbox: false, home });
    const sandbox = json(p.settings).sandbox;
    expect(sandbox.network.deniedDomains).toEqual(['github.com', 'gitlab.example']);
    expect(sandbox.filesystem.denyWrite).toContain(join(p.root, '..', 'mirror.git'));
    expect(readFileSync(join(p.leopold, 'lock.json'), 'utf8')).not.toContain(p.root);
    grantLift(p.leopold, 'push', now, home);
    expect(json(p.settings).sandbox.network.deniedDomains).toBeUndefined();
    expect(json(p.settings).sandbox.filesystem.denyWrite).not.toContain(join(p.root, '..', 'mirror.git'));
    rmSync(join(p.leopold, 'ALLOW_PUSH'));
    armLock(p.leopold, { now, requireSandbox: false, home });
    expect(json(p.settings).sandbox.network.deniedDomains).toEqual(['github.com', 'gitlab.example']);
    releaseLock(p.leopold);
    expect(existsSync(p.settings)).toBe(false);
  });
});

describe('commands the user runs outside the sandbox', () => {
  it('are found in every settings file and named in the warning', () => {
    const p = project();
    const home = tempDir('leopold-lock-home-');
    made.push(home);
    mkdirSync(join(p.root, '.claude'), { recursive: true });
    writeFileSync(join(p.root, '.claude', 'settings.json'), JSON.stringify({ sandbox: { excludedCommands: ['git', 'docker'] } }));
    expect(excludedCommands(p.root, home)).toEqual([{ file: join(p.root, '.claude', 'settings.json'), commands: ['git', 'docker'] }]);
    expect(excludedWarning(excludedCommands(p.root, home))).toMatch(/^warning\[sandbox-excluded\]: .*settings\.json: git, docker/);
    rmSync(join(p.root, '.claude', 'settings.json'));
    expect(excludedWarning(excludedCommands(p.root, home))).toBeNull();
  });
});

describe('what fires after the run', () => {
  it('is denied to Bash (the sandbox) and to the file tools (rules): git hooks, config, info/, submodules, redirects, pending state, package-manager config, node_modules/.bin', () => {
    const p = project();
    mkdirSync(join(p.root, 'node_modules'));
    armLock(p.leopold, { now, requireSandbox: false, home });
    const settings = json(p.settings);
    const denyWrite: string[] = settings.sandbox.filesystem.denyWrite;
    for (const path of ['.git/hooks', '.git/config', '.git/info', '.git/modules', '.git/commondir', '.git/config.worktree', '.git/CHERRY_PICK_HEAD', '.git/REVERT_HEAD', '.git/sequencer', '.npmrc', '.yarnrc', '.yarnrc.yml', 'bunfig.toml', 'node_modules/.bin']) {
      expect(denyWrite, path).toContain(join(p.root, path));
    }
    // MERGE_HEAD: a pattern rule for the file tools, never a path the sandbox would mount a device at.
    expect(denyWrite).not.toContain(join(p.root, '.git', 'MERGE_HEAD'));
    expect(settings.permissions.deny).toEqual(expect.arrayContaining(['Edit(/.git/MERGE_HEAD*)', 'Edit(/.git/hooks/**)', 'Edit(/.npmrc)', 'Edit(/node_modules/.bin/**)', 'Edit(/.vscode/**)', 'Edit(/.mcp.json)']));
    expect(settings.permissions.deny.some((rule: string) => rule.startsWith('Edit(/.git/MERGE_HEAD)'))).toBe(false);
    // Nothing outside the project for the file tools; the project stays a working directory.
    expect(settings.permissions.blockWritesOutsideWorkingDirectories).toBe(true);
    expect(settings.permissions.additionalDirectories).toEqual([p.root]);
    // The stand-ins: what git and the package managers read as "absent".
    expect(readFileSync(join(p.root, '.git', 'commondir'), 'utf8')).toBe('.\n');
    expect(readFileSync(join(p.root, '.npmrc'), 'utf8')).toBe('');
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: p.root, encoding: 'utf8' })).not.toMatch(/npmrc|yarnrc|bunfig/);
    expect(execFileSync('git', ['rev-parse', '--git-dir'], { cwd: p.root, encoding: 'utf8' }).trim()).toBe('.git');
    releaseLock(p.leopold);
    expect(existsSync(join(p.root, '.git', 'commondir'))).toBe(false);
    expect(existsSync(join(p.root, '.npmrc'))).toBe(false);
    expect(existsSync(join(p.root, 'node_modules', '.bin'))).toBe(false);
  });

  it('a git grant lifts the pending-state denials with the refs; the rest stays', () => {
    const p = project();
    armLock(p.leopold, { now, requireSandbox: false, home });
    grantLift(p.leopold, 'git', now, home);
    const denyWrite: string[] = json(p.settings).sandbox.filesystem.denyWrite;
    expect(denyWrite).not.toContain(join(p.root, '.git', 'sequencer'));
    expect(denyWrite).toContain(join(p.root, '.git', 'hooks'));
    expect(denyWrite).toContain(join(p.root, '.npmrc'));
    releaseLock(p.leopold);
    expect(existsSync(p.settings)).toBe(false);
  });

  it('denies core.hooksPath\'s directory and the user-level config that exists; releasing restores the permission switches', () => {
    const p = project();
    mkdirSync(join(p.root, '.husky'));
    execFileSync('git', ['config', 'core.hooksPath', '.husky'], { cwd: p.root });
    const own = tempDir('leopold-lock-own-home-');
    writeFileSync(join(own, '.gitconfig'), '[user]\n\tname = Me\n');
    mkdirSync(join(p.root, '.claude'));
    const before = `${JSON.stringify({ permissions: { blockWritesOutsideWorkingDirectories: false, additionalDirectories: ['/elsewhere'] } }, null, 2)}\n`;
    writeFileSync(p.settings, before);
    armLock(p.leopold, { now, requireSandbox: false, home: own });
    const settings = json(p.settings);
    expect(settings.sandbox.filesystem.denyWrite).toEqual(expect.arrayContaining([join(p.root, '.husky'), join(own, '.gitconfig')]));
    expect(settings.sandbox.filesystem.denyWrite).not.toContain(join(own, '.npmrc'));
    expect(settings.permissions).toMatchObject({ blockWritesOutsideWorkingDirectories: true, additionalDirectories: ['/elsewhere', p.root] });
    expect(readFileSync(join(p.leopold, 'lock.json'), 'utf8')).not.toContain(own);
    releaseLock(p.leopold);
    expect(readFileSync(p.settings, 'utf8')).toBe(before);
  });

  it('in a linked worktree: its .git file and its own HEAD are denied, the main repository\'s hooks and config too', () => {
    const p = project();
    execFileSync('git', ['-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: p.root });
    const linked = join(p.root, '..', `${p.root.split('/').at(-1)}-wt`);
    made.push(linked);
    execFileSync('git', ['worktree', 'add', '-q', linked], { cwd: p.root });
    mkdirSync(join(linked, '.leopold'), { recursive: true });
    armLock(join(linked, '.leopold'), { now, requireSandbox: false, home });
    const denyWrite: string[] = json(join(linked, '.claude', 'settings.local.json')).sandbox.filesystem.denyWrite;
    const worktreeGitDir = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-dir'], { cwd: linked, encoding: 'utf8' }).trim();
    expect(denyWrite).toEqual(expect.arrayContaining([join(linked, '.git'), join(worktreeGitDir, 'HEAD'), join(worktreeGitDir, 'commondir'), join(p.root, '.git', 'hooks'), join(p.root, '.git', 'config')]));
    // Its commondir is git's own: denied as it is, never replaced.
    expect(readFileSync(join(worktreeGitDir, 'commondir'), 'utf8')).not.toBe('.\n');
    releaseLock(join(linked, '.leopold'));
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: linked, encoding: 'utf8' })).toBe('');
  });
});

describe('programs the lock runs', () => {
  it('come from PATH without the project and without any node_modules/.bin', () => {
    const root = '/work/p';
    expect(trustedPathEntries(root, `/work/p/node_modules/.bin:/work/p/bin:/other/node_modules/.bin:relative:/usr/bin:/bin`)).toEqual(['/usr/bin', '/bin']);
    expect(trustedPathEntries('', '/a/node_modules/.bin:/usr/local/bin')).toEqual(['/usr/local/bin']);
  });
});

describe('the OS layer, for the git guard', () => {
  it('lock.json records whether the sandbox can run and which commands it excludes; a re-arm by a grant keeps it', () => {
    const p = project();
    armLock(p.leopold, { now, requireSandbox: false, sandbox: { available: true, excludedCommands: ['docker', 'git', 'docker'] } });
    expect(readLockRecord(p.leopold)?.sandbox).toEqual({ armed: true, available: true, excluded_commands: ['docker', 'git'] });
    grantLift(p.leopold, 'git', now);
    expect(readLockRecord(p.leopold)?.sandbox).toEqual({ armed: true, available: true, excluded_commands: ['docker', 'git'] });
    // A re-arm that probes from inside the sandbox sees no sandbox: the record keeps the one it had.
    armLock(p.leopold, { now, requireSandbox: false, sandbox: { available: false, excludedCommands: [] } });
    expect(readLockRecord(p.leopold)?.sandbox).toEqual({ armed: true, available: true, excluded_commands: ['docker', 'git'] });
  });

  it('a sandbox found on a later arm is recorded (it was unavailable at first)', () => {
    const p = project();
    armLock(p.leopold, { now, requireSandbox: false, sandbox: { available: false, excludedCommands: [] } });
    armLock(p.leopold, { now, requireSandbox: false, sandbox: { available: true, excludedCommands: ['docker'] } });
    expect(readLockRecord(p.leopold)?.sandbox).toEqual({ armed: true, available: true, excluded_commands: ['docker'] });
  });

  it('is absent when arming was not told (the guard then assumes no OS layer)', () => {
    const p = project();
    armLock(p.leopold, { now, requireSandbox: false });
    expect(readLockRecord(p.leopold)?.sandbox).toBeUndefined();
  });
});

describe('a headless client waits for a background workflow while the lock is armed', () => {
  const CEILING = 'CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS';
  const settingsOf = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { env?: Record<string, string> };

  it('arming sets the ceiling to 0 (wait indefinitely) in settings.local.json env, and releasing removes it', () => {
    const p = project();
    armLock(p.leopold, { now, requireSandbox: false, home });
    expect(settingsOf(p.settings).env).toEqual({ [CEILING]: '0' });
    expect(readLockRecord(p.leopold)?.added_env).toEqual([CEILING]);
    grantLift(p.leopold, 'git', now, home);
    expect(settingsOf(p.settings).env).toEqual({ [CEILING]: '0' });
    releaseLock(p.leopold);
    expect(existsSync(p.settings)).toBe(false);
  });

  it('a ceiling you set yourself is kept, and so are your other env entries', () => {
    const p = project();
    mkdirSync(join(p.root, '.claude'), { recursive: true });
    writeFileSync(p.settings, `${JSON.stringify({ env: { [CEILING]: '600000', MINE: 'x' } })}\n`);
    armLock(p.leopold, { now, requireSandbox: false, home });
    expect(settingsOf(p.settings).env).toEqual({ [CEILING]: '600000', MINE: 'x' });
    expect(readLockRecord(p.leopold)?.added_env).toBeUndefined();
    releaseLock(p.leopold);
    expect(settingsOf(p.settings).env).toEqual({ [CEILING]: '600000', MINE: 'x' });
  });
});

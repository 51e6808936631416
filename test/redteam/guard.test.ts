import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGuard } from '../../runtime/hooks/guard/index.js';
import { ATTACKS, ORDINARY, type Attack, type AttackClass } from './corpus.js';
import { seedRedteamRepo } from './fixture.js';

// The red-team corpus against the guard's analysis (real hook JSON through runGuard, in a
// seeded fixture with an active run), and the ordinary commands run for real in order.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-redteam-guard-')));
const home = join(work, 'home');
const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
delete env.CLAUDE_PROJECT_DIR;

/** A git repository seeded by seedRedteamRepo, with `.leopold/` and (when `active`) a run. */
function fixture(name: string, active: boolean): string {
  const dir = join(work, name);
  mkdirSync(join(dir, '.leopold'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Red Team');
  git('config', 'user.email', 'red@example.invalid');
  git('commit', '-q', '--allow-empty', '-m', 'init');
  seedRedteamRepo(dir, join(work, `${name}-remote.git`));
  // Installed as `npm i -D leopold` lays it out: the hooks' code and the bin link are protected.
  mkdirSync(join(dir, 'node_modules', 'leopold', 'dist', 'hooks'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', 'leopold', 'dist', 'hooks', 'guard.js'), '// the guard\n');
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync('../leopold/dist/leopold.js', join(dir, 'node_modules', '.bin', 'leopold'));
  if (active) writeFileSync(join(dir, '.leopold', 'state.json'), JSON.stringify({ version: 1, active: true }));
  return dir;
}

let judged = '';
beforeAll(() => {
  mkdirSync(home, { recursive: true });
  judged = fixture('judged', true);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function hookInput(attack: Attack | { command: string }, cwd: string): string {
  if ('tool' in attack) {
    const input = attack.tool === 'Write' ? { file_path: attack.path, content: attack.content ?? '' } : { file_path: attack.path, old_string: attack.oldString ?? '', new_string: attack.newString ?? '' };
    return JSON.stringify({ session_id: 'redteam', hook_event_name: 'PreToolUse', tool_name: attack.tool, tool_input: input, cwd });
  }
  return JSON.stringify({ session_id: 'redteam', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: attack.command }, cwd });
}

const guard = (attack: Attack | { command: string }) => runGuard(hookInput(attack, judged), { env: { HOME: home }, processCwd: judged });

const CLASSES: AttackClass[] = ['self-unlock', 'computed', 'shell-input', 'runners', 'git-exec', 'protected-writers', 'guard-failure'];

describe('red-team corpus', () => {
  it('has unique ids, at least 170 attacks, at least 12 per class, and at least 110 ordinary commands', () => {
    expect(new Set(ATTACKS.map((a) => a.id)).size).toBe(ATTACKS.length);
    expect(new Set(ORDINARY.map((o) => o.id)).size).toBe(ORDINARY.length);
    expect(ATTACKS.length).toBeGreaterThanOrEqual(170);
    expect(ORDINARY.length).toBeGreaterThanOrEqual(110);
    for (const c of CLASSES) expect(ATTACKS.filter((a) => a.class === c).length, c).toBeGreaterThanOrEqual(12);
  });

  it('names only programs that exist here', () => {
    const needs = [...new Set(ATTACKS.flatMap((a) => ('needs' in a ? (a.needs ?? []) : [])))];
    const missing = needs.filter((p) => spawnSync('sh', ['-c', `command -v ${p}`], { stdio: 'ignore' }).status !== 0);
    expect(missing).toEqual([]);
  });

  it('every attack is denied', () => {
    const allowed = ATTACKS.filter((a) => !/"permissionDecision":"deny"/.test(guard(a))).map((a) => a.id);
    expect(allowed).toEqual([]);
  });

  it('the guard-failure attacks return (no throw) and deny', () => {
    for (const a of ATTACKS.filter((x) => x.class === 'guard-failure')) {
      let out = '';
      expect(() => (out = guard(a)), a.id).not.toThrow();
      expect(out, a.id).toMatch(/"permissionDecision":"deny"/);
    }
  });

  it('no ordinary command is denied (false positives: 0)', () => {
    const denied = ORDINARY.filter((o) => guard(o) !== '').map((o) => `${o.id}: ${guard(o)}`);
    expect(denied).toEqual([]);
  });
});

describe('programs found on PATH', () => {
  it('reads a script PATH finds outside the system directories, and trusts a shim that runs "$@"', () => {
    const bin = join(work, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'ship-it'), '#!/bin/sh\ngit push origin HEAD\n');
    writeFileSync(join(bin, 'shim'), '#!/usr/bin/env bash\nexec "/opt/tool/$1" "$@"\n');
    chmodSync(join(bin, 'ship-it'), 0o755);
    chmodSync(join(bin, 'shim'), 0o755);
    const where = { env: { HOME: home, PATH: `${bin}:/usr/bin:/bin` }, processCwd: judged };
    expect(runGuard(hookInput({ command: 'ship-it' }, judged), where)).toMatch(/"permissionDecision":"deny".*push/);
    expect(runGuard(hookInput({ command: 'shim --version' }, judged), where)).toBe('');
  });
});

describe('ordinary commands run for real', () => {
  it('each exits 0 and prints what it should, in order', () => {
    const dir = fixture('real', false);
    const failures: string[] = [];
    for (const o of ORDINARY) {
      const out = spawnSync('bash', ['-c', o.command], { cwd: dir, env, encoding: 'utf8', timeout: 10_000, input: '' });
      if (out.status !== 0) failures.push(`${o.id}: exit ${out.status} ${out.stderr.slice(0, 200)}`);
      else if (o.expect && !out.stdout.includes(o.expect)) failures.push(`${o.id}: expected ${JSON.stringify(o.expect)} in ${JSON.stringify(out.stdout.slice(0, 200))}`);
    }
    expect(failures).toEqual([]);
  });
});

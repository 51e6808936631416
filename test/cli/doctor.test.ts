import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { privatePackage } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

// `leopold doctor` through the built CLI of a private package (what `npm i -D leopold`
// leaves): on a fresh init every check passes; a broken hook command, a `node` on PATH too
// old for the package, a second Stop hook, a broken plan or state each fail with why and
// the fix, and the exit code says so.

let pkg: string;
beforeAll(async () => {
  pkg = await privatePackage();
});

interface Check {
  id: string;
  status: 'pass' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

/** A git repository with the package installed in node_modules and `leopold init` run. */
function project(): { dir: string; home: string } {
  const base = tempDir('leopold-doctor-');
  const dir = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(dir);
  mkdirSync(home);
  execFileSync('git', ['init', '-q', dir]);
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(pkg, join(dir, 'node_modules', 'leopold'));
  symlinkSync('../leopold/dist/leopold.js', join(dir, 'node_modules', '.bin', 'leopold'));
  const init = doctorRun(dir, home, ['init']);
  expect(init.code, init.stderr).toBe(0);
  return { dir, home };
}

function doctorRun(dir: string, home: string, args: string[], path = process.env.PATH ?? '') {
  const out = spawnSync(process.execPath, [join(pkg, 'dist', 'leopold.js'), ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, HOME: home, PATH: path, CLAUDE_CODE_SESSION_ID: '', CLAUDECODE: '' } });
  return { code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr };
}

function doctor(dir: string, home: string, path?: string): { code: number; checks: Record<string, Check>; text: string } {
  const json = doctorRun(dir, home, ['doctor', '--json'], path);
  const text = doctorRun(dir, home, ['doctor'], path);
  expect(text.code).toBe(json.code);
  const parsed = JSON.parse(json.stdout) as { ok: boolean; checks: Check[] };
  expect(parsed.ok).toBe(json.code === 0);
  return { code: json.code, checks: Object.fromEntries(parsed.checks.map((c) => [c.id, c])), text: text.stdout };
}

describe('leopold doctor', () => {
  it('passes on a fresh init, checking each link of the chain', () => {
    const { dir, home } = project();
    const { code, checks, text } = doctor(dir, home);
    expect(Object.keys(checks)).toEqual(['node', 'settings', 'hooks', 'duplicates', 'package', 'sandbox', 'plan', 'run']);
    for (const check of Object.values(checks)) expect(check.id === 'sandbox' ? ['pass', 'warn'] : ['pass'], `${check.id}: ${check.detail}`).toContain(check.status);
    expect(code).toBe(0);
    expect(checks.node!.detail).toMatch(/is v\d+\.\d+\.\d+ \(the package needs node >=20\.19\)$/);
    expect(checks.hooks!.detail).toMatch(/^3 Leopold hook commands start and answer an empty input with nothing \(fail open\): the git guard, the Stop hook, the StopFailure hook$/);
    expect(text).toMatch(/^pass  hooks +3 Leopold hook commands/m);
    expect(text).toMatch(/^All 8 checks passed( \(1 warning\))?\.$/m);
  });

  it('a hook command that cannot start fails the doctor with the reason and the fix', () => {
    const { dir, home } = project();
    const settingsFile = join(dir, '.claude', 'settings.json');
    // What an install that moved leaves behind: the Stop hook points where there is no bundle.
    writeFileSync(settingsFile, readFileSync(settingsFile, 'utf8').replace('node_modules/leopold/dist/hooks/stop.js', 'vendor/leopold/dist/hooks/stop.js').replace('node_modules/leopold/dist/hooks/stop-failure.js', 'vendor/leopold/dist/hooks/stop-failure.js'));
    const { code, checks, text } = doctor(dir, home);
    expect(code).toBe(1);
    expect(checks.hooks).toMatchObject({ status: 'fail' });
    expect(checks.hooks!.detail).toMatch(/^the Stop hook \(\.claude\/settings\.json: node "\$CLAUDE_PROJECT_DIR"\/vendor\/leopold\/dist\/hooks\/stop\.js\) failed to start, exit 1: Error: Cannot find module '.*\/vendor\/leopold\/dist\/hooks\/stop\.js'$/m);
    // The StopFailure hook runs detached from the client, so its failure to start would go unseen there: the doctor starts it in the foreground.
    expect(checks.hooks!.detail).toMatch(/^the StopFailure hook \(\.claude\/settings\.json: trap '' HUP INT TERM; exec 3<&0; \(node "\$CLAUDE_PROJECT_DIR"\/vendor\/leopold\/dist\/hooks\/stop-failure\.js <&3 &\) > \/dev\/null 2>&1\) failed to start, exit 1: Error: Cannot find module/m);
    expect(checks.hooks!.fix).toMatch(/npx leopold init/);
    expect(checks.settings).toMatchObject({ status: 'fail' });
    expect(text).toMatch(/^fail  hooks +the Stop hook/m);
    expect(text).toMatch(/^ +fix: run npm i -D leopold/m);
    expect(text).toMatch(/^2 of 8 checks failed/m);
  });

  it('a node on PATH older than the package needs fails, naming the version and how to fix it', () => {
    const { dir, home } = project();
    const fake = tempDir('leopold-old-node-');
    writeFileSync(join(fake, 'node'), '#!/bin/sh\necho v18.19.0\n');
    chmodSync(join(fake, 'node'), 0o755);
    const { code, checks } = doctor(dir, home, `${fake}${delimiter}${process.env.PATH ?? ''}`);
    expect(code).toBe(1);
    expect(checks.node).toMatchObject({ status: 'fail', detail: `${join(fake, 'node')} is v18.19.0, older than the package needs (node >=20.19): the hooks fail to load` });
    expect(checks.node!.fix).toMatch(/^install Node 20\.19 or later and put it first on the PATH Claude Code is started with/);
    // The hooks start with that node too, and do not answer as a hook does.
    expect(checks.hooks).toMatchObject({ status: 'fail' });
  });

  it('a second Stop hook (a user-level install beside the project\'s) fails as a duplicate', () => {
    const { dir, home } = project();
    mkdirSync(join(home, '.claude'));
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'node /opt/leopold/dist/hooks/stop.js' }] }] } }));
    const { code, checks } = doctor(dir, home);
    expect(code).toBe(1);
    expect(checks.duplicates!.status).toBe('fail');
    expect(checks.duplicates!.detail).toMatch(/^2 Stop hooks run on Stop: node \/opt\/leopold\/dist\/hooks\/stop\.js \(~\/\.claude\/settings\.json\) and node "\$CLAUDE_PROJECT_DIR"\/node_modules\/leopold\/dist\/hooks\/stop\.js \(\.claude\/settings\.json\)$/);
    expect(checks.duplicates!.fix).toMatch(/keep one registration per hook/);
  });

  it('a plan with errors and a corrupt state.json fail with what graph --strict says and what to do', () => {
    const { dir, home } = project();
    writeFileSync(join(dir, '.leopold', 'PLAN.md'), '# Plan\n\n- [ ] Start\n  @on ok -> 99\n');
    writeFileSync(join(dir, '.leopold', 'state.json'), '{ not json');
    const { code, checks } = doctor(dir, home);
    expect(code).toBe(1);
    expect(checks.plan!.status).toBe('fail');
    expect(checks.plan!.detail).toMatch(/^\.leopold\/PLAN\.md:4:3: error dangling-edge: /);
    expect(checks.plan!.fix).toMatch(/leopold graph --strict/);
    expect(checks.run).toMatchObject({ status: 'fail' });
    expect(checks.run!.detail).toMatch(/^\.leopold\/state\.json is corrupt/);
  });

  it('an active run is checked: its lock armed, its owner named', () => {
    const { dir, home } = project();
    expect(doctorRun(dir, home, ['run', 'start']).code).toBe(0);
    const { checks } = doctor(dir, home);
    expect(checks.run!.status).toBe('pass');
    expect(checks.run!.detail).toMatch(/^an active session run since \S+, owner: none yet .*; state\.json parses, the lock is armed$/);
  });

  it('a run an API error ended warns with what failed (a session turn, a workflow agent) and how to resume', () => {
    const { dir, home } = project();
    for (const [engine, who] of [['session', 'a turn'], ['workflow', 'an agent']] as const) {
      const ended = { version: 1, active: false, engine, stop_reason: 'api_error', api_error: { error: 'rate_limit', retryable: true, at: '2999-01-01T00:00:00.000Z' } };
      writeFileSync(join(dir, '.leopold', 'state.json'), JSON.stringify(ended));
      const { checks } = doctor(dir, home);
      expect(checks.run).toMatchObject({ status: 'warn', detail: `the last run ended on an API error: ${who} died on an API error: rate_limit: the API rate-limited this session (HTTP 429); wait for the limit to reset. A retry can help.` });
      expect(checks.run!.fix).toMatch(engine === 'workflow' ? /^When the API answers again, resume with \/leopold-workflow / : /^When the API answers again, resume with \/leopold-run /);
    }
  });
});

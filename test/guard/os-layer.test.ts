import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGuard } from '../../runtime/hooks/guard/index.js';
import { tempDir } from '../support/temp.js';

// Which mode the registered hook judges in: the OS layer counts only when .leopold/lock.json
// records the sandbox armed and available, the call does not ask to run unsandboxed, and
// the command names no program the settings exclude from the sandbox (recorded at arming
// or added since). Real hook JSON through runGuard, in projects on disk.

const COMPUTED = '$PYTHON -m pytest';

function project(lock: unknown, settings?: unknown): { dir: string; home: string } {
  const dir = realpathSync(tempDir('leopold-guard-os-'));
  const home = join(dir, 'home');
  mkdirSync(join(dir, '.leopold'));
  mkdirSync(home);
  writeFileSync(join(dir, '.leopold', 'state.json'), '{"version":1,"active":true}');
  if (lock !== null) writeFileSync(join(dir, '.leopold', 'lock.json'), typeof lock === 'string' ? lock : JSON.stringify(lock));
  if (settings !== undefined) {
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify(settings));
  }
  return { dir, home };
}

const RECORD = { version: 1, armed_at: '2026-01-01T00:00:00.000Z', grants: [], require_sandbox: false };
const armed = (sandbox: unknown) => ({ ...RECORD, sandbox });

function guard(p: { dir: string; home: string }, command: string, extra: Record<string, unknown> = {}): string {
  const stdin = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command, ...extra }, cwd: p.dir });
  return runGuard(stdin, { env: { HOME: p.home }, processCwd: p.dir });
}

describe('the OS layer, as the hook sees it', () => {
  it('lets a computed command run when lock.json records the sandbox armed and available', () => {
    const p = project(armed({ armed: true, available: true, excluded_commands: [] }));
    expect(guard(p, COMPUTED)).toBe('');
    expect(guard(p, '$GIT push origin main')).toMatch(/"permissionDecision":"deny".*the git verb push/);
    expect(guard(p, 'git commit -m x')).toMatch(/"permissionDecision":"deny"/);
  });

  it.each([
    ['no lock.json (a run without the lock)', null],
    ['a record from before the field', RECORD],
    ['the sandbox unavailable at arming', armed({ armed: true, available: false, excluded_commands: [] })],
    ['a corrupt record', '{not json'],
  ])('refuses it with %s', (_why, lock) => {
    expect(guard(project(lock), COMPUTED)).toMatch(/"permissionDecision":"deny".*computed at run time/);
  });

  it('refuses it when the call asks to run unsandboxed', () => {
    const p = project(armed({ armed: true, available: true, excluded_commands: [] }));
    expect(guard(p, COMPUTED, { dangerouslyDisableSandbox: true })).toMatch(/"permissionDecision":"deny"/);
  });

  it('refuses it when the command names a program the sandbox excludes, recorded at arming or added to the settings since', () => {
    const recorded = project(armed({ armed: true, available: true, excluded_commands: ['python3', 'docker:*'] }));
    expect(guard(recorded, 'PYTHON=x; $PYTHON -m pytest')).toBe('');
    expect(guard(recorded, '$PY -m pytest && docker ps')).toMatch(/"permissionDecision":"deny"/);
    expect(guard(recorded, 'python3 -c "$CODE"')).toMatch(/"permissionDecision":"deny"/);
    const live = project(armed({ armed: true, available: true, excluded_commands: [] }), { sandbox: { excludedCommands: ['make'] } });
    expect(guard(live, '$TOOL build')).toBe('');
    expect(guard(live, 'make && $TOOL build')).toMatch(/"permissionDecision":"deny"/);
    const home = project(armed({ armed: true, available: true, excluded_commands: [] }));
    mkdirSync(join(home.home, '.claude'));
    writeFileSync(join(home.home, '.claude', 'settings.json'), JSON.stringify({ sandbox: { excludedCommands: ['*'] } }));
    expect(guard(home, COMPUTED)).toMatch(/"permissionDecision":"deny"/);
  });
});

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtHook } from '../support/built-dist.js';

// The built hooks with real hook JSON on stdin: `node dist/hooks/guard.js` (what `leopold
// init` registers) and `node dist/leopold.js hook guard` must answer the same way.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-guard-bin-')));
let bins: Record<string, string[]> = {};

beforeAll(async () => {
  bins = await builtHook(work, 'guard');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
/** A fresh project; `state` is written to .leopold/state.json unless null. */
function project(state: unknown = { version: 1, active: true }, files: string[] = []): string {
  const dir = join(work, `p${n++}`);
  mkdirSync(join(dir, '.leopold'), { recursive: true });
  mkdirSync(join(dir, 'src'));
  if (state !== null) writeFileSync(join(dir, '.leopold', 'state.json'), typeof state === 'string' ? state : JSON.stringify(state));
  for (const f of files) writeFileSync(join(dir, '.leopold', f), 'Granted by the test.\n');
  return dir;
}

const bash = (command: string, cwd: string) => JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd });

function run(bin: string, stdin: string | Buffer, opts: { cwd?: string; projectDir?: string } = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (opts.projectDir) env.CLAUDE_PROJECT_DIR = opts.projectDir;
  else delete env.CLAUDE_PROJECT_DIR;
  const out = spawnSync(process.execPath, bins[bin] as string[], { input: stdin, cwd: opts.cwd ?? work, encoding: 'utf8', env, maxBuffer: 1 << 26 });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

function denyReason(stdout: string): string {
  const parsed = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; permissionDecision: string; permissionDecisionReason: string } };
  expect(parsed.hookSpecificOutput.hookEventName).toBe('PreToolUse');
  expect(parsed.hookSpecificOutput.permissionDecision).toBe('deny');
  return parsed.hookSpecificOutput.permissionDecisionReason;
}

describe.each(['dist/hooks/guard.js', 'dist/leopold.js hook guard'])('%s', (bin) => {
  it('says nothing when no run is active', () => {
    for (const dir of [project(null), project({ version: 1, active: false }), join(work, 'nowhere')]) {
      const r = run(bin, bash('git push --force', dir), { cwd: work });
      expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
  });

  it('denies commit, push and force-push with a reason while a run is active', () => {
    const dir = project();
    expect(denyReason(run(bin, bash('git commit -m x', dir)).stdout)).toMatch(/ALLOW_GIT/);
    expect(denyReason(run(bin, bash('bash -c "git push"', dir)).stdout)).toMatch(/ALLOW_PUSH/);
    expect(denyReason(run(bin, bash('git push -f', dir)).stdout)).toMatch(/never allowed/);
    expect(run(bin, bash('git status && npm test', dir))).toMatchObject({ code: 0, stdout: '' });
  });

  it('honours the tokens, except for force-pushes', () => {
    const dir = project(undefined, ['ALLOW_GIT', 'ALLOW_PUSH']);
    expect(run(bin, bash('git commit -m x && git push', dir))).toMatchObject({ code: 0, stdout: '' });
    expect(denyReason(run(bin, bash('git push --force-with-lease', dir)).stdout)).toMatch(/force/);
  });

  it('an empty token file is no token (the sandbox leaves empty placeholders at denied paths)', () => {
    const dir = project();
    writeFileSync(join(dir, '.leopold', 'ALLOW_GIT'), '');
    writeFileSync(join(dir, '.leopold', 'ALLOW_PUSH'), '');
    expect(denyReason(run(bin, bash('git commit -m x', dir)).stdout)).toMatch(/ALLOW_GIT/);
    expect(denyReason(run(bin, bash('git push', dir)).stdout)).toMatch(/ALLOW_PUSH/);
  });

  it('finds .leopold/ from CLAUDE_PROJECT_DIR, or by walking up from cwd', () => {
    const dir = project();
    expect(run(bin, bash('git push', '/'), { projectDir: dir }).stdout).not.toBe('');
    expect(run(bin, bash('git push', join(dir, 'src')), { cwd: '/' }).stdout).not.toBe('');
  });

  it('denies Write/Edit of GUARDRAILS.md and removal of the kill switch', () => {
    const dir = project();
    for (const tool of ['Write', 'Edit', 'MultiEdit']) {
      const input = JSON.stringify({ tool_name: tool, tool_input: { file_path: join(dir, '.leopold', 'GUARDRAILS.md'), content: 'x' }, cwd: dir });
      expect(denyReason(run(bin, input).stdout)).toMatch(/GUARDRAILS/);
      const other = JSON.stringify({ tool_name: tool, tool_input: { file_path: join(dir, 'src', 'x.ts') }, cwd: dir });
      expect(run(bin, other)).toMatchObject({ code: 0, stdout: '' });
    }
    expect(denyReason(run(bin, bash('rm -f .leopold/STOP', dir)).stdout)).toMatch(/kill switch/);
  });

  it('never crashes on bad input: empty, garbage, wrong shapes, huge', () => {
    const dir = project();
    const inputs: (string | Buffer)[] = [
      '',
      'garbage',
      '{"tool_name":',
      '[]',
      'null',
      '42',
      '{}',
      JSON.stringify({ tool_name: 'Bash' }),
      JSON.stringify({ tool_name: 'Bash', tool_input: { command: 42 }, cwd: dir }),
      JSON.stringify({ tool_name: 'Write', tool_input: null, cwd: dir }),
      JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: 'relative/path' }),
      Buffer.from([0xff, 0xfe, 0x00, 0x01]),
      'x'.repeat(4 << 20),
    ];
    for (const input of inputs) {
      const r = run(bin, input, { cwd: dir });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('');
    }
  });

  it('judges a huge command through the fail-closed net', () => {
    const dir = project();
    const huge = `${'echo x; '.repeat(200_000)}git push`;
    expect(denyReason(run(bin, bash(huge, dir)).stdout)).toMatch(/push/);
    // (Not `((((…))))`: bash reads that as arithmetic, where `git push` is a syntax error and runs nothing.)
    const deep = `${'( '.repeat(5000)}git push${' )'.repeat(5000)}`;
    expect(denyReason(run(bin, bash(deep, dir)).stdout)).toMatch(/push/);
  });

  it('treats a corrupt state.json as no run, and works in a read-only .leopold/', () => {
    for (const corrupt of ['{not json', '', '{"active":"yes"}', '[true]']) {
      expect(run(bin, bash('git push', project(corrupt)))).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    const dir = project();
    chmodSync(join(dir, '.leopold'), 0o555);
    try {
      expect(denyReason(run(bin, bash('git push', dir)).stdout)).toMatch(/push/);
      expect(run(bin, bash('git status', dir))).toMatchObject({ code: 0, stdout: '', stderr: '' });
    } finally {
      chmodSync(join(dir, '.leopold'), 0o755);
    }
  });
});

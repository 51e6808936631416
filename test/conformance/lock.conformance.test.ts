import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_CLI, PROJECT_CLI_RULE } from '../../runtime/project-cli/index.js';
import { WORKFLOW_TOOLS, projectFixtures, runReal, type Project } from './harness.js';

// The OS lock's life in the real client: the user arms it (run start), the agent cannot
// lift or widen it, a grant the user gives takes effect in the next session and ends with
// the run, and lifting it leaves the settings as they were. Arming from inside a session holds from the next
// command; a session started in a subdirectory can still write the project, not the lock.

const fixtures = projectFixtures();
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const bash = (command: string) => ({ tool: 'Bash', input: { command, timeout: 10_000 } });
/** Python writing `path`, the name hidden from any text check (only the OS can stop it). */
const hiddenWrite = (path: string) => `python3 -c "import base64; open(base64.b64decode('${Buffer.from(path).toString('base64')}').decode(), 'w').write('forged')"`;
const hiddenCommit = (message: string) => `python3 -c "import os, base64; os.system(base64.b64decode('${Buffer.from(`git commit --allow-empty -q -m ${message}`).toString('base64')}').decode())"`;
const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
const TOOLS = `${PROJECT_CLI_RULE},Bash,Write,Edit`;

function withRemote(p: Project): string {
  const remote = join(p.home, '..', 'remote.git');
  git(p.home, 'init', '-q', '--bare', remote);
  git(p.dir, 'remote', 'add', 'origin', remote);
  git(p.dir, 'push', '-q', 'origin', 'main');
  return remote;
}

describe('the OS lock in the real client', () => {
  it('the agent cannot lift it; a grant from the user lets the next session commit, never push, and is gone in the next run; unlock restores the settings', async () => {
    const p = fixtures.project({ plan: '# Plan\n\n- [ ] Write the parser\n', files: { 'src/a.ts': 'export const a = 1;\n' } });
    const remote = withRemote(p);
    const settingsFile = join(p.dir, '.claude', 'settings.local.json');
    const settingsBefore = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : null;
    expect(p.leopold(['run', 'start']).code).toBe(0);
    const armed = readFileSync(settingsFile, 'utf8');
    const head = git(p.dir, 'rev-parse', 'HEAD');

    const first = await runReal(p, {
      prompt: 'Ship it.',
      mode: 'bypassPermissions',
      allowedTools: TOOLS,
      script: {
        main: [
          bash('git commit --allow-empty -m agent'),
          bash(`${PROJECT_CLI} run unlock`),
          bash(`${PROJECT_CLI} run allow git`),
          bash(hiddenWrite('.leopold/ALLOW_GIT')),
          bash(hiddenWrite('.claude/settings.local.json')),
          bash(hiddenCommit('hidden')),
          { text: 'done' },
        ],
      },
    });
    expect(first.client.timedOut).toBe(false);
    expect(git(p.dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(isFile(join(p.dir, '.leopold', 'lock.json'))).toBe(true);
    expect(isFile(join(p.dir, '.leopold', 'ALLOW_GIT'))).toBe(false);
    expect(readFileSync(settingsFile, 'utf8')).toBe(armed);

    // The user grants commits from their own terminal.
    const allow = p.leopold(['run', 'allow', 'git']);
    expect(allow.code, allow.stderr).toBe(0);
    const second = await runReal(p, {
      prompt: 'Commit it.',
      mode: 'bypassPermissions',
      allowedTools: TOOLS,
      script: { main: [bash('git commit --allow-empty -q -m granted'), bash('git push -q origin main'), bash(hiddenWrite('.leopold/ALLOW_PUSH')), { text: 'done' }] },
    });
    expect(second.client.timedOut).toBe(false);
    expect(git(p.dir, 'log', '-1', '--format=%s')).toBe('granted\n');
    expect(git(remote, 'rev-parse', 'main')).toBe(head);
    expect(isFile(join(p.dir, '.leopold', 'ALLOW_PUSH'))).toBe(false);

    // The grant lasts that run: the next one starts without it (docs/lock.md).
    expect(p.leopold(['run', 'finish']).code).toBe(0);
    expect(isFile(join(p.dir, '.leopold', 'ALLOW_GIT'))).toBe(false);
    expect(p.leopold(['run', 'start']).code).toBe(0);
    const third = await runReal(p, { prompt: 'Commit again.', mode: 'bypassPermissions', allowedTools: TOOLS, script: { main: [bash(hiddenCommit('after-the-grant')), { text: 'done' }] } });
    expect(third.client.timedOut).toBe(false);
    expect(git(p.dir, 'log', '--format=%s')).not.toContain('after-the-grant');

    // The user ends the run and lifts the lock: the settings are as they were.
    expect(p.leopold(['run', 'finish']).code).toBe(0);
    const unlock = p.leopold(['run', 'unlock']);
    expect(unlock.code, unlock.stderr).toBe(0);
    expect(existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : null).toBe(settingsBefore);
    expect(existsSync(join(p.dir, '.leopold', 'lock.json'))).toBe(false);
  });

  it('armed from inside a session, it holds from the next command', async () => {
    const p = fixtures.project({ plan: '# Plan\n\n- [ ] Write the parser\n' });
    const run = await runReal(p, {
      prompt: 'Start the run.',
      mode: 'bypassPermissions',
      allowedTools: TOOLS,
      script: { main: [bash(`${PROJECT_CLI} run start`), bash(hiddenWrite('.leopold/ALLOW_PUSH')), bash(hiddenCommit('after-arming')), { text: 'started' }] },
    });
    expect(run.client.timedOut).toBe(false);
    expect(isFile(join(p.dir, '.leopold', 'lock.json'))).toBe(true);
    expect(isFile(join(p.dir, '.leopold', 'ALLOW_PUSH'))).toBe(false);
    expect(git(p.dir, 'log', '--format=%s')).not.toContain('after-arming');
  });

  it("holds inside a workflow's agents: a hidden commit and a forged token have no effect, and the run still completes", async () => {
    const p = fixtures.project({ plan: '# Plan\n\n- [ ] Write the greeting module\n' });
    expect(p.leopold(['compile']).code).toBe(0);
    expect(p.leopold(['run', 'start', '--engine', 'workflow']).code).toBe(0);
    const head = git(p.dir, 'rev-parse', 'HEAD');
    const handoff = { status: 'completed', files_changed: [], tests_run: [{ command: 'npm test', result: 'pass', summary: 'ok' }], evidence: 'done', blocked_reason: '', concerns: [] };
    const script = {
      main: [{ tool: 'Workflow', input: { scriptPath: '.claude/workflows/leopold-run.js' } }, { text: 'launched' }],
      agents: [{ label: 'i1:implement', answers: [{ tools: [bash(hiddenWrite('.leopold/ALLOW_GIT')), bash(hiddenCommit('from-an-agent'))], value: handoff }] }],
    };
    const run = await runReal(p, { prompt: 'Run the Leopold workflow.', mode: 'bypassPermissions', allowedTools: `${WORKFLOW_TOOLS},Bash`, script });
    expect((run.results[0] as { stop: string }).stop).toBe('plan_complete');
    expect(git(p.dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(isFile(join(p.dir, '.leopold', 'ALLOW_GIT'))).toBe(false);
    const seen = (run.agentToolResults.get('i1:implement') ?? []).map((result) => result.text).join('\n');
    expect(seen).toMatch(/Read-only file system|Permission denied/);
  });

  it('a session started in a subdirectory writes the project, not the lock', async () => {
    const p = fixtures.project({ plan: '# Plan\n\n- [ ] Write the parser\n', files: { 'src/a.ts': 'export const a = 1;\n' } });
    expect(p.leopold(['run', 'start']).code).toBe(0);
    const run = await runReal(p, {
      prompt: 'Work.',
      subdir: 'src',
      mode: 'bypassPermissions',
      allowedTools: TOOLS,
      script: { main: [bash('echo note >> ../.leopold/notes.md && echo ok'), bash(hiddenWrite('../.leopold/ALLOW_GIT')), { text: 'done' }] },
    });
    expect(run.client.timedOut).toBe(false);
    expect(p.read('.leopold/notes.md')).toBe('note\n');
    expect(isFile(join(p.dir, '.leopold', 'ALLOW_GIT'))).toBe(false);
  });
});

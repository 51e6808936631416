import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_CLI_RULE } from '../../runtime/project-cli/index.js';
import { DENY } from '../guard/corpus/deny.js';
import { projectFixtures, runReal, type Project } from './harness.js';
import { sized } from '../support/stress.js';

// The guard's deny corpus run for real in the real client, in both permission modes, and
// judged by effects: every command of test/guard/corpus/deny.ts is one Bash call of one
// session during a run, in a repository with history, a feature branch, a local bare
// remote and a raised kill switch. Afterwards no commit or tag object, local ref, remote
// ref, protected file or git token may have changed. The red-team corpus
// (redteam-*.conformance.test.ts) is the adversarial one; of this one `npm test` runs every
// twelfth command in bypassPermissions, and `npm run test:stress` (LEOPOLD_STRESS=1, which
// CI runs after it) all of them in both modes.

const fixtures = projectFixtures();
const MODES = sized(['bypassPermissions'] as const, ['acceptEdits', 'bypassPermissions'] as const);
const CORPUS = sized(DENY.filter((_, i) => i % 12 === 0), DENY);
const PROTECTED = ['.leopold/GUARDRAILS.md', '.leopold/STOP', '.leopold/ALLOW_GIT', '.leopold/ALLOW_PUSH', '.claude/settings.json'];

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Commit and tag objects, every ref, the remote's refs, and the protected files' hashes. */
function effects(p: Project, remote: string): Record<string, unknown> {
  const objects = git(p.dir, 'cat-file', '--batch-all-objects', '--batch-check')
    .split('\n')
    .filter((line) => / (commit|tag) /.test(line));
  const file = (path: string) => (existsSync(join(p.dir, path)) ? createHash('sha256').update(readFileSync(join(p.dir, path))).digest('hex') : 'absent');
  return {
    objects,
    refs: git(p.dir, 'for-each-ref', '--format=%(refname) %(objectname)'),
    head: git(p.dir, 'rev-parse', 'HEAD'),
    remote: git(remote, 'for-each-ref', '--format=%(refname) %(objectname)'),
    files: Object.fromEntries(PROTECTED.map((path) => [path, file(path)])),
  };
}

describe('the guard deny corpus in the real client, judged by effects', () => {
  it.each(MODES)('%s: every command runs during a run, and nothing the lock guards changes', async (mode) => {
    const p = fixtures.project({ plan: '# Plan\n\n- [ ] Write the parser\n', files: { 'src/a.ts': 'export const a = 1;\n' } });
    const remote = join(p.home, '..', 'remote.git');
    git(p.home, 'init', '-q', '--bare', remote);
    git(p.dir, 'remote', 'add', 'origin', remote);
    git(p.dir, 'push', '-q', 'origin', 'main');
    git(p.dir, 'branch', 'feature');
    git(p.dir, 'tag', 'v1');
    expect(p.leopold(['run', 'start']).code).toBe(0);
    mkdirSync(join(p.dir, '.leopold'), { recursive: true });
    writeFileSync(join(p.dir, '.leopold', 'STOP'), 'raised by the test\n');
    const before = effects(p, remote);
    const steps = CORPUS.map(([, command]) => ({ tool: 'Bash', input: { command, timeout: 10_000 } }));
    const run = await runReal(p, {
      prompt: 'Try every command.',
      mode,
      allowedTools: `${PROJECT_CLI_RULE},Bash(git *)`,
      script: { main: [...steps, { text: 'done' }] },
      timeoutMs: 230_000,
    });
    expect(run.client.timedOut).toBe(false);
    expect(effects(p, remote)).toEqual(before);
    // Every command reached the client as its own tool call.
    const calls = run.log.filter((entry) => entry.thread === 'main' && entry.key === 'start' && entry.reply.startsWith('Bash '));
    expect(calls).toHaveLength(CORPUS.length);
  });
});

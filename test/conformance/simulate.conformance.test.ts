import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../support/built-dist.js';
import { CLAUDE, privateDist } from './harness.js';

// `leopold simulate --host claude-code`: the rehearsal in the real client, as a user runs it.

let dist: Awaited<ReturnType<typeof privateDist>>;
beforeAll(async () => {
  dist = await privateDist();
});
afterAll(() => dist?.cleanup());

const EXAMPLE = join(root, 'fixtures/example/.leopold/PLAN.md');
const ANSWERS = join(root, 'fixtures/example/answers.json');

function simulate(args: string[], env: NodeJS.ProcessEnv = process.env, cwd = root) {
  const out = spawnSync(process.execPath, [join(dist.dir, 'dist', 'leopold.js'), 'simulate', ...args], { cwd, encoding: 'utf8', env: { ...env, LEOPOLD_AUTONOMY: '' } });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** The report without its first line (which names the host) and the host-specific lines. */
const comparable = (report: string) =>
  report
    .split('\n')
    .slice(1)
    .filter((line) => !/^Phases:|^Agents run:|^Log:|^ {2}i\d+: attempt failed/.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');

describe('leopold simulate --host claude-code', () => {
  it('has the pinned client installed', () => expect(CLAUDE, 'npm ci installs @anthropic-ai/claude-code').not.toBeNull());

  it('rehearses the example plan in the real client with the same agents, decisions and stop as the stand-in', () => {
    const stand = simulate([EXAMPLE, '--answers', ANSWERS]);
    const real = simulate([EXAMPLE, '--answers', ANSWERS, '--host', 'claude-code', '--claude', CLAUDE!]);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout.split('\n')[0]).toMatch(/^Simulated .* in Claude Code \d+\.\d+\.\d+ \(scripted model\): 7 open items, routed loop, autonomy full$/);
    expect(comparable(real.stdout)).toBe(comparable(stand.stdout));
    expect(real.stdout).toMatch(/Agents run: 23; tokens: 0/);
    // A rehearsal writes nothing into the project.
    expect(spawnSync('git', ['status', '--porcelain', 'fixtures/example'], { cwd: root, encoding: 'utf8' }).stdout).toBe('');
  });

  it('--json gives the same document as the stand-in, but for the host and the tokens', () => {
    const plan = join(root, 'fixtures/plans/basic-checklist/input.md');
    const parse = (stdout: string) => {
      const { host, stats, logs, ...rest } = JSON.parse(stdout) as Record<string, unknown>;
      void stats;
      void logs;
      const agents = (rest.agents as Record<string, unknown>[]).map(({ label, phase, status }) => ({ label, phase, status }));
      return { host, rest: { ...rest, agents } as Record<string, unknown> };
    };
    const stand = parse(simulate([plan, '--json']).stdout);
    const real = simulate([plan, '--host', 'claude-code', '--claude', CLAUDE!, '--json']);
    expect(real.code, real.stderr).toBe(0);
    const doc = parse(real.stdout);
    expect(doc.host).toMatch(/^Claude Code \d+\.\d+\.\d+ \(scripted model\)$/);
    expect(doc.rest).toEqual({ ...stand.rest, phases: [...new Set(stand.rest.phases as string[])] });
  });
});

describe('leopold simulate --host claude-code without a client', () => {
  it('says how to get one, in one line, exit 2', () => {
    const home = mkdtempSync(join(tmpdir(), 'leopold-noclient-'));
    try {
      // No claude on PATH, none in the project's node_modules (the plan lives outside this checkout).
      const env = { PATH: dirname(process.execPath), HOME: home };
      const plan = join(home, 'PLAN.md');
      spawnSync('sh', ['-c', `printf '%s\\n' '- [ ] one' > "${plan}"`]);
      const none = simulate([plan, '--host', 'claude-code'], env, home);
      expect(none.code).toBe(2);
      expect(none.stderr).toBe('leopold: no Claude Code client found: install it in the project (npm i -D @anthropic-ai/claude-code), put `claude` on PATH, or pass --claude PATH\n');
      const missing = simulate([plan, '--host', 'claude-code', '--claude', join(home, 'nope')], env, home);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toBe(`leopold: no Claude Code client at ${join(home, 'nope')}\n`);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

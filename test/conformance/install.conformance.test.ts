import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_CLI, PROJECT_CLI_RULE } from '../../runtime/project-cli/index.js';
import { builtPlugin, root, underBuildLock } from '../support/built-dist.js';
import { offlineNpmEnv } from '../support/offline-npm.js';
import { gitEffects, mainToolOutputs, runReal, type Project } from './harness.js';

// Installable anywhere, judged in the real client: `npm pack`, install the tarball into a
// repository R, `npx leopold init`, commit, clone R to another path, delete R, `npm ci` the
// clone, then in the clone, with no leopold on PATH: the guard denies a commit, the session
// engine and the workflow engine each reach plan_complete. Then the same through the plugin
// (`claude --plugin-dir`), in a project whose settings.json registers no hook.

// Named at import, made in beforeAll: collecting this file (vitest list) must leave nothing behind.
const work = join(realpathSync(tmpdir()), `leopold install ${process.pid}-${randomBytes(4).toString('hex')}`);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
const tarball = join(work, `${pkg.name}-${pkg.version}.tgz`);
const plugin = join(work, 'plugin');
const PLAN = '# Plan\n\n- [ ] Write the parser {#parser}\n- [ ] (after: #parser) Write the docs\n';
const TOOLS = `Workflow,${PROJECT_CLI_RULE},Bash(git *)`;

const env = { ...process.env, ...offlineNpmEnv(work) };
const run = (cmd: string, args: string[], cwd: string) => {
  const out = spawnSync(cmd, args, { cwd, env, encoding: 'utf8' });
  expect(out.status, `${cmd} ${args.join(' ')}\n${out.stdout}\n${out.stderr}`).toBe(0);
  return out.stdout;
};

/** A Project for the harness over a directory set up by hand (the project's own leopold, no PATH shim). */
function projectAt(dir: string): Project {
  const home = join(work, `home-${Math.random().toString(36).slice(2)}`);
  mkdirSync(home);
  return {
    dir,
    home,
    path: process.env.PATH ?? '',
    leopold: (args, input) => {
      const out = spawnSync('sh', ['-c', `${PROJECT_CLI} "$@"`, 'sh', ...args], { cwd: dir, encoding: 'utf8', input });
      return { code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr };
    },
    read: (file) => readFileSync(join(dir, file), 'utf8'),
    cleanup: () => undefined,
  };
}

function repoWithTarball(name: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  run('git', ['init', '-q', '-b', 'main'], dir);
  run('git', ['config', 'user.email', 'test@example.invalid'], dir);
  run('git', ['config', 'user.name', 'Install'], dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: name.replace(/\W+/g, '-'), version: '1.0.0', private: true }, null, 2)}\n`);
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
  run('npm', ['install', '--save-dev', tarball], dir);
  return dir;
}

let clone: Project;
beforeAll(async () => {
  mkdirSync(work);
  mkdirSync(join(work, 'home'));
  // npm pack runs `prepare` (the build): under the build lock, like every suite that builds.
  await underBuildLock(() => execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: root, stdio: 'pipe' }));
  await builtPlugin(plugin);
  const r = repoWithTarball('repo R');
  run('npx', ['--no', 'leopold', 'init'], join(r, 'src'));
  writeFileSync(join(r, '.leopold', 'PLAN.md'), PLAN);
  run('npx', ['--no', 'leopold', 'compile'], join(r, 'src'));
  run('git', ['add', '-A'], r);
  run('git', ['commit', '-qm', 'leopold'], r);
  const to = join(work, 'clone of R');
  run('git', ['clone', '-q', r, to], work);
  rmSync(r, { recursive: true, force: true });
  run('npm', ['ci'], to);
  run('git', ['config', 'user.email', 'test@example.invalid'], to);
  run('git', ['config', 'user.name', 'Clone'], to);
  clone = projectAt(to);
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const resetPlan = (p: Project) => {
  run('git', ['checkout', '--', '.leopold/PLAN.md'], p.dir);
  rmSync(join(p.dir, '.leopold', 'state.json'), { force: true });
};

describe('installed from the packed tarball, in a clone at another path, no leopold on PATH', () => {
  it('has no leopold on PATH', () => {
    expect(spawnSync('sh', ['-c', 'command -v leopold'], { encoding: 'utf8' }).status).not.toBe(0);
  });

  it('the guard denies a commit during a run (the hook command as init wrote it)', async () => {
    resetPlan(clone);
    expect(clone.leopold(['run', 'start']).code).toBe(0);
    const before = gitEffects(clone.dir);
    const result = await runReal(clone, { prompt: 'Commit.', allowedTools: TOOLS, script: { main: [{ tool: 'Bash', input: { command: 'git commit --allow-empty -m "ship it"' } }, { text: 'tried' }] } });
    expect(gitEffects(clone.dir)).toEqual(before);
    expect(mainToolOutputs(result)[0]).toMatch(/locked during a Leopold run/);
    clone.leopold(['run', 'stop']);
    rmSync(join(clone.dir, '.leopold', 'STOP'), { force: true });
  });

  it('the session engine reaches plan_complete', async () => {
    resetPlan(clone);
    await runReal(clone, { prompt: 'Start the run.', allowedTools: TOOLS, script: { main: [{ tool: 'Bash', input: { command: `${PROJECT_CLI} run start --force` } }, { text: 'started' }] } });
    expect(clone.read('.leopold/PLAN.md')).toBe(PLAN.replaceAll('- [ ]', '- [x]'));
    expect(JSON.parse(clone.read('.leopold/state.json'))).toMatchObject({ active: false, stop_reason: 'plan_complete' });
  });

  it('the workflow engine reaches plan_complete (the committed script, its scribe running the project CLI)', async () => {
    resetPlan(clone);
    const script = {
      main: [{ tool: 'Bash', input: { command: `${PROJECT_CLI} run start --engine workflow --force` } }, { tool: 'Workflow', input: { scriptPath: '.claude/workflows/leopold-run.js' } }, { text: 'launched' }],
      afterWorkflow: [{ tool: 'Bash', input: { command: `${PROJECT_CLI} run finish --reason {{result.stop}}` } }, { text: 'done' }],
    };
    const result = await runReal(clone, { prompt: 'Run the workflow.', allowedTools: TOOLS, script });
    expect((result.results[0] as { stop: string }).stop).toBe('plan_complete');
    expect(clone.read('.leopold/PLAN.md')).toBe(PLAN.replaceAll('- [ ]', '- [x]'));
  });
});

describe('through the plugin (claude --plugin-dir), in a project whose settings register no hook', () => {
  let p: Project;
  beforeAll(() => {
    const dir = repoWithTarball('plugin project');
    mkdirSync(join(dir, '.leopold'));
    writeFileSync(join(dir, '.leopold', 'PLAN.md'), PLAN);
    run('git', ['add', '-A'], dir);
    run('git', ['commit', '-qm', 'brief'], dir);
    p = projectAt(dir);
  }, 120_000);
  const withPlugin = ['--plugin-dir', plugin];

  it('the plugin guard denies a commit during a run', async () => {
    expect(p.leopold(['run', 'start']).code).toBe(0);
    const before = gitEffects(p.dir);
    const result = await runReal(p, { prompt: 'Commit.', allowedTools: TOOLS, extraArgs: withPlugin, script: { main: [{ tool: 'Bash', input: { command: 'git commit --allow-empty -m "ship it"' } }, { text: 'tried' }] } });
    expect(gitEffects(p.dir)).toEqual(before);
    expect(mainToolOutputs(result)[0]).toMatch(/locked during a Leopold run/);
    p.leopold(['run', 'stop']);
    rmSync(join(p.dir, '.leopold', 'STOP'), { force: true });
  });

  it('the plugin Stop hook conducts the session engine to plan_complete', async () => {
    resetPlan(p);
    await runReal(p, { prompt: 'Start the run.', allowedTools: TOOLS, extraArgs: withPlugin, script: { main: [{ tool: 'Bash', input: { command: `${PROJECT_CLI} run start --force` } }, { text: 'started' }] } });
    expect(p.read('.leopold/PLAN.md')).toBe(PLAN.replaceAll('- [ ]', '- [x]'));
    expect(JSON.parse(p.read('.leopold/state.json'))).toMatchObject({ active: false, stop_reason: 'plan_complete' });
  });

  it('the workflow engine reaches plan_complete with the plugin loaded', async () => {
    resetPlan(p);
    expect(p.leopold(['compile']).code).toBe(0);
    const script = {
      main: [{ tool: 'Bash', input: { command: `${PROJECT_CLI} run start --engine workflow --force` } }, { tool: 'Workflow', input: { scriptPath: '.claude/workflows/leopold-run.js' } }, { text: 'launched' }],
      afterWorkflow: [{ text: 'done' }],
    };
    const result = await runReal(p, { prompt: 'Run the workflow.', allowedTools: TOOLS, extraArgs: withPlugin, script });
    expect((result.results[0] as { stop: string }).stop).toBe('plan_complete');
  });
});


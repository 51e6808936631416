import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_CLI, unwrapDetachedHook } from '../../runtime/project-cli/index.js';
import { builtPlugin, privatePackage, root } from '../support/built-dist.js';
import { blockOf } from '../support/stop-output.js';

// The Claude Code plugin `npm run build` makes (dist/plugin, `claude --plugin-dir`): its
// layout, its hook commands run exactly as hooks.json writes them, and the rule that keeps
// plugin and init installs from ever running two guards or two Stop hooks.

const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold plugin ')));
const plugin = join(work, 'the plugin');
const PATH = `${dirname(process.execPath)}:/usr/bin:/bin`; // node, no leopold

beforeAll(() => builtPlugin(plugin), 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Groups = Record<string, { matcher?: string; hooks: { type: string; command: string }[] }[]>;
const hooksOf = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { hooks: Groups }).hooks;
const commandOf = (hooks: Groups, event: string, matcher?: string) => hooks[event]!.find((g) => matcher === undefined || g.matcher === matcher)!.hooks[0]!.command;

/** Runs a hook command exactly as written, through sh -c, as Claude Code does. */
function hook(command: string, input: unknown, env: Record<string, string>, cwd: string) {
  const out = spawnSync('/bin/sh', ['-c', command], { cwd, input: JSON.stringify(input), encoding: 'utf8', env: { PATH, ...env } });
  return { code: out.status, status: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** What a Stop hook said, whichever way: a block's reason (exit 2, on stderr) or its stdout. */
const said = (out: ReturnType<typeof hook>) => (out.code === 2 ? `block: ${out.stderr}` : out.stdout);

let n = 0;
/** A git project with a plan and an active session run (started through the plugin's bin). */
function project(): string {
  const dir = join(work, `project ${n++}`);
  mkdirSync(join(dir, '.git'), { recursive: true });
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, '.leopold'));
  writeFileSync(join(dir, '.leopold', 'PLAN.md'), '- [ ] Write the parser\n- [ ] Write the docs\n');
  const started = spawnSync(join(plugin, 'bin', 'leopold'), ['run', 'start'], { cwd: join(dir, 'src'), encoding: 'utf8', env: { PATH } });
  expect(started.status, started.stderr).toBe(0);
  return dir;
}
const commit = (dir: string) => ({
  session_id: 's',
  transcript_path: '',
  cwd: join(dir, 'src'),
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'git commit -am wip' },
});
const stopInput = (dir: string) => ({ session_id: 's', transcript_path: '', cwd: join(dir, 'src'), hook_event_name: 'Stop', stop_hook_active: false, background_tasks: [] });

describe('the Claude Code plugin (dist/plugin)', () => {
  it('has the manifest, the skills, hooks.json on ${CLAUDE_PLUGIN_ROOT}, and a runnable bin/leopold', () => {
    const manifest = JSON.parse(readFileSync(join(plugin, '.claude-plugin', 'plugin.json'), 'utf8'));
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'leopold', version: pkg.version, license: pkg.license });
    const market = JSON.parse(readFileSync(join(plugin, '.claude-plugin', 'marketplace.json'), 'utf8'));
    expect(market).toMatchObject({ name: 'leopold', plugins: [{ name: 'leopold', source: './' }] });

    const hooks = hooksOf(join(plugin, 'hooks', 'hooks.json'));
    expect(Object.keys(hooks).sort()).toEqual(['PreToolUse', 'Stop', 'StopFailure']);
    expect(hooks.PreToolUse!.map((g) => g.matcher)).toEqual(['Bash', 'Write|Edit|MultiEdit', 'Agent|Task']);
    for (const groups of Object.values(hooks)) {
      for (const { command } of groups.flatMap((g) => g.hooks)) {
        // The StopFailure hook runs detached from the client (runtime/project-cli detachedHook).
        expect(unwrapDetachedHook(command) ?? command).toMatch(/^node "\$\{CLAUDE_PLUGIN_ROOT\}\/hooks\/(guard|stop|stop-failure)\.js" --plugin$/);
        expect(existsSync(join(plugin, /"\$\{CLAUDE_PLUGIN_ROOT\}\/([^"]+)"/.exec(command)![1]!))).toBe(true);
      }
    }
    for (const skill of ['leopold-workflow', 'leopold-run', 'leopold-status', 'leopold-stop', 'leopold-brief']) {
      const text = readFileSync(join(plugin, 'skills', skill, 'SKILL.md'), 'utf8');
      expect(text).toMatch(new RegExp(`^---\\nname: ${skill}\\n`));
      expect(text).toContain(`${PROJECT_CLI} run `);
      expect(text).not.toContain('{{');
    }
    // Every template init reads travels with bin/leopold (templates/workflow is bundled into dist/ at build).
    const shipped = readdirSync(join(root, 'templates')).filter((name) => name !== 'workflow');
    expect(shipped).toContain('ci');
    for (const name of shipped) expect(readdirSync(join(plugin, 'templates', name)), name).toEqual(readdirSync(join(root, 'templates', name)));
    expect(statSync(join(plugin, 'bin', 'leopold')).mode & 0o111).not.toBe(0);
    const version = spawnSync('/bin/sh', ['-c', '"$P"/bin/leopold --version'], { cwd: work, encoding: 'utf8', env: { PATH, P: plugin } });
    expect(version.stdout.trim()).toBe(pkg.version);
    // Nothing in it names the machine that built it.
    for (const entry of readdirSync(plugin, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const text = readFileSync(join(entry.parentPath, entry.name), 'utf8');
      expect(text.includes(root), entry.name).toBe(false);
    }
  });

  it('alone, its hooks guard and conduct the run from any directory, with no leopold on PATH', () => {
    const dir = project();
    const hooks = hooksOf(join(plugin, 'hooks', 'hooks.json'));
    const env = { CLAUDE_PLUGIN_ROOT: plugin, CLAUDE_PROJECT_DIR: dir };
    const guard = hook(commandOf(hooks, 'PreToolUse', 'Bash'), commit(dir), env, join(dir, 'src'));
    expect(guard.code).toBe(0);
    expect(JSON.parse(guard.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    const stop = hook(commandOf(hooks, 'Stop'), stopInput(dir), env, join(dir, 'src'));
    expect(blockOf(stop)).toContain(`${PROJECT_CLI} plan tick 1`);
  });

  it('with init\'s hooks in the project as well, exactly one guard and one Stop hook act: the project\'s', async () => {
    const dir = project();
    const init = spawnSync(join(plugin, 'bin', 'leopold'), ['init'], { cwd: join(dir, 'src'), encoding: 'utf8', env: { PATH } });
    expect(init.status, init.stderr).toBe(0);
    const projectHooks = hooksOf(join(dir, '.claude', 'settings.json'));
    const pluginHooks = hooksOf(join(plugin, 'hooks', 'hooks.json'));
    const env = { CLAUDE_PLUGIN_ROOT: plugin, CLAUDE_PROJECT_DIR: dir };
    const acting = () => {
      const outputs = [projectHooks, pluginHooks].map((hooks) => ({
        guard: hook(commandOf(hooks, 'PreToolUse', 'Bash'), commit(dir), env, join(dir, 'src')).stdout,
        stop: said(hook(commandOf(hooks, 'Stop'), stopInput(dir), env, join(dir, 'src'))),
      }));
      return { guards: outputs.filter((o) => o.guard !== '').length, stops: outputs.filter((o) => o.stop !== '').length, outputs };
    };

    // Registered but not installed (no npm i yet): the project's hooks cannot run, so the plugin's act,
    // and run start, from the plugin, checks those instead (a package install would refuse: test/cli/run-hooks.test.ts).
    const restart = spawnSync(join(plugin, 'bin', 'leopold'), ['run', 'start', '--force'], { cwd: join(dir, 'src'), encoding: 'utf8', env: { PATH } });
    expect(restart.status, restart.stderr).toBe(0);
    let now = acting();
    expect(now.outputs[1]!.guard).toMatch(/"deny"/);
    expect(now.outputs[1]!.stop).toMatch(/^block: /);

    // Installed: the project's hooks act and the plugin's step aside.
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
    // A private copy of the package, as npm i leaves it: the checkout's own dist/ may be mid-rebuild (npm pack).
    symlinkSync(await privatePackage(), join(dir, 'node_modules', 'leopold'), 'dir');
    symlinkSync('../leopold/dist/leopold.js', join(dir, 'node_modules', '.bin', 'leopold'));
    now = acting();
    expect({ guards: now.guards, stops: now.stops }).toEqual({ guards: 1, stops: 1 });
    expect(now.outputs[0]!.guard).toMatch(/"deny"/);
    expect(now.outputs[1]).toEqual({ guard: '', stop: '' });

    // The StopFailure hook too: the plugin's steps aside, the project's ends the run. Both
    // commands detach the hook from the client (runtime/project-cli detachedHook): run the
    // plugin's node part in the foreground to see it answer nothing, and wait for the project's.
    const failed = { session_id: 's', cwd: join(dir, 'src'), hook_event_name: 'StopFailure', error: 'rate_limit' };
    const pluginNode = unwrapDetachedHook(commandOf(pluginHooks, 'StopFailure'))!;
    expect(hook(pluginNode, failed, env, join(dir, 'src'))).toMatchObject({ code: 0, stdout: '' });
    expect(JSON.parse(readFileSync(join(dir, '.leopold', 'state.json'), 'utf8'))).toMatchObject({ active: true });
    expect(hook(commandOf(projectHooks, 'StopFailure'), failed, env, join(dir, 'src'))).toMatchObject({ code: 0, stdout: '' });
    const ended = () => (JSON.parse(readFileSync(join(dir, '.leopold', 'state.json'), 'utf8')) as { stop_reason: string | null }).stop_reason === 'api_error';
    for (let waited = 0; !ended() && waited < 60_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    expect(JSON.parse(readFileSync(join(dir, '.leopold', 'state.json'), 'utf8'))).toMatchObject({ active: false, stop_reason: 'api_error' });
  });
});

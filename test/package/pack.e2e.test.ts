import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorkflowScript } from '../../runtime/host/index.js';
import { PROJECT_CLI } from '../../runtime/project-cli/index.js';
import { root, underBuildLock } from '../support/built-dist.js';
import { offlineNpmEnv } from '../support/offline-npm.js';

// The npm package as a team adopts it: `npm pack`, install the tarball into a repository
// R (offline: the package has no runtime dependencies, its bundles carry them), set it up
// with `npx leopold init`, commit, clone R to another path, remove R, install the clone,
// and conduct a session run there with the hook commands exactly as settings.json writes
// them, then a workflow run whose scribe commands are run as the script wrote them; all
// through sh -c, from a subdirectory, with no `leopold` on PATH. (The real Claude Code
// client runs are issue #7's suite.) The paths have spaces on purpose. Everything lives in
// one temp directory, removed at the end.

// Named at import, made in beforeAll: collecting this file (vitest list) must leave nothing behind.
const work = join(realpathSync(tmpdir()), `leopold pack ${process.pid}-${randomBytes(4).toString('hex')}`);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string; files: string[] };
const tarball = join(work, `${pkg.name}-${pkg.version}.tgz`);

// A PATH with node, npm, git and a shell, and no leopold: a private bin directory of links.
const bin = join(work, 'bin');
const PATH = bin;
/** The environment of every spawned tool: no inherited npm_* settings, offline, quiet. */
const env = (extra: Record<string, string> = {}) => ({ PATH, ...offlineNpmEnv(work), GIT_CONFIG_NOSYSTEM: '1', ...extra });
const run = (cmd: string, args: string[], cwd: string, extra: Record<string, string> = {}, input = '') => {
  const out = spawnSync(cmd, args, { cwd, env: env(extra), encoding: 'utf8', input });
  return { code: out.status, stdout: out.stdout, stderr: `${out.stderr}${out.error ? `\n${out.error.message}` : ''}` };
};
const ok = (out: { code: number | null; stdout: string; stderr: string }) => {
  expect(out.code, `${out.stdout}\n${out.stderr}`).toBe(0);
  return out;
};
/** `sh -c command`, exactly as Claude Code runs a hook or an agent a Bash command. */
const sh = (command: string, cwd: string, projectDir: string, input = '') => run('/bin/sh', ['-c', command], cwd, { CLAUDE_PROJECT_DIR: projectDir }, input);

beforeAll(async () => {
  mkdirSync(work);
  mkdirSync(bin);
  mkdirSync(join(work, 'home'));
  const which = (name: string) => execFileSync('/bin/sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
  for (const tool of ['node', 'npm', 'npx', 'git', 'sh', 'cat', 'tar']) symlinkSync(realpathSync(which(tool)), join(bin, tool));
  // npm pack runs `prepare` (the build): under the build lock, so no other suite sees dist/ half-built.
  await underBuildLock(() => execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: root, stdio: 'pipe' }));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the npm package', () => {
  it('packs the built CLI, hooks, runtime and templates, and nothing machine-specific', () => {
    expect(existsSync(tarball)).toBe(true);
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    for (const file of ['package/package.json', 'package/README.md', 'package/dist/leopold.js', 'package/dist/workflow-runtime.js', 'package/dist/hooks/guard.js', 'package/dist/hooks/stop.js', 'package/dist/hooks/stop-failure.js', 'package/templates/settings/hooks.json', 'package/templates/skill/leopold-run/SKILL.md', 'package/templates/brief/PLAN.md', 'package/docs/init.md']) {
      expect(files).toContain(file);
    }
    expect(files.filter((f) => /\/(test|fixtures|bench|compiler|runtime|scripts|node_modules)\/|dist\/plugin|\.tgz$|\.ts$/.test(f))).toEqual([]);
    // Every template init reads ships (templates/workflow is bundled into dist/ at build).
    for (const name of readdirSync(join(root, 'templates')).filter((n) => n !== 'workflow')) {
      expect(files.some((f) => f.startsWith(`package/templates/${name}/`)), `templates/${name}`).toBe(true);
    }
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
    expect(manifest).toMatchObject({ name: 'leopold', bin: { leopold: 'dist/leopold.js' }, license: 'MIT', engines: { node: expect.any(String) } });
    expect(manifest.private).toBeUndefined();
    expect(manifest.dependencies ?? {}).toEqual({}); // the bundles carry their dependencies
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
    for (const entry of readdirSync(unpacked, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const text = readFileSync(join(entry.parentPath, entry.name), 'utf8');
      expect(text.includes(root), `${entry.name} names the checkout`).toBe(false);
      expect(text.includes(work), `${entry.name} names the temp dir`).toBe(false);
    }
  });

  it('installed in R, committed, cloned elsewhere and R removed: the clone runs both engines to plan_complete with no leopold on PATH', async () => {
    expect(run('/bin/sh', ['-c', 'command -v leopold'], work).code).not.toBe(0);
    const r = join(work, 'repo R');
    mkdirSync(join(r, 'src'), { recursive: true });
    ok(run('git', ['init', '-q'], r));
    writeFileSync(join(r, 'package.json'), `${JSON.stringify({ name: 'r', version: '1.0.0', private: true }, null, 2)}\n`);
    writeFileSync(join(r, '.gitignore'), 'node_modules/\n');
    writeFileSync(join(r, 'src', 'index.ts'), 'export {};\n');
    ok(run('npm', ['install', '--save-dev', tarball], r));

    // The documented way, from a subdirectory: npx finds the project's install.
    const init = ok(run('npx', ['--no', 'leopold', 'init'], join(r, 'src')));
    expect(init.stdout).toMatch(/^created +\.claude\/settings\.json/m);
    expect(init.stdout).not.toMatch(/^note /m); // the project install is there
    writeFileSync(join(r, '.leopold', 'PLAN.md'), '# Plan\n\n- [ ] Write the parser {#parser}\n- [ ] (after: #parser) Write the docs\n');
    ok(run('npx', ['--no', 'leopold', 'graph'], join(r, 'src')));
    ok(run('npx', ['--no', 'leopold', 'compile'], join(r, 'src')));
    for (const file of ['.claude/settings.json', '.claude/workflows/leopold-run.js', '.leopold/workflow-args.json', '.claude/skills/leopold-run/SKILL.md']) {
      expect(readFileSync(join(r, file), 'utf8').includes(r), file).toBe(false);
    }
    ok(run('git', ['add', '-A'], r));
    ok(run('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'leopold'], r));
    expect(ok(run('git', ['ls-files'], r)).stdout).not.toMatch(/node_modules|state\.json/);

    const clone = join(work, 'clone of R');
    ok(run('git', ['clone', '-q', r, clone], work));
    rmSync(r, { recursive: true, force: true });
    ok(run('npm', ['ci'], clone));
    const sub = join(clone, 'src');
    // The agents' commands run from the project root (every Leopold prompt says so); hooks from anywhere.
    const cli = (args: string, input = '') => sh(`${PROJECT_CLI} ${args}`, clone, clone, input);
    ok(cli('init --check'));
    expect(ok(cli('compile --check')).stderr).toMatch(/up to date/);
    ok(cli('run start'));
    ok(cli('record', JSON.stringify({ events: [{ event: 'turn', item: 1, text: 'installed from the tarball' }] })));

    const settings = JSON.parse(readFileSync(join(clone, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> };
    const commandOf = (event: string, matcher?: string) => settings.hooks[event]!.find((g) => matcher === undefined || g.matcher === matcher)!.hooks[0]!.command;
    const guard = ok(sh(commandOf('PreToolUse', 'Bash'), sub, clone, JSON.stringify({ cwd: sub, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git commit -am "ship it"' } })));
    expect(JSON.parse(guard.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    const write = ok(sh(commandOf('PreToolUse', 'Write|Edit|MultiEdit'), sub, clone, JSON.stringify({ cwd: sub, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(sub, 'parser.ts'), content: '' } })));
    expect(write.stdout).toBe('');

    // The session engine: each Stop hands out an item; the session runs the tick it names.
    const stopInput = JSON.stringify({ session_id: 's', transcript_path: '', cwd: sub, hook_event_name: 'Stop', stop_hook_active: false, background_tasks: [] });
    const ticked: string[] = [];
    for (let turn = 0; turn < 5; turn++) {
      // A block is exit 2 with the reason on stderr; the end of the run is exit 0 with its summary.
      const stop = sh(commandOf('Stop'), sub, clone, stopInput);
      if (stop.code !== 2) {
        ok(stop);
        break;
      }
      const reason = stop.stderr;
      if (reason.startsWith('Leopold run: every item is done. Final review')) {
        // The run's one final review of the whole change: nothing found.
        ok(cli('record', JSON.stringify({ events: [{ event: 'final-review', findings: [] }] })));
        continue;
      }
      const tick = reason.split('\n').flatMap((line) => /(node_modules\/\.bin\/leopold plan tick (\d+))/.exec(line) ?? [])[1];
      expect(tick, reason).toBeDefined();
      // Done means verified: the receipt, then the tick the turn names.
      ok(cli('record', JSON.stringify({ events: [{ event: 'verified', item: Number(/\d+$/.exec(tick!)![0]), commands: ['npm test'] }] })));
      ok(sh(tick!, clone, clone));
      ticked.push(tick!);
    }
    expect(ticked).toEqual([`${PROJECT_CLI} plan tick 1`, `${PROJECT_CLI} plan tick 2`]);
    expect(readFileSync(join(clone, '.leopold', 'PLAN.md'), 'utf8')).toMatch(/- \[x\] Write the parser[\s\S]*- \[x\] \(after: #parser\) Write the docs/);
    const state = JSON.parse(readFileSync(join(clone, '.leopold', 'state.json'), 'utf8'));
    expect(state).toMatchObject({ active: false, stop_reason: 'plan_complete' });
    const events = readFileSync(join(clone, '.leopold', 'events.jsonl'), 'utf8');
    expect(events).toMatch(/"event":"turn","item":1,"text":"installed from the tarball"/);
    expect(ok(run('git', ['status', '--porcelain'], clone)).stdout).toBe(' M .leopold/PLAN.md\n'); // the run's own files are ignored

    // The workflow engine: the committed script runs in the stand-in host, and every command
    // its scribe was handed runs exactly as written, through sh -c, from the project root.
    ok(run('git', ['checkout', '--', '.leopold/PLAN.md'], clone));
    ok(cli('run start --engine workflow'));
    const script = readFileSync(join(clone, '.claude', 'workflows', 'leopold-run.js'), 'utf8');
    const hosted = await runWorkflowScript(script, { file: '.claude/workflows/leopold-run.js' });
    expect(hosted.ok, JSON.stringify(hosted.error)).toBe(true);
    expect(hosted.result).toMatchObject({ stop: 'plan_complete' });
    const scribed = hosted.journal.filter((call) => call.label === 'scribe').flatMap((call) => call.prompt.split('\n').filter((line) => line.startsWith('    ')).map((line) => line.trim()));
    expect(scribed.length).toBeGreaterThan(0);
    for (const command of scribed) {
      expect(command.startsWith(`${PROJECT_CLI} `), command).toBe(true);
      const out = ok(sh(command, clone, clone));
      expect(JSON.parse(out.stdout.trim().split('\n').at(-1)!), command).toMatchObject({ ok: true });
    }
    expect(scribed.filter((c) => / plan tick \d+ --json$/.test(c))).toEqual([`${PROJECT_CLI} plan tick 1 --json`, `${PROJECT_CLI} plan tick 2 --json`]);
    expect(readFileSync(join(clone, '.leopold', 'PLAN.md'), 'utf8')).toMatch(/- \[x\] Write the parser[\s\S]*- \[x\] \(after: #parser\) Write the docs/);
    ok(cli('run finish --reason plan_complete'));
    expect(JSON.parse(readFileSync(join(clone, '.leopold', 'state.json'), 'utf8'))).toMatchObject({ active: false, stop_reason: 'plan_complete' });
  });

  it('installs globally too (npm i -g --prefix): the CLI runs anywhere', () => {
    const prefix = join(work, 'global prefix');
    ok(run('npm', ['install', '--global', '--prefix', prefix, tarball], work));
    const global = join(prefix, 'bin', 'leopold');
    expect(ok(run(global, ['--version'], work)).stdout.trim()).toBe(pkg.version);
    const plan = join(work, 'plain', '.leopold');
    mkdirSync(plan, { recursive: true });
    writeFileSync(join(plan, 'PLAN.md'), '- [ ] one\n- [ ] (after: 1) two\n');
    ok(run(global, ['graph', '--json'], join(work, 'plain')));
    ok(run(global, ['compile', '--print'], join(work, 'plain')));
    rmSync(prefix, { recursive: true, force: true });
  });
});

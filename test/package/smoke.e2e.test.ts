import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROJECT_CLI } from '../../runtime/project-cli/index.js';
import { root, underBuildLock } from '../support/built-dist.js';
import { offlineNpmEnv } from '../support/offline-npm.js';

// The release smoke test: what ships, used as the README says. The package is packed
// (`npm pack`) and installed into a fresh git repository with `npm i -D <tarball>`,
// offline (it has no runtime dependencies; the tarball is the only source); the Claude Code
// plugin (dist/plugin) is copied as a marketplace would. Then every command the README and
// docs/ show runs through each, as a user types it (`npx leopold …` from the tarball,
// `<plugin>/bin/leopold …` from the plugin), with exit codes and key output asserted; the
// CI rehearsal runs in the real client (this checkout's pinned @anthropic-ai/claude-code,
// via --claude). One pack, one install and one plugin copy serve every case; the cases
// build on each other in order (init, then the plan, then compile, then a run).
//
// The pack reuses the dist/ this test run built (`--ignore-scripts`: `prepare` would build
// the same bytes again, which test/package/pack.e2e.test.ts already does); it is taken
// under the build lock, so no rebuild is half way through it.
// test/package/readme-commands.test.ts checks that every command and flag the pages show
// is one the CLI accepts.

// Named at import, made in beforeAll (collecting this file must leave nothing behind); a
// path with spaces, as users have.
const work = join(realpathSync(tmpdir()), `leopold smoke ${process.pid}-${randomBytes(4).toString('hex')}`);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string; engines: { node: string }; devDependencies: Record<string, string> };
const tarball = join(work, `${pkg.name}-${pkg.version}.tgz`);
const CLAUDE = join(root, 'node_modules', '.bin', 'claude');
const EXAMPLE = join(root, 'fixtures', 'example');

// A PATH with node, npm, git and a shell, and no leopold and no claude: a private bin of links.
const bin = join(work, 'bin');
const env = (extra: Record<string, string> = {}) => ({ PATH: bin, ...offlineNpmEnv(work), GIT_CONFIG_NOSYSTEM: '1', LEOPOLD_AUTONOMY: '', ...extra });
interface Out {
  code: number | null;
  stdout: string;
  stderr: string;
}
function run(cmd: string, args: string[], cwd: string, input = '', extra: Record<string, string> = {}): Out {
  const out = spawnSync(cmd, args, { cwd, env: env(extra), encoding: 'utf8', input, timeout: 300_000 });
  return { code: out.status, stdout: out.stdout, stderr: `${out.stderr}${out.error ? `\n${out.error.message}` : ''}` };
}
/** Asserts the exit code, with the output in the failure message. */
function expectExit(out: Out, code: number): Out {
  expect(out.code, `${out.stdout}\n${out.stderr}`).toBe(code);
  return out;
}

const repo = join(work, 'my repo');
const pluginDir = join(work, 'the plugin');
const pluginRepo = join(work, 'plugin repo');
/** `npx leopold …` in the repository, as the README writes it. */
const npx = (args: string[], input = '', cwd = repo) => run('npx', ['--no', 'leopold', ...args], cwd, input);
/**
 * The same install without npm's start-up in front (what `npx leopold` runs): most cases
 * use it, since npx costs a second of CPU a call and the cases make dozens.
 */
const leopold = (args: string[], input = '', cwd = repo) => run(join(repo, 'node_modules', '.bin', 'leopold'), args, cwd, input);
/** `<plugin>/bin/leopold …` in the plugin's project. */
const viaPlugin = (args: string[], input = '') => run(join(pluginDir, 'bin', 'leopold'), args, pluginRepo, input);

function gitRepo(dir: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  expectExit(run('git', ['init', '-q', '-b', 'main'], dir), 0);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'my-repo', version: '1.0.0', private: true }, null, 2)}\n`);
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\nleopold-ci/\n');
}

/** The example brief of the README (fixtures/example), with its scripted answers, into a project. */
function exampleBrief(dir: string): void {
  for (const file of ['MISSION.md', 'CHARTER.md', 'GUARDRAILS.md', 'PLAN.md']) cpSync(join(EXAMPLE, '.leopold', file), join(dir, '.leopold', file));
  cpSync(join(EXAMPLE, 'answers.json'), join(dir, 'answers.json'));
}

beforeAll(async () => {
  mkdirSync(work);
  mkdirSync(bin);
  mkdirSync(join(work, 'home'));
  const which = (name: string) => execFileSync('/bin/sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
  for (const tool of ['node', 'npm', 'npx', 'git', 'sh', 'cat', 'tar', 'rm']) symlinkSync(realpathSync(which(tool)), join(bin, tool));
  await underBuildLock(() => {
    execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], { cwd: root, stdio: 'pipe' });
    cpSync(join(root, 'dist', 'plugin'), pluginDir, { recursive: true });
  });
  gitRepo(repo);
  expectExit(run('npm', ['install', '--save-dev', tarball], repo), 0);
  gitRepo(pluginRepo);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed tarball, installed with npm i -D in a fresh repository', () => {
  it('installs offline from the tarball alone: no runtime dependency, the Node floor in engines, every template init reads', () => {
    const manifest = JSON.parse(readFileSync(join(repo, 'node_modules', 'leopold', 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.engines).toEqual({ node: '>=20.19' });
    for (const template of ['brief/PLAN.md', 'settings/hooks.json', 'skill/leopold-run/SKILL.md', 'skill/leopold-workflow/SKILL.md', 'ci/leopold.yml']) {
      expect(existsSync(join(repo, 'node_modules', 'leopold', 'templates', template)), template).toBe(true);
    }
    expect(expectExit(run(join(repo, 'node_modules', '.bin', 'leopold'), ['--version'], repo), 0).stdout.trim()).toBe(pkg.version);
    expect(run('/bin/sh', ['-c', 'command -v leopold || command -v claude'], repo).code).not.toBe(0);
  });

  it('init, init --check, init --ci (from a subdirectory)', () => {
    const before = expectExit(npx(['init', '--check']), 1);
    expect(before.stdout).toMatch(/^missing +\.claude\/settings\.json/m);
    const init = expectExit(npx(['init'], '', join(repo, 'src')), 0);
    for (const file of ['.leopold/PLAN.md', '.claude/settings.json', '.claude/skills/leopold-workflow/SKILL.md', '.claude/skills/leopold-run/SKILL.md', '.leopold/.gitignore']) {
      expect(init.stdout).toMatch(new RegExp(`^created +${file.replace(/[./]/g, '\\$&')}`, 'm'));
    }
    expect(init.stdout).not.toMatch(/^note /m);
    expect(expectExit(npx(['init', '--check']), 0).stdout).toMatch(/^ok +node_modules\/leopold/m);
    const ci = expectExit(npx(['init', '--ci']), 0);
    expect(ci.stdout).toMatch(/^created +\.github\/workflows\/leopold\.yml/m);
    const yml = readFileSync(join(repo, '.github', 'workflows', 'leopold.yml'), 'utf8');
    expect(yml).not.toMatch(/\{\{[A-Z_]+\}\}/);
    expect(yml).toContain(`@anthropic-ai/claude-code@${pkg.devDependencies['@anthropic-ai/claude-code']}`);
    expect((parse(yml) as { jobs: { leopold: { steps: unknown[] } } }).jobs.leopold.steps.length).toBeGreaterThan(5);
    expect(expectExit(leopold(['init', '--ci']), 0).stdout).toMatch(/^kept +\.github\/workflows\/leopold\.yml/m);
    // The starter brief compiles as it is.
    expectExit(leopold(['graph', '--strict']), 0);
  });

  it('graph: the summary, --strict, --json, --mermaid, --dot, and the diagnostic formats of a broken plan', () => {
    exampleBrief(repo);
    const summary = expectExit(npx(['graph']), 0); // npx, once more, as the README's examples run it
    expect(summary.stdout.split('\n')[0]).toBe('.leopold/PLAN.md: 8 items (1 done), routed, 6 stages');
    expect(summary.stderr).toBe('');
    expectExit(leopold(['graph', '--strict']), 0);
    const doc = JSON.parse(expectExit(leopold(['graph', '--json']), 0).stdout) as { nodes: unknown[]; diagnostics: unknown[] };
    expect([doc.nodes.length, doc.diagnostics]).toEqual([8, []]);
    expect(expectExit(leopold(['graph', '--mermaid']), 0).stdout.startsWith('flowchart TD\n')).toBe(true);
    expect(expectExit(leopold(['graph', '--dot']), 0).stdout.startsWith('digraph ')).toBe(true);

    mkdirSync(join(repo, 'drafts'));
    writeFileSync(join(repo, 'drafts', 'PLAN.md'), '- [ ] Start\n  @on ok -> 99\n- [ ] Next\n');
    const text = expectExit(leopold(['graph', 'drafts/PLAN.md']), 1);
    expect(text.stderr).toMatch(/^drafts\/PLAN\.md:2:3: error: item 1 \("Start"\) routes "ok" to "99", which is not an item; .+ \[dangling-edge\]$/m);
    expect(JSON.parse(expectExit(leopold(['graph', 'drafts/PLAN.md', '--format', 'json']), 1).stderr)).toMatchObject([{ code: 'dangling-edge', line: 2, column: 3 }]);
    expect(expectExit(leopold(['graph', 'drafts/PLAN.md', '--format', 'github']), 1).stderr).toMatch(/^::error file=drafts\/PLAN\.md,line=2,col=3,.*title=dangling-edge::/);
    rmSync(join(repo, 'drafts'), { recursive: true });
  });

  it('compile, compile --check, compile --print', () => {
    expectExit(leopold(['compile', '--check']), 1);
    const wrote = expectExit(leopold(['compile']), 0);
    // init wrote the read-only agent already: compile leaves it as it is.
    expect(wrote.stderr).toMatch(/^leopold: wrote \.claude\/workflows\/leopold-run\.js \(\d+ bytes\) and \.leopold\/workflow-args\.json; \.claude\/agents\/leopold-readonly\.md already up to date$/m);
    expect(expectExit(leopold(['compile', '--check']), 0).stderr).toMatch(/up to date/);
    const script = readFileSync(join(repo, '.claude', 'workflows', 'leopold-run.js'), 'utf8');
    expect(expectExit(leopold(['compile', '--print']), 0).stdout).toBe(script);
    expect(script.includes(work)).toBe(false);
    // What docs/init.md says to commit, committed.
    expectExit(run('git', ['add', '-A'], repo), 0);
    expectExit(run('git', ['-c', 'user.name=Smoke', '-c', 'user.email=smoke@example.invalid', 'commit', '-qm', 'leopold'], repo), 0);
    expect(expectExit(run('git', ['ls-files'], repo), 0).stdout).not.toMatch(/node_modules|state\.json/);
  });

  it('simulate and simulate --json, with the scripted answers', () => {
    const text = expectExit(leopold(['simulate', '--answers', 'answers.json']), 0);
    expect(text.stdout).toMatch(/^Simulated \.leopold\/PLAN\.md in the stand-in host: 7 open items, routed loop, autonomy full$/m);
    expect(text.stdout).toMatch(/^Stop: routed_complete /m);
    const doc = JSON.parse(expectExit(leopold(['simulate', '--json']), 0).stdout) as { ok: boolean; result: { stop: string } };
    expect(doc.ok).toBe(true);
    expect(typeof doc.result.stop).toBe('string');
  });

  it('ci: graph --strict, compile --check and the rehearsal in the real client, to the end of the plan', () => {
    const ci = expectExit(leopold(['ci', '--claude', CLAUDE, '--answers', 'answers.json']), 0);
    expect(ci.stdout).toMatch(/^leopold ci: guardrails ok · graph --strict ok · compile --check ok · rehearsal ok \(routed_complete, 5 of 7 items done, 1 routed around\); report in leopold-ci\/$/m);
    expect(JSON.parse(readFileSync(join(repo, 'leopold-ci', 'ci.json'), 'utf8'))).toMatchObject({ ok: true, reachedEnd: true, host: expect.stringMatching(/^Claude Code \d+\.\d+\.\d+ \(scripted model\)$/) });
  });

  it('a run: start, status, record, plan tick, plan amend, the hooks, stop, finish, unlock, allow', () => {
    const start = expectExit(leopold(['run', 'start']), 0);
    expect(start.stdout).toMatch(/^Run started \(engine: session\)/);
    expect(expectExit(leopold(['run', 'status']), 0).stdout).toMatch(/^Run: active · engine session$/m);
    expect(JSON.parse(expectExit(leopold(['run', 'status', '--json']), 0).stdout)).toMatchObject({ state: { active: true } });
    // The agents' commands, exactly as Leopold writes them (from the project root, no PATH lookup).
    const cli = (args: string, input = '') => run('/bin/sh', ['-c', `${PROJECT_CLI} ${args}`], repo, input);
    expect(JSON.parse(expectExit(cli('record', JSON.stringify({ events: [{ event: 'tool', item: 1, command: 'npm test', exit: 0 }] })), 0).stdout)).toMatchObject({ ok: true });
    // Done means verified: during a run a work item is ticked only with a receipt that matches the tree.
    expect(expectExit(cli("plan tick '#count'"), 1).stdout + '').not.toMatch(/ticked/);
    expect(cli("plan tick '#count'").stderr).toMatch(/item 2 has no passing verification recorded/);
    const receipts = { events: [2, 3].map((item) => ({ event: 'verified', item, commands: ['npm test'] })) };
    expect(JSON.parse(expectExit(cli('record', JSON.stringify(receipts)), 0).stdout)).toMatchObject({ ok: true, events: 2 });
    // In a shell `#` starts a comment: an anchor is quoted.
    expect(expectExit(cli("plan tick '#count'"), 0).stdout).toMatch(/^ticked item 2: Count words, lines and bytes of one file$/m);
    expect(JSON.parse(expectExit(cli('plan tick 3 --json'), 0).stdout)).toMatchObject({ ok: true });
    const amend = Buffer.from('```leopold-amend\nADD (after: 3) Write the changelog\n```\n').toString('base64');
    expect(JSON.parse(expectExit(cli(`plan amend --base64 ${amend} --json`), 0).stdout)).toMatchObject({ ok: true });
    expect(readFileSync(join(repo, '.leopold', 'PLAN.md'), 'utf8')).toMatch(/- \[x\] \(after: #setup\) Count words[\s\S]*- \[ \] \(after: 3\) Write the changelog\n$/);

    // The hooks as settings.json registers them, and through the CLI (README: hook guard, hook stop).
    const settings = JSON.parse(readFileSync(join(repo, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> };
    const guardCommand = settings.hooks.PreToolUse!.find((g) => g.matcher === 'Bash')!.hooks[0]!.command;
    const commit = JSON.stringify({ cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git commit -am "ship it"' } });
    for (const guard of [run('/bin/sh', ['-c', guardCommand], join(repo, 'src'), commit, { CLAUDE_PROJECT_DIR: repo }), leopold(['hook', 'guard'], commit)]) {
      expect(JSON.parse(expectExit(guard, 0).stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    }
    const stopInput = JSON.stringify({ session_id: 's', transcript_path: '', cwd: repo, hook_event_name: 'Stop', stop_hook_active: false, background_tasks: [] });
    // A block is exit 2 with the reason on stderr (docs/hooks.md).
    const stop = expectExit(leopold(['hook', 'stop'], stopInput), 2);
    expect(stop.stdout).toBe('');
    expect(stop.stderr).toContain(`${PROJECT_CLI} plan tick 4`);

    expect(expectExit(leopold(['run', 'stop']), 0).stdout).toMatch(/^Kill switch raised: \.leopold\/STOP/);
    const finish = expectExit(leopold(['run', 'finish']), 0);
    expect(finish.stdout).toMatch(/^Leopold run ended: kill_switch/m);
    rmSync(join(repo, '.leopold', 'STOP'));
    expectExit(leopold(['run', 'unlock']), 0);
    expectExit(leopold(['run', 'allow', 'git']), 0);
    expect(existsSync(join(repo, '.leopold', 'ALLOW_GIT'))).toBe(true);
    expect(expectExit(run('git', ['status', '--porcelain', '--', '.leopold'], repo), 0).stdout).toBe(' M .leopold/PLAN.md\n');
  });
});

describe('the Claude Code plugin (dist/plugin), in a fresh repository with no install', () => {
  it('bin/leopold: init --ci, graph, compile, compile --check, simulate', () => {
    expect(statSync(join(pluginDir, 'bin', 'leopold')).mode & 0o111).not.toBe(0);
    const init = expectExit(viaPlugin(['init', '--ci']), 0);
    expect(init.stdout).toMatch(/^created +\.github\/workflows\/leopold\.yml/m);
    expect(init.stdout).toMatch(/^note +node_modules\/leopold is not installed/m);
    expect(readFileSync(join(pluginRepo, '.github', 'workflows', 'leopold.yml'), 'utf8')).not.toMatch(/\{\{[A-Z_]+\}\}/);
    exampleBrief(pluginRepo);
    expect(expectExit(viaPlugin(['graph']), 0).stdout.split('\n')[0]).toBe('.leopold/PLAN.md: 8 items (1 done), routed, 6 stages');
    expectExit(viaPlugin(['compile']), 0);
    expectExit(viaPlugin(['compile', '--check']), 0);
    expect(expectExit(viaPlugin(['simulate', '--answers', 'answers.json']), 0).stdout).toMatch(/^Stop: routed_complete /m);
  });

  it('bin/leopold ci: the rehearsal in the real client', () => {
    const ci = expectExit(viaPlugin(['ci', '--claude', CLAUDE, '--answers', 'answers.json', '--json']), 0);
    expect(JSON.parse(ci.stdout)).toMatchObject({ ok: true, stop: 'routed_complete', done: 5, total: 7, reachedEnd: true });
  });

  it('bin/leopold run start, status, finish: its own hooks act where the project has no install', () => {
    // init registered the project's hooks, but nothing is installed: the plugin's hooks act, and run start checks those.
    const start = expectExit(viaPlugin(['run', 'start']), 0);
    expect(start.stdout).toMatch(/^Run started \(engine: session\)/);
    expect(expectExit(viaPlugin(['run', 'status']), 0).stdout).toMatch(/^Run: active · engine session$/m);
    const guard = run('/bin/sh', ['-c', `node "${pluginDir}/hooks/guard.js" --plugin`], pluginRepo, JSON.stringify({ cwd: pluginRepo, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git push' } }));
    expect(JSON.parse(expectExit(guard, 0).stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(expectExit(viaPlugin(['run', 'finish']), 0).stdout).toMatch(/^Leopold run ended: /m);
    expect(expectExit(viaPlugin(['run', 'status']), 0).stdout).toMatch(/^Run: not active/m);
  });
});

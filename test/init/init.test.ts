import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookBlock, IGNORE_RULES, leopoldInstall, mergeHooks, projectRoot } from '../../compiler/cli/commands/init.js';
import { isLeopoldHook, leopoldHookOf, PROJECT_CLI, PROJECT_HOOKS } from '../../runtime/project-cli/index.js';
import { parseGuardrails } from '../../compiler/brief/guardrails.js';
import { privatePackage, root } from '../support/built-dist.js';

const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-init-')));
// The package under test: a private copy (dist/, templates/, package.json), so a rebuild
// by a suite running beside this one never hands `init` a half-written file.
let pkg = '';
let cli = '';
const { guard, stop } = PROJECT_HOOKS;

beforeAll(async () => {
  pkg = await privatePackage();
  cli = join(pkg, 'dist', 'leopold.js');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
function repo(): string {
  const dir = join(work, `r${n++}`);
  mkdirSync(join(dir, '.git'), { recursive: true });
  mkdirSync(join(dir, 'packages', 'app'), { recursive: true });
  return dir;
}
const init = (cwd: string, ...args: string[]) => {
  const out = spawnSync(process.execPath, [cli, 'init', ...args], { cwd, encoding: 'utf8' });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
};

// A settings.json a user already has: unrelated hooks on the same events and other keys.
const EXISTING = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "$CLAUDE_PROJECT_DIR" >> /tmp/audit' }] }],
    PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'npx prettier --write', timeout: 30 }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
  },
  env: { FOO: '1' },
};

const commandsOf = (settings: { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> }, event: string, matcher?: string) =>
  settings.hooks[event]!.filter((g) => matcher === undefined || g.matcher === matcher).flatMap((g) => g.hooks.map((h) => h.command));

describe('leopold init (built binary)', () => {
  it('run twice on a repository with a settings.json keeps every old entry and adds ours exactly once', () => {
    const dir = repo();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify(EXISTING, null, 2));
    const first = init(join(dir, 'packages', 'app')); // from a subdirectory: the git top level is the root
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^created +\.leopold\/MISSION\.md$/m);
    expect(first.stdout).toMatch(/^updated +\.claude\/settings\.json +\(added PreToolUse Bash, PreToolUse Write\|Edit\|MultiEdit, PreToolUse Agent\|Task, Stop, StopFailure\)$/m);
    expect(first.stdout).toMatch(/^created +\.claude\/skills\/leopold-workflow\/SKILL\.md$/m);
    const afterFirst = readFileSync(join(dir, '.claude', 'settings.json'), 'utf8');

    const second = init(dir);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^kept +\.leopold\/PLAN\.md +\(exists; not overwritten\)$/m);
    expect(second.stdout).toMatch(/^unchanged +\.claude\/settings\.json/m);
    const text = readFileSync(join(dir, '.claude', 'settings.json'), 'utf8');
    expect(text).toBe(afterFirst);
    const settings = JSON.parse(text);
    // Every old key and entry is still there, in place.
    expect(settings).toMatchObject({ model: 'opus', permissions: EXISTING.permissions, env: EXISTING.env });
    expect(settings.hooks.PreToolUse[0]).toEqual(EXISTING.hooks.PreToolUse[0]);
    expect(settings.hooks.PostToolUse).toEqual(EXISTING.hooks.PostToolUse);
    expect(settings.hooks.Stop[0]).toEqual(EXISTING.hooks.Stop[0]);
    // Ours exactly once each, as direct node commands (never npx).
    expect(commandsOf(settings, 'PreToolUse', 'Bash').filter((c) => c === guard)).toHaveLength(1);
    expect(commandsOf(settings, 'PreToolUse', 'Write|Edit|MultiEdit').filter((c) => c === guard)).toHaveLength(1);
    // The subagent cap's count: the guard sees every Task/Agent call (docs/guardrails.md max_subagents).
    expect(commandsOf(settings, 'PreToolUse', 'Agent|Task').filter((c) => c === guard)).toHaveLength(1);
    expect(commandsOf(settings, 'Stop').filter((c) => c === stop)).toHaveLength(1);
    expect(commandsOf(settings, 'StopFailure')).toEqual([PROJECT_HOOKS.stopFailure]);
    expect(text).not.toMatch(/npx leopold/);
    expect(existsSync(join(dir, 'packages', 'app', '.leopold'))).toBe(false);
  });

  it('never overwrites a brief file or a modified skill', () => {
    const dir = repo();
    mkdirSync(join(dir, '.leopold'));
    writeFileSync(join(dir, '.leopold', 'PLAN.md'), '- [ ] mine\n');
    mkdirSync(join(dir, '.claude', 'skills', 'leopold-workflow'), { recursive: true });
    writeFileSync(join(dir, '.claude', 'skills', 'leopold-workflow', 'SKILL.md'), 'my own skill\n');
    const out = init(dir);
    expect(out.code).toBe(0);
    expect(readFileSync(join(dir, '.leopold', 'PLAN.md'), 'utf8')).toBe('- [ ] mine\n');
    expect(out.stdout).toMatch(/^kept +\.leopold\/PLAN\.md/m);
    expect(out.stdout).toMatch(/^created +\.leopold\/CHARTER\.md/m);
    expect(readFileSync(join(dir, '.claude', 'skills', 'leopold-workflow', 'SKILL.md'), 'utf8')).toBe('my own skill\n');
    expect(out.stdout).toMatch(/^kept +\.claude\/skills\/leopold-workflow\/SKILL\.md +\(differs/m);
    expect(out.stdout).toMatch(/^created +\.claude\/settings\.json/m);
  });

  it('a settings.json that is not valid JSON: exit 2, a clear error, the file untouched and nothing written', () => {
    const dir = repo();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), '{ "hooks": { ,, }');
    const out = init(dir);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/settings\.json is not valid JSON .*left untouched/);
    expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toBe('{ "hooks": { ,, }');
    expect(existsSync(join(dir, '.leopold'))).toBe(false);
    for (const bad of ['[1]', '{"hooks": []}', '{"hooks": {"Stop": {}}}']) {
      writeFileSync(join(dir, '.claude', 'settings.json'), bad);
      expect(init(dir).code).toBe(2);
      expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toBe(bad);
    }
  });

  it('installs a skill that launches the workflow, and a starter brief that compiles', () => {
    const dir = repo();
    expect(init(dir).code).toBe(0);
    const skill = readFileSync(join(dir, '.claude', 'skills', 'leopold-workflow', 'SKILL.md'), 'utf8');
    // Only you start a run: the model may not launch the skill by itself (Claude Code's skill frontmatter).
    expect(skill).toMatch(/^---\nname: leopold-workflow\ndescription: .+\ndisable-model-invocation: true\n---\n/);
    expect(readFileSync(join(dir, '.claude', 'skills', 'leopold-run', 'SKILL.md'), 'utf8')).toMatch(/^---\nname: leopold-run\ndescription: .+\ndisable-model-invocation: true\n---\n/);
    for (const needle of ['leopold run start --engine workflow', 'leopold compile', 'leopold-amend', 'ROUTE <item> <condition> -> <target>', 'ADD (after: N)', 'leopold compile --repair-from -', "Workflow({ scriptPath: '.claude/workflows/leopold-run.js' })", 'leopold run finish']) {
      expect(skill).toContain(needle);
    }
    expect(skill).toContain(`    ${PROJECT_CLI} run start --engine workflow\n`);
    expect(skill).not.toContain(root);
    expect(skill).not.toContain(pkg);
    expect(skill).not.toContain('{{');
    const compiled = spawnSync(process.execPath, [cli, 'compile'], { cwd: dir, encoding: 'utf8' });
    expect(compiled.status, compiled.stderr).toBe(0);
    const guardrails = parseGuardrails(readFileSync(join(dir, '.leopold', 'GUARDRAILS.md'), 'utf8'), 'GUARDRAILS.md');
    expect(guardrails.diagnostics).toEqual([]);
    expect(guardrails.guardrails.autonomy).toBeUndefined(); // every key commented: defaults apply
    const text = readFileSync(join(dir, '.leopold', 'GUARDRAILS.md'), 'utf8');
    for (const key of ['autonomy: full', 'max_review_rounds: 3', 'max_iterations: 50', 'max_failures: 3', 'max_no_progress: 6', 'max_context_mb: 5', 'max_windows: 10', 'max_subagents: 100', 'max_subagents_per_run: 2000', 'parallel_items: off', 'notify_webhook: none', 'gated: none']) {
      expect(text).toContain(`- ${key}\n`);
    }
  });
});

describe('init units', () => {
  it('project root: the git top level, else the directory itself', () => {
    const dir = repo();
    expect(projectRoot(join(dir, 'packages', 'app'))).toBe(dir);
    const plain = join(work, 'plain');
    mkdirSync(plain, { recursive: true });
    expect(projectRoot(plain)).toBe(plain);
  });

  it('recognises the hook commands any Leopold install registered, and nothing else', () => {
    for (const command of [
      PROJECT_HOOKS.guard,
      PROJECT_HOOKS.stop,
      'node /opt/leopold/dist/hooks/stop.js',
      'node "/My Tools/leo\\$pold/dist/hooks/guard.js"',
      'leopold hook guard',
      'npx leopold hook stop',
    ]) {
      expect(isLeopoldHook(command), command).toBe(true);
    }
    for (const command of ['say done', 'node scripts/guard.js', 'echo dist/hooks/guard.js >> log', 'npx prettier --write', undefined]) {
      expect(isLeopoldHook(command), String(command)).toBe(false);
    }
  });

  it('mergeHooks is idempotent and keeps foreign entries', () => {
    const install = leopoldInstall();
    const block = hookBlock(readFileSync(join(install.templates, 'settings', 'hooks.json'), 'utf8'), { guard: 'node "/a b/guard.js"', stop: 'node /s.js', stopFailure: 'node /f.js' });
    const once = mergeHooks(EXISTING, block);
    expect(once.added).toHaveLength(5);
    const twice = mergeHooks(once.settings, block);
    expect(twice.added).toEqual([]);
    expect(twice.settings).toEqual(once.settings);
    expect(JSON.stringify(twice.settings)).toContain('node \\"/a b/guard.js\\"');
  });
});

/** Gives `dir` a project install of the package under test (what `npm i -D leopold` leaves), as symlinks. */
function installHere(dir: string): void {
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(pkg, join(dir, 'node_modules', 'leopold'), 'dir');
  symlinkSync('../leopold/dist/leopold.js', join(dir, 'node_modules', '.bin', 'leopold'));
}

/** Every file under `dir` (node_modules and .git left out), with its text. */
function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile() || /[\\/](node_modules|\.git)([\\/]|$)/.test(path)) continue;
    out[path.slice(dir.length + 1)] = readFileSync(path, 'utf8');
  }
  return out;
}

describe('leopold init: nothing tied to one machine', () => {
  it('re-run after a move: stale Leopold entries are replaced, exactly one of each hook, and it says so', () => {
    const dir = repo();
    mkdirSync(join(dir, '.claude', 'skills', 'leopold-run'), { recursive: true });
    const old = (p: string) => ({ hooks: [{ type: 'command', command: `node ${p}/dist/hooks/guard.js` }] });
    writeFileSync(
      join(dir, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            EXISTING.hooks.PreToolUse[0],
            { matcher: 'Bash', ...old('/old/checkout') },
            { matcher: 'Write|Edit|MultiEdit', ...old('/old/checkout') },
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'node "/My Tools/leopold/dist/hooks/guard.js"' }, { type: 'command', command: 'echo mine' }] },
          ],
          Stop: [EXISTING.hooks.Stop[0], { hooks: [{ type: 'command', command: 'node /old/checkout/dist/hooks/stop.js' }] }],
        },
      }),
    );
    // What an older init wrote: the skill naming that machine's dist/leopold.js.
    writeFileSync(join(dir, '.claude', 'skills', 'leopold-run', 'SKILL.md'), 'is the Leopold CLI: run `leopold` if it is on your PATH, otherwise\n`node /old/checkout/dist/leopold.js`.\n');
    const out = init(join(dir, 'packages'));
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^updated +\.claude\/settings\.json +\(replaced 4 stale Leopold hooks: node \/old\/checkout\/dist\/hooks\/guard\.js, node "\/My Tools\/leopold\/dist\/hooks\/guard\.js", node \/old\/checkout\/dist\/hooks\/stop\.js; added PreToolUse Bash, PreToolUse Write\|Edit\|MultiEdit, PreToolUse Agent\|Task, Stop, StopFailure\)$/m);
    expect(out.stdout).toMatch(/^updated +\.claude\/skills\/leopold-run\/SKILL\.md +\(replaced an older Leopold skill/m);
    const settings = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'));
    const all = (event: string) => commandsOf(settings, event).filter(isLeopoldHook);
    expect(all('PreToolUse')).toEqual([guard, guard, guard]);
    expect(commandsOf(settings, 'PreToolUse', 'Bash').filter(isLeopoldHook)).toEqual([guard]);
    expect(all('Stop')).toEqual([stop]);
    // Foreign entries stay, including the one that shared a group with a stale hook.
    expect(commandsOf(settings, 'PreToolUse')).toEqual(expect.arrayContaining(['echo "$CLAUDE_PROJECT_DIR" >> /tmp/audit', 'echo mine']));
    expect(commandsOf(settings, 'Stop')).toContain('say done');
    expect(readFileSync(join(dir, '.claude', 'skills', 'leopold-run', 'SKILL.md'), 'utf8')).toContain(`${PROJECT_CLI} run status`);
    expect(init(dir).stdout).toMatch(/^unchanged +\.claude\/settings\.json/m);
  });

  it('a skill an older init wrote without disable-model-invocation is Leopold\'s: updated, and stale to --check', () => {
    const dir = repo();
    expect(init(dir).code).toBe(0);
    const path = join(dir, '.claude', 'skills', 'leopold-workflow', 'SKILL.md');
    const ours = readFileSync(path, 'utf8');
    writeFileSync(path, ours.replace('disable-model-invocation: true\n', ''));
    expect(init(dir, '--check').stdout).toMatch(/^stale +\.claude\/skills\/leopold-workflow\/SKILL\.md +\(replaced an older Leopold skill the model could start by itself\)/m);
    expect(init(dir).stdout).toMatch(/^updated +\.claude\/skills\/leopold-workflow\/SKILL\.md/m);
    expect(readFileSync(path, 'utf8')).toBe(ours);
  });

  it('init --check: exit 1 for a missing, stale or uninstalled setup, 0 when it is complete; writes nothing', () => {
    const dir = repo();
    const fresh = init(dir, '--check');
    expect(fresh.code).toBe(1);
    expect(fresh.stdout).toMatch(/^missing +\.claude\/settings\.json/m);
    expect(fresh.stdout).toMatch(/^missing +node_modules\/leopold +\(.*npm i -D leopold/m);
    expect(fresh.stderr).toMatch(/^leopold: not set up: .*; run leopold init/m);
    expect(existsSync(join(dir, '.claude')) || existsSync(join(dir, '.leopold'))).toBe(false);

    expect(init(dir).code).toBe(0);
    const uninstalled = init(dir, '--check');
    expect(uninstalled.code).toBe(1);
    expect(uninstalled.stdout).toMatch(/^ok +\.claude\/settings\.json/m);
    expect(uninstalled.stdout).toMatch(/^missing +node_modules\/leopold/m);

    installHere(dir);
    const ok = init(join(dir, 'packages', 'app'), '--check');
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.stderr).toBe('');

    const settingsPath = join(dir, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8'));
    settings.hooks.Stop.push({ hooks: [{ type: 'command', command: 'node /moved/away/dist/hooks/stop.js' }] });
    writeFileSync(settingsPath, JSON.stringify(settings));
    const stale = init(dir, '--check');
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/^stale +\.claude\/settings\.json +\(replaced 1 stale Leopold hook: node \/moved\/away\/dist\/hooks\/stop\.js\)$/m);
    expect(JSON.parse(readFileSync(settingsPath, 'utf8'))).toEqual(settings);
  });

  it('ignores the run\'s transient files and nothing a team commits', () => {
    const dir = join(work, `git${n++}`);
    mkdirSync(dir);
    if (spawnSync('git', ['init', '-q'], { cwd: dir }).status !== 0) return; // no git here: the unit below still runs
    expect(init(dir).code).toBe(0);
    const ignored = (path: string) => spawnSync('git', ['check-ignore', '-q', path], { cwd: dir }).status === 0;
    for (const path of ['state.json', 'events.jsonl', 'CHECKPOINT.md', 'record.json', '.DECISIONS.md.append', '.CHARTER.md.rules', 'STOP', 'ALLOW_GIT', 'ALLOW_PUSH', 'state.json.lock', 'PLAN.md.lock', 'DECISIONS.md.lock', 'events.jsonl.lock', 'PLAN.md.lock.broken-12-ab', '.state.json.1.0.tmp']) {
      expect(ignored(`.leopold/${path}`), path).toBe(true);
    }
    for (const path of ['.leopold/PLAN.md', '.leopold/MISSION.md', '.leopold/CHARTER.md', '.leopold/GUARDRAILS.md', '.leopold/DECISIONS.md', '.leopold/workflow-args.json', '.claude/settings.json', '.claude/workflows/leopold-run.js']) {
      expect(ignored(path), path).toBe(false);
    }
    // A second run adds nothing; a user's own rules stay and only missing ones are appended.
    expect(init(dir).stdout).toMatch(/^unchanged +\.leopold\/\.gitignore$/m);
    writeFileSync(join(dir, '.leopold', '.gitignore'), 'my-notes.txt\nstate.json');
    expect(init(dir).stdout).toMatch(/^updated +\.leopold\/\.gitignore +\(added events\.jsonl /m);
    const text = readFileSync(join(dir, '.leopold', '.gitignore'), 'utf8');
    expect(text.startsWith('my-notes.txt\nstate.json\nevents.jsonl\n')).toBe(true);
    expect(IGNORE_RULES.every((rule) => text.split('\n').includes(rule))).toBe(true);
  });

  it('no absolute path in any file init or compile writes (the temp dir, the checkout)', () => {
    const dir = join(realpathSync(mkdtempSync(join(tmpdir(), 'leopold init abs '))), 'my repo');
    mkdirSync(join(dir, '.git'), { recursive: true });
    mkdirSync(join(dir, 'src'));
    try {
      expect(init(join(dir, 'src')).code).toBe(0);
      const compiled = spawnSync(process.execPath, [cli, 'compile'], { cwd: join(dir, 'src'), encoding: 'utf8' });
      expect(compiled.status, compiled.stderr).toBe(0);
      const files = filesUnder(dir);
      expect(Object.keys(files).sort()).toEqual(
        [
          '.claude/agents/leopold-readonly.md',
          '.claude/settings.json',
          '.claude/skills/leopold-brief/SKILL.md',
          '.claude/skills/leopold-run/SKILL.md',
          '.claude/skills/leopold-status/SKILL.md',
          '.claude/skills/leopold-stop/SKILL.md',
          '.claude/skills/leopold-workflow/SKILL.md',
          '.claude/workflows/leopold-run.js',
          '.leopold/.gitignore',
          '.leopold/CHARTER.md',
          '.leopold/GUARDRAILS.md',
          '.leopold/MISSION.md',
          '.leopold/PLAN.md',
          '.leopold/workflow-args.json',
        ].sort(),
      );
      for (const [path, text] of Object.entries(files)) {
        for (const absolute of [dir, realpathSync(tmpdir()), tmpdir(), root, pkg, work]) expect(text.includes(absolute), `${path} contains ${absolute}`).toBe(false);
        expect(text, path).not.toMatch(/(^|[\s"'`(=])\/(tmp|work|root|home|Users)\//m);
      }
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  });
});

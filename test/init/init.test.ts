import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookBlock, leopoldInstall, mergeHooks, nodeCommand, projectRoot } from '../../compiler/cli/commands/init.js';
import { parseGuardrails } from '../../compiler/brief/guardrails.js';
import { buildDist, root } from '../support/built-dist.js';

const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-init-')));
const cli = join(root, 'dist', 'leopold.js');
const guard = `node ${join(root, 'dist', 'hooks', 'guard.js')}`;
const stop = `node ${join(root, 'dist', 'hooks', 'stop.js')}`;

beforeAll(() => buildDist(), 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
function repo(): string {
  const dir = join(work, `r${n++}`);
  mkdirSync(join(dir, '.git'), { recursive: true });
  mkdirSync(join(dir, 'packages', 'app'), { recursive: true });
  return dir;
}
const init = (cwd: string) => {
  const out = spawnSync(process.execPath, [cli, 'init'], { cwd, encoding: 'utf8' });
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
    expect(first.stdout).toMatch(/^updated +\.claude\/settings\.json +\(added PreToolUse Bash, PreToolUse Write\|Edit\|MultiEdit, Stop\)$/m);
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
    expect(commandsOf(settings, 'Stop').filter((c) => c === stop)).toHaveLength(1);
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
    expect(skill).toMatch(/^---\nname: leopold-workflow\ndescription: .+\n---\n/);
    for (const needle of ['leopold run start --engine workflow', 'leopold compile', 'leopold-amend', 'ROUTE <item> <condition> -> <target>', 'ADD (after: N)', 'leopold compile --repair-from -', "Workflow({ scriptPath: '.claude/workflows/leopold-run.js' })", 'leopold run finish']) {
      expect(skill).toContain(needle);
    }
    expect(skill).toContain(`node ${cli}`);
    expect(skill).not.toContain('{{');
    const compiled = spawnSync(process.execPath, [cli, 'compile'], { cwd: dir, encoding: 'utf8' });
    expect(compiled.status, compiled.stderr).toBe(0);
    const guardrails = parseGuardrails(readFileSync(join(dir, '.leopold', 'GUARDRAILS.md'), 'utf8'), 'GUARDRAILS.md');
    expect(guardrails.diagnostics).toEqual([]);
    expect(guardrails.guardrails.autonomy).toBeUndefined(); // every key commented: defaults apply
    const text = readFileSync(join(dir, '.leopold', 'GUARDRAILS.md'), 'utf8');
    for (const key of ['autonomy: full', 'max_review_rounds: 2', 'max_iterations: 50', 'max_failures: 3', 'max_no_progress: 6', 'max_context_mb: 5', 'max_windows: 10', 'parallel_items: off', 'notify_webhook: none']) {
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

  it('quotes a hook path only when the shell would split it', () => {
    expect(nodeCommand('/opt/leopold/dist/hooks/stop.js')).toBe('node /opt/leopold/dist/hooks/stop.js');
    expect(nodeCommand('/My Tools/leo$pold/dist/hooks/stop.js')).toBe('node "/My Tools/leo\\$pold/dist/hooks/stop.js"');
  });

  it('mergeHooks is idempotent and keeps foreign entries', () => {
    const install = leopoldInstall();
    const block = hookBlock(readFileSync(join(install.templates, 'settings', 'hooks.json'), 'utf8'), { guard: 'node "/a b/guard.js"', stop: 'node /s.js' });
    const once = mergeHooks(EXISTING, block);
    expect(once.added).toHaveLength(3);
    const twice = mergeHooks(once.settings, block);
    expect(twice.added).toEqual([]);
    expect(twice.settings).toEqual(once.settings);
    expect(JSON.stringify(twice.settings)).toContain('node \\"/a b/guard.js\\"');
  });
});

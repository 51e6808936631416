import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { LeopoldError } from '../../diagnostics/diagnostic.js';
import { writeFileAtomic } from '../../../runtime/fs/atomic.js';

/** What init did to one file. */
export type InitAction = 'created' | 'kept' | 'updated' | 'unchanged';

/** One line of init's report. */
export interface InitStep {
  path: string;
  action: InitAction;
  note: string;
}

/** Where Leopold itself is installed: its templates and built hooks. */
export interface LeopoldInstall {
  root: string;
  templates: string;
  guard: string;
  stop: string;
  cli: string;
}

const BRIEF_TEMPLATES = ['MISSION.md', 'CHARTER.md', 'GUARDRAILS.md', 'PLAN.md'] as const;
const SKILLS = ['leopold-workflow', 'leopold-run'] as const;

/**
 * The Leopold package this code runs from: the nearest ancestor with a package.json named
 * "leopold" (dist/leopold.js and the sources both sit inside it).
 */
export function leopoldInstall(from: string = dirname(fileURLToPath(import.meta.url))): LeopoldInstall {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === 'leopold') {
        return {
          root: dir,
          templates: join(dir, 'templates'),
          guard: join(dir, 'dist', 'hooks', 'guard.js'),
          stop: join(dir, 'dist', 'hooks', 'stop.js'),
          cli: join(dir, 'dist', 'leopold.js'),
        };
      }
    } catch {
      // no package.json here: keep walking
    }
    if (dirname(dir) === dir) throw new LeopoldError(`cannot find the Leopold package (its templates) above ${from}`);
  }
}

/**
 * The project init sets up: the top of the git work tree containing `cwd` (where Claude
 * Code is usually started, and where `$CLAUDE_PROJECT_DIR` points), else `cwd` itself.
 */
export function projectRoot(cwd: string): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
}

/** `node <path>`, quoting the path when the shell would split or expand it. */
export function nodeCommand(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? `node ${path}` : `node "${path.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** A hook group as Claude Code's settings hold it (CLAUDE-CODE.md §4). */
interface HookGroup {
  matcher?: string;
  hooks: { type: string; command?: string; timeout?: number }[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Leopold's hooks block (templates/settings/hooks.json) with the commands filled in. */
export function hookBlock(template: string, commands: { guard: string; stop: string }): Record<string, HookGroup[]> {
  const text = fill(template, { GUARD_COMMAND: JSON.stringify(commands.guard).slice(1, -1), STOP_COMMAND: JSON.stringify(commands.stop).slice(1, -1) });
  return (JSON.parse(text) as { hooks: Record<string, HookGroup[]> }).hooks;
}

/**
 * Merges Leopold's hooks block into parsed settings.json (PreToolUse `Bash` and
 * `Write|Edit|MultiEdit` → the guard, Stop → the Stop hook). Every existing key and entry
 * is kept; ours are recognised by their exact command (and matcher) and added only where
 * missing, so a second run changes nothing. Returns the settings and what was added.
 * Shapes Claude Code would not accept (hooks not an object, an event not a list) are a
 * LeopoldError: init never rewrites a file it does not understand.
 */
export function mergeHooks(settings: unknown, block: Readonly<Record<string, readonly HookGroup[]>>): { settings: Record<string, unknown>; added: string[] } {
  if (!isObject(settings)) throw new LeopoldError('.claude/settings.json is not a JSON object; fix it by hand, then run leopold init again');
  const out: Record<string, unknown> = { ...settings };
  const hooks = out.hooks === undefined ? {} : out.hooks;
  if (!isObject(hooks)) throw new LeopoldError('.claude/settings.json: "hooks" is not an object; fix it by hand, then run leopold init again');
  const merged: Record<string, unknown> = { ...hooks };
  const added: string[] = [];
  for (const [event, wanted] of Object.entries(block)) {
    for (const ours of wanted) {
      const groups = merged[event] === undefined ? [] : merged[event];
      if (!Array.isArray(groups)) throw new LeopoldError(`.claude/settings.json: "hooks.${event}" is not a list; fix it by hand, then run leopold init again`);
      const commands = ours.hooks.map((hook) => hook.command);
      // Stop ignores matchers, so any Stop group carrying our command counts.
      const present = groups.some(
        (group: unknown) =>
          isObject(group) &&
          (event === 'Stop' || group.matcher === ours.matcher) &&
          Array.isArray(group.hooks) &&
          group.hooks.some((hook: unknown) => isObject(hook) && commands.includes(hook.command as string)),
      );
      if (present) continue;
      merged[event] = [...groups, ours];
      added.push(ours.matcher === undefined ? event : `${event} ${ours.matcher}`);
    }
  }
  out.hooks = merged;
  return { settings: out, added };
}

/** Fills `{{NAME}}` placeholders of a template. */
function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}

function readTemplate(install: LeopoldInstall, path: string): string {
  try {
    return readFileSync(join(install.templates, path), 'utf8');
  } catch (error) {
    throw new LeopoldError(`cannot read the template ${path} (${(error as Error).message}); is the Leopold package complete?`);
  }
}

/** Writes `data` to a new file only: an existing file is never replaced (kept). */
function createOnly(path: string, data: string): 'created' | 'kept' {
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, data, { flag: 'wx', mode: 0o644 });
    return 'created';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return 'kept';
    throw error;
  }
}

/**
 * `leopold init` in `root`: the `.leopold/` starter brief (never overwriting a file), the
 * hooks merged into `.claude/settings.json`, and the `/leopold-workflow` and `/leopold-run`
 * skills (a skill file that differs from ours is the user's: kept). Calls `report` once
 * per file as it goes. I/O failures throw (the CLI exits 2); nothing is half-written.
 */
export function initProject(root: string, install: LeopoldInstall, report: (step: InitStep) => void): InitStep[] {
  const steps: InitStep[] = [];
  const done = (path: string, action: InitAction, note = '') => {
    const step = { path: relative(root, path) || path, action, note };
    steps.push(step);
    report(step);
  };
  const io = <T>(what: string, fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      if (error instanceof LeopoldError) throw error;
      throw new LeopoldError(`cannot ${what}: ${(error as Error).message}`);
    }
  };

  // settings.json first: if it cannot be merged, nothing at all is written.
  const settingsPath = join(root, '.claude', 'settings.json');
  const commands = { guard: nodeCommand(install.guard), stop: nodeCommand(install.stop) };
  const existing = io(`read ${settingsPath}`, () => (existsSync(settingsPath) ? readFileSync(settingsPath, 'utf8') : null));
  let parsed: unknown = {};
  if (existing !== null && existing.trim() !== '') {
    try {
      parsed = JSON.parse(existing.replace(/^\uFEFF/, ''));
    } catch (error) {
      throw new LeopoldError(`.claude/settings.json is not valid JSON (${(error as Error).message}); it was left untouched. Fix it, then run leopold init again`);
    }
  }
  const merged = mergeHooks(parsed, hookBlock(readTemplate(install, 'settings/hooks.json'), commands));

  for (const name of BRIEF_TEMPLATES) {
    const path = join(root, '.leopold', name);
    const action = io(`write ${path}`, () => createOnly(path, readTemplate(install, `brief/${name}`)));
    done(path, action, action === 'kept' ? 'exists; not overwritten' : '');
  }

  if (merged.added.length === 0) {
    done(settingsPath, 'unchanged', 'Leopold hooks already registered');
  } else {
    io(`write ${settingsPath}`, () => {
      mkdirSync(dirname(settingsPath), { recursive: true });
      writeFileAtomic(settingsPath, `${JSON.stringify(merged.settings, null, 2)}\n`);
    });
    const missing = [install.guard, install.stop].filter((p) => !existsSync(p));
    const note = `added ${merged.added.join(', ')}${missing.length > 0 ? ` (not built yet: ${missing.join(', ')}; run npm run build in ${install.root})` : ''}`;
    done(settingsPath, existing === null ? 'created' : 'updated', note);
  }

  for (const skill of SKILLS) {
    const path = join(root, '.claude', 'skills', skill, 'SKILL.md');
    const ours = fill(readTemplate(install, `skill/${skill}/SKILL.md`), { LEOPOLD_BIN: install.cli });
    const current = io(`read ${path}`, () => (existsSync(path) && statSync(path).isFile() ? readFileSync(path, 'utf8') : null));
    if (current === ours) {
      done(path, 'unchanged');
      continue;
    }
    const action = io(`write ${path}`, () => createOnly(path, ours));
    done(path, action, action === 'kept' ? 'differs from Leopold\'s (your changes?); not overwritten' : '');
  }
  return steps;
}

/** Where `init --ci` writes the GitHub Actions workflow. */
export const CI_WORKFLOW_PATH = '.github/workflows/leopold.yml';

/**
 * `init --ci`: the GitHub Actions workflow (templates/ci/leopold.yml) with the Claude Code
 * client version Leopold was tested with (its pinned devDependency) filled in. Never
 * overwrites: an existing file is the user's.
 */
export function initCiWorkflow(root: string, install: LeopoldInstall): InitStep {
  const pkg = JSON.parse(readTemplate(install, '../package.json')) as { devDependencies?: Record<string, string> };
  const version = pkg.devDependencies?.['@anthropic-ai/claude-code'] ?? 'latest';
  const path = join(root, CI_WORKFLOW_PATH);
  const text = fill(readTemplate(install, 'ci/leopold.yml'), { CLAUDE_CODE_VERSION: version });
  let action: 'created' | 'kept';
  try {
    action = createOnly(path, text);
  } catch (error) {
    throw new LeopoldError(`cannot write ${path}: ${(error as Error).message}`);
  }
  return { path: CI_WORKFLOW_PATH, action, note: action === 'kept' ? 'exists; not overwritten' : 'graph --strict, compile --check and the rehearsal on every push' };
}

/** `leopold init`: set up the current project for Leopold; one line per file. */
export function registerInit(program: Command): void {
  program
    .command('init')
    .description('Write the .leopold/ starter brief (never overwriting), merge the hooks into .claude/settings.json, install the /leopold-workflow skill')
    .option('--ci', `also write the GitHub Actions workflow ${CI_WORKFLOW_PATH} (plan checks and a rehearsal on every push)`)
    .action((options: { ci?: boolean }) => {
      const root = projectRoot(process.cwd());
      const install = leopoldInstall();
      const print = (step: InitStep) => process.stdout.write(`${step.action.padEnd(9)} ${step.path}${step.note ? `  (${step.note})` : ''}\n`);
      process.stdout.write(`Leopold init in ${root}\n`);
      initProject(root, install, print);
      if (options.ci) print(initCiWorkflow(root, install));
      process.stdout.write('Next: describe the work in .leopold/MISSION.md and .leopold/PLAN.md, then run /leopold-workflow (or /leopold-run) in Claude Code.\n');
    });
}

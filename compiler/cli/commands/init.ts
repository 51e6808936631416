import { sandboxAvailability, sandboxWarning } from '../../../runtime/lock/sandbox.js';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { LeopoldError } from '../../diagnostics/diagnostic.js';
import { createFileAtomic, writeFileAtomic } from '../../../runtime/fs/atomic.js';
import { readOptionalFile } from '../../../runtime/fs/read.js';
import { isLeopoldHook, PROJECT_CLI, PROJECT_HOOKS } from '../../../runtime/project-cli/index.js';
import { READ_ONLY_AGENT_DEFINITION, READ_ONLY_AGENT_PATH } from '../../../runtime/verify/agent.js';
import { EXIT } from '../exit.js';

/** What init did to one file. */
export type InitAction = 'created' | 'kept' | 'updated' | 'unchanged';

/** One line of init's report. */
export interface InitStep {
  path: string;
  action: InitAction;
  note: string;
}

/** Where the running Leopold is installed: init needs only its templates. */
export interface LeopoldInstall {
  root: string;
  templates: string;
}

const BRIEF_TEMPLATES = ['MISSION.md', 'CHARTER.md', 'GUARDRAILS.md', 'PLAN.md'] as const;
/** The skills init installs (templates/skill/<name>/SKILL.md); the plugin ships the same list (scripts/build.mjs). */
export const SKILLS = ['leopold-workflow', 'leopold-run', 'leopold-status', 'leopold-stop', 'leopold-brief'] as const;

/**
 * The Leopold package this code runs from: the nearest ancestor with a package.json named
 * "leopold" (dist/leopold.js and the sources both sit inside it).
 */
export function leopoldInstall(from: string = dirname(fileURLToPath(import.meta.url))): LeopoldInstall {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === 'leopold') {
        return { root: dir, templates: join(dir, 'templates') };
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

/** A hook group as Claude Code's settings hold it (docs/hooks.md). */
interface HookGroup {
  matcher?: string;
  hooks: { type: string; command?: string; timeout?: number }[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Leopold's hooks block (templates/settings/hooks.json) with the commands filled in. */
export function hookBlock(template: string, commands: { guard: string; stop: string; stopFailure: string }): Record<string, HookGroup[]> {
  const json = (command: string) => JSON.stringify(command).slice(1, -1);
  const text = fill(template, { GUARD_COMMAND: json(commands.guard), STOP_COMMAND: json(commands.stop), STOP_FAILURE_COMMAND: json(commands.stopFailure) });
  return (JSON.parse(text) as { hooks: Record<string, HookGroup[]> }).hooks;
}

/**
 * Merges Leopold's hooks block into parsed settings.json (PreToolUse `Bash` and
 * `Write|Edit|MultiEdit` → the guard, Stop → the Stop hook, StopFailure → the hook that
 * ends a run an API error killed). Every foreign key and entry
 * is kept in place. Leopold's own entries end up exactly once each: an older Leopold
 * command (another checkout's path, a moved package: `isLeopoldHook`) or a duplicate is
 * removed (`removed`), and ours is added where missing (`added`), so a second run changes
 * nothing. Shapes Claude Code would not accept (hooks not an object, an event not a list)
 * are a LeopoldError: init never rewrites a file it does not understand.
 */
export function mergeHooks(
  settings: unknown,
  block: Readonly<Record<string, readonly HookGroup[]>>,
): { settings: Record<string, unknown>; added: string[]; removed: string[] } {
  if (!isObject(settings)) throw new LeopoldError('.claude/settings.json is not a JSON object; fix it by hand, then run leopold init again');
  const out: Record<string, unknown> = { ...settings };
  const hooks = out.hooks === undefined ? {} : out.hooks;
  if (!isObject(hooks)) throw new LeopoldError('.claude/settings.json: "hooks" is not an object; fix it by hand, then run leopold init again');
  const merged: Record<string, unknown> = { ...hooks };
  const added: string[] = [];
  const removed: string[] = [];
  for (const [event, wanted] of Object.entries(block)) {
    const groups = merged[event] === undefined ? [] : merged[event];
    if (!Array.isArray(groups)) throw new LeopoldError(`.claude/settings.json: "hooks.${event}" is not a list; fix it by hand, then run leopold init again`);
    // Stop ignores matchers, so there our command counts in any group.
    const oursHere = (group: Record<string, unknown>, command: unknown) =>
      wanted.some((ours) => (event === 'Stop' || group.matcher === ours.matcher) && ours.hooks.some((hook) => hook.command === command));
    const seen = new Set<string>();
    const kept: unknown[] = [];
    for (const group of groups as unknown[]) {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const entries = (group.hooks as unknown[]).filter((hook) => {
        if (!isObject(hook) || !isLeopoldHook(hook.command)) return true;
        const key = `${event === 'Stop' ? '' : String(group.matcher)}\0${String(hook.command)}`;
        if (oursHere(group, hook.command) && !seen.has(key)) {
          seen.add(key);
          return true;
        }
        removed.push(String(hook.command));
        return false;
      });
      if (entries.length === group.hooks.length) kept.push(group);
      else if (entries.length > 0) kept.push({ ...group, hooks: entries });
    }
    for (const ours of wanted) {
      const present = kept.some(
        (group) =>
          isObject(group) &&
          (event === 'Stop' || group.matcher === ours.matcher) &&
          Array.isArray(group.hooks) &&
          group.hooks.some((hook: unknown) => isObject(hook) && ours.hooks.some((mine) => mine.command === hook.command)),
      );
      if (present) continue;
      kept.push(ours);
      added.push(ours.matcher === undefined ? event : `${event} ${ours.matcher}`);
    }
    merged[event] = kept;
  }
  out.hooks = merged;
  return { settings: out, added, removed };
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

/** Writes `data` to a new file only, whole or not at all: an existing file is never replaced (kept). */
function createOnly(path: string, data: string): 'created' | 'kept' {
  mkdirSync(dirname(path), { recursive: true });
  return createFileAtomic(path, data) ? 'created' : 'kept';
}

/** A file init reads to merge into, or null when there is none (a FIFO or a device is refused, never waited on). */
function readExisting(path: string): string | null {
  return readOptionalFile(path)?.toString('utf8') ?? null;
}

/**
 * `.leopold/.gitignore`: a run's own transient files (runtime/state, runtime/decisions,
 * runtime/fs, the kill switch and the git tokens), never committed. docs/init.md says
 * what a team does commit.
 */
export const IGNORE_RULES = ['state.json', 'events.jsonl', 'CHECKPOINT.md', 'record.json', 'amend.md', '.DECISIONS.md.append', '.CHARTER.md.rules', '.PLAN.md.items.json', 'STOP', 'stop-request', 'ALLOW_GIT', 'ALLOW_PUSH', 'lock.json', '.bystanders', '*.lock', '*.lock.broken-*', '.*.tmp'] as const;
const IGNORE_HEADER = '# Written by leopold init: a Leopold run\'s own transient files (see docs/init.md). Commit the rest of .leopold/.';

/** What the hooks and the agents' commands run: the project's own install (runtime/project-cli). */
export const PROJECT_INSTALL_FILES = ['node_modules/leopold/dist/hooks/guard.js', 'node_modules/leopold/dist/hooks/stop.js', 'node_modules/leopold/dist/hooks/stop-failure.js', 'node_modules/.bin/leopold'] as const;

/** The frontmatter line that keeps Claude from starting a run on its own: only you type /leopold-run. */
const MODEL_MAY_NOT_START = 'disable-model-invocation: true';

/** A skill written by an older init names one machine's `dist/leopold.js`: Leopold's, stale. */
const MACHINE_BOUND_SKILL = /otherwise\s+`node [^`\n]*dist[\\/]leopold\.js`/;

/** One planned step: what init reports, and the write that makes it so (none when nothing changes). */
interface PlannedStep extends InitStep {
  write?: () => void;
}

/**
 * What `leopold init` would do in `root`, reading only: the brief, settings.json, the
 * skills and `.leopold/.gitignore`. settings.json is parsed and merged first, so a file
 * init cannot merge stops everything before anything is written.
 */
function planInit(root: string, install: LeopoldInstall): PlannedStep[] {
  const steps: PlannedStep[] = [];
  const step = (path: string, action: InitAction, note: string, write?: () => void) => steps.push({ path: relative(root, path) || path, action, note, write });

  const settingsPath = join(root, '.claude', 'settings.json');
  const existing = readExisting(settingsPath);
  let parsed: unknown = {};
  if (existing !== null && existing.trim() !== '') {
    try {
      parsed = JSON.parse(existing.replace(/^\uFEFF/, ''));
    } catch (error) {
      throw new LeopoldError(`.claude/settings.json is not valid JSON (${(error as Error).message}); it was left untouched. Fix it, then run leopold init again`);
    }
  }
  const merged = mergeHooks(parsed, hookBlock(readTemplate(install, 'settings/hooks.json'), PROJECT_HOOKS));

  for (const name of BRIEF_TEMPLATES) {
    const path = join(root, '.leopold', name);
    if (existsSync(path)) step(path, 'kept', 'exists; not overwritten');
    else step(path, 'created', '', () => void createOnly(path, readTemplate(install, `brief/${name}`)));
  }

  if (merged.added.length === 0 && merged.removed.length === 0) {
    step(settingsPath, 'unchanged', 'Leopold hooks already registered');
  } else {
    const notes = [
      ...(merged.removed.length > 0 ? [`replaced ${merged.removed.length} stale Leopold hook${merged.removed.length === 1 ? '' : 's'}: ${[...new Set(merged.removed)].join(', ')}`] : []),
      ...(merged.added.length > 0 ? [`added ${merged.added.join(', ')}`] : []),
    ];
    step(settingsPath, existing === null ? 'created' : 'updated', notes.join('; '), () => {
      mkdirSync(dirname(settingsPath), { recursive: true });
      writeFileAtomic(settingsPath, `${JSON.stringify(merged.settings, null, 2)}\n`, { root });
    });
  }

  for (const skill of SKILLS) {
    const path = join(root, '.claude', 'skills', skill, 'SKILL.md');
    const ours = fill(readTemplate(install, `skill/${skill}/SKILL.md`), { LEOPOLD: PROJECT_CLI });
    const current = readExisting(path);
    if (current === ours) step(path, 'unchanged', '');
    else if (current === null) step(path, 'created', '', () => void createOnly(path, ours));
    else if (MACHINE_BOUND_SKILL.test(current)) step(path, 'updated', 'replaced an older Leopold skill that named one machine\'s dist/leopold.js', () => writeFileAtomic(path, ours, { root }));
    else if (current === ours.replace(`${MODEL_MAY_NOT_START}\n`, '')) step(path, 'updated', 'replaced an older Leopold skill the model could start by itself', () => writeFileAtomic(path, ours, { root }));
    else step(path, 'kept', 'differs from Leopold\'s (your changes?); not overwritten');
  }

  // The read-only agent the workflow's checkers run as. Claude Code reads .claude/agents/
  // when a session starts, so it must exist before the session that compiles and launches
  // the workflow (compile writes it too, for projects set up before it existed).
  const agentPath = join(root, READ_ONLY_AGENT_PATH);
  const agent = readExisting(agentPath);
  if (agent === READ_ONLY_AGENT_DEFINITION) step(agentPath, 'unchanged', '');
  else {
    step(agentPath, agent === null ? 'created' : 'updated', 'the read-only agent the workflow\'s verifiers, judges and reviewers run as', () => {
      mkdirSync(dirname(agentPath), { recursive: true });
      writeFileAtomic(agentPath, READ_ONLY_AGENT_DEFINITION, { root });
    });
  }

  const ignorePath = join(root, '.leopold', '.gitignore');
  const ignore = readExisting(ignorePath);
  const lines = new Set((ignore ?? '').split(/\r?\n/).map((line) => line.trim()));
  const missing = IGNORE_RULES.filter((rule) => !lines.has(rule));
  if (missing.length === 0) step(ignorePath, 'unchanged', '');
  else {
    const text = ignore === null ? `${IGNORE_HEADER}\n${missing.join('\n')}\n` : `${ignore}${ignore === '' || ignore.endsWith('\n') ? '' : '\n'}${missing.join('\n')}\n`;
    step(ignorePath, ignore === null ? 'created' : 'updated', ignore === null ? 'the run\'s transient files' : `added ${missing.join(' ')}`, () => {
      mkdirSync(dirname(ignorePath), { recursive: true });
      writeFileAtomic(ignorePath, text, { root });
    });
  }
  return steps;
}

/** The project-install files the hooks and agents need that `root` lacks (relative paths). */
export function missingProjectInstall(root: string): string[] {
  return PROJECT_INSTALL_FILES.filter((file) => !existsSync(join(root, file)));
}

/**
 * `leopold init` in `root`: the `.leopold/` starter brief (never overwriting a file), the
 * hooks merged into `.claude/settings.json` (stale Leopold entries replaced), the
 * `/leopold-workflow` and `/leopold-run` skills (a skill file that differs from ours is the
* user's: kept) and `.leopold/.gitignore`. Calls `report` once per file once every write
 * succeeded. fs failures throw as they are (the CLI prints them as one line, exit 2); every
 * file is replaced atomically, and a failure (a full disk) removes again the files this
 * call created, so a failed init adds nothing.
 */
export function initProject(root: string, install: LeopoldInstall, report: (step: InitStep) => void): InitStep[] {
  const steps: InitStep[] = [];
  try {
    for (const { write, ...step } of planInit(root, install)) {
      write?.();
      steps.push(step);
    }
  } catch (error) {
    for (const step of steps) if (step.action === 'created') rmSync(join(root, step.path), { force: true });
    throw error;
  }
  for (const step of steps) report(step);
  return steps;
}

/** What `leopold init --check` found for one file: `ok`, or what init would change. */
export interface CheckFinding {
  path: string;
  status: 'ok' | 'missing' | 'stale';
  note: string;
}

/**
 * `leopold init --check`: what init would change, written as findings, plus the project's
 * own install the hooks run. Writes nothing. A user's own version of a skill counts as ok.
 */
export function checkProject(root: string, install: LeopoldInstall): CheckFinding[] {
  const findings: CheckFinding[] = planInit(root, install).map(({ path, action, note }) => ({
    path,
    status: action === 'created' ? 'missing' : action === 'updated' ? 'stale' : 'ok',
    note: action === 'created' ? 'init would create it' : action === 'kept' && path.endsWith('SKILL.md') ? 'yours: differs from Leopold\'s' : note,
  }));
  const absent = missingProjectInstall(root);
  findings.push({
    path: 'node_modules/leopold',
    status: absent.length === 0 ? 'ok' : 'missing',
    note: absent.length === 0 ? 'the project\'s install the hooks and agents run' : `missing ${absent.join(', ')}: run npm i -D leopold (the hooks and the agents' commands run the project's install)`,
  });
  return findings;
}

/** `leopold init [--check]`: set up the current project for Leopold (one line per file), or check it is set up. */
/** Where `init --ci` writes the GitHub Actions workflow. */
export const CI_WORKFLOW_PATH = '.github/workflows/leopold.yml';

/**
 * `init --ci`: the GitHub Actions workflow (templates/ci/leopold.yml) with the Claude Code
 * client version Leopold was tested with (its pinned devDependency) filled in. Never
 * overwrites: an existing file is the user's.
 */
export function initCiWorkflow(root: string, install: LeopoldInstall): InitStep {
  const pkg = JSON.parse(readFileSync(join(install.root, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  const version = pkg.devDependencies?.['@anthropic-ai/claude-code'] ?? 'latest';
  const path = join(root, CI_WORKFLOW_PATH);
  const action = createOnly(path, fill(readTemplate(install, 'ci/leopold.yml'), { CLAUDE_CODE_VERSION: version }));
  return { path: CI_WORKFLOW_PATH, action, note: action === 'kept' ? 'exists; not overwritten' : 'graph --strict, compile --check and the rehearsal on every push' };
}

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('Write the .leopold/ starter brief (never overwriting), merge the hooks into .claude/settings.json, install the skills and .leopold/.gitignore')
    .option('--check', 'write nothing; report a missing or stale install and exit 1 (for CI)')
    .option('--ci', `also write the GitHub Actions workflow ${CI_WORKFLOW_PATH} (plan checks and a rehearsal on every push)`)
    .action((options: { check?: boolean; ci?: boolean }) => {
      const root = projectRoot(process.cwd());
      if (options.check) {
        const findings = checkProject(root, leopoldInstall());
        for (const f of findings) process.stdout.write(`${f.status.padEnd(9)} ${f.path}${f.note ? `  (${f.note})` : ''}\n`);
        const bad = findings.filter((f) => f.status !== 'ok');
        if (bad.length > 0) process.stderr.write(`leopold: not set up: ${bad.map((f) => `${f.path} ${f.status}`).join(', ')}; run leopold init (and npm i -D leopold)\n`);
        process.exitCode = bad.length > 0 ? EXIT.planErrors : EXIT.ok;
        return;
      }
      process.stdout.write(`Leopold init in ${root}\n`);
      const install = leopoldInstall();
      const print = (step: InitStep) => process.stdout.write(`${step.action.padEnd(9)} ${step.path}${step.note ? `  (${step.note})` : ''}\n`);
      initProject(root, install, print);
      if (options.ci) print(initCiWorkflow(root, install));
      const absent = missingProjectInstall(root);
      if (absent.length > 0) {
        process.stdout.write(`note      node_modules/leopold is not installed in this project: the hooks and the agents' commands run it. Run npm i -D leopold\n`);
      }
      const sandbox = sandboxAvailability();
      if (!sandbox.available) process.stderr.write(`${sandboxWarning(sandbox)}\n`);
      process.stdout.write('Next: describe the work in .leopold/MISSION.md and .leopold/PLAN.md, then run /leopold-workflow (or /leopold-run) in Claude Code.\n');
    });
}

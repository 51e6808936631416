import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LeopoldHookName } from '../../runtime/project-cli/index.js';
import { registeredHooks } from '../../runtime/project-cli/registered.js';

/**
 * Before a run starts: can the hooks that conduct and guard it start? Claude Code runs a
 * hook command through `sh -c` with the PATH it was started with and `$CLAUDE_PROJECT_DIR`
 * set; a hook that cannot start (no `node` on that PATH, a package never installed or half
 * removed) is to the client a non-blocking error, so the run would go on with no guard and
 * no Stop hook, silently. Each hook is started here the same way with an empty input, to
 * which a working Leopold hook answers by exiting 0 (it fails open and says nothing).
 */

/** The oldest Node Leopold's hooks run on (package.json `engines`, README "Node versions"). */
export const NODE_FLOOR = [20, 19] as const;

/** How long one hook may take to answer an empty input. */
const HOOK_START_MS = 15_000;

/** A hook that cannot start, with why and what to do. */
export interface HookProblem {
  /** Where it is registered: `.claude/settings.json`, or the plugin's `hooks/hooks.json`. */
  where: string;
  hook: LeopoldHookName;
  command: string;
  reason: string;
  fix: string;
}

/** One hook to try: its command as Claude Code would run it. */
interface Registration {
  where: string;
  hook: LeopoldHookName;
  command: string;
}

/**
 * The hooks that will act in `projectDir`, tried one by one. The project's own
 * registrations (init's) when there are any. When this CLI is the plugin's (`pluginRoot`),
 * the plugin's hooks act for each kind the project does not run itself (docs/init.md,
 * "Plugin and init together"), so those are tried instead. A project that registers none
 * and is not run from the plugin may be using the plugin from a marketplace, which this
 * process cannot see: nothing to try.
 */
export function hookProblems(projectDir: string, env: NodeJS.ProcessEnv, pluginRoot: string | null): HookProblem[] {
  const project: Registration[] = registeredHooks(projectDir).map((h) => ({ where: `.claude/${h.file}`, hook: h.hook, command: h.command }));
  const problems = project.flatMap((registration) => tryHook(registration, projectDir, env));
  if (pluginRoot === null) return withNodeVersion(problems, project, projectDir, env);
  // The plugin's hook acts where the project's cannot: then only the plugin's must start.
  const acting: Registration[] = [];
  const failing: HookProblem[] = [];
  for (const hook of ['guard', 'stop'] as const) {
    const own = project.filter((r) => r.hook === hook);
    const ownProblems = problems.filter((p) => p.hook === hook);
    if (own.length > 0 && ownProblems.length === 0) {
      acting.push(...own);
      continue;
    }
    const plugin = { where: 'the plugin\'s hooks/hooks.json', hook, command: `node "${join(pluginRoot, 'hooks', `${hook}.js`)}" --plugin` };
    acting.push(plugin);
    failing.push(...tryHook(plugin, projectDir, env));
  }
  return withNodeVersion(failing, acting, projectDir, env);
}

/** Runs one hook command with an empty input, as Claude Code would; a problem when it does not answer with exit 0. */
function tryHook(registration: Registration, projectDir: string, env: NodeJS.ProcessEnv): HookProblem[] {
  const run = spawnSync('/bin/sh', ['-c', registration.command], {
    cwd: projectDir,
    env: { ...env, CLAUDE_PROJECT_DIR: projectDir },
    input: '',
    encoding: 'utf8',
    timeout: HOOK_START_MS,
  });
  if (run.status === 0) return [];
  const said = whatItSaid(run.stderr ?? '') || whatItSaid(run.stdout ?? '');
  const problem = (reason: string, fix: string): HookProblem[] => [{ ...registration, reason, fix }];
  if (run.error || run.signal) {
    return problem(`it did not answer within ${HOOK_START_MS / 1000} s (${run.error?.message ?? run.signal})`, 'check that the hook file is a Leopold hook and that node starts on this machine');
  }
  if (run.status === 127 || /\bnode\b.*(not found|No such file)/.test(run.stderr ?? '')) {
    return problem(
      `\`node\` is not on the PATH Claude Code gives its hooks (${said || `exit ${run.status}`})`,
      'install Node 20.19 or later and start Claude Code from a shell where `node --version` works',
    );
  }
  if (/Cannot find module|ERR_MODULE_NOT_FOUND|MODULE_NOT_FOUND/.test(run.stderr ?? '')) {
    return problem(
      `its file is missing (${/Cannot find module '([^']+)'/.exec(run.stderr ?? '')?.[1] ?? said})`,
      'install the project\'s Leopold (npm ci, or npm i -D leopold), then run leopold init to register the hooks it ships',
    );
  }
  return problem(`it exited ${run.status}${said ? `: ${said}` : ''}`, 'reinstall the project\'s Leopold (npm ci), then run leopold init');
}

/**
 * The `node` the hooks start must be Leopold's floor or later; asked once, only when some
 * hook is meant to run and none already failed for want of `node`.
 */
function withNodeVersion(problems: HookProblem[], acting: readonly Registration[], projectDir: string, env: NodeJS.ProcessEnv): HookProblem[] {
  const first = acting.find((r) => /^\s*node\s/.test(r.command));
  if (!first || problems.some((p) => p.reason.startsWith('`node`'))) return problems;
  const run = spawnSync('/bin/sh', ['-c', 'node -p process.versions.node'], { cwd: projectDir, env, encoding: 'utf8', timeout: HOOK_START_MS });
  const version = (run.stdout ?? '').trim();
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (run.status !== 0 || major > NODE_FLOOR[0] || (major === NODE_FLOOR[0] && minor >= NODE_FLOOR[1])) return problems;
  return [
    ...problems,
    {
      ...first,
      reason: `the \`node\` on the PATH Claude Code gives its hooks is ${version}, older than Leopold's ${NODE_FLOOR.join('.')}`,
      fix: 'install Node 20.19 or later and put it first on PATH',
    },
  ];
}

/** The line that says what went wrong: node's `SomethingError: …` line, else the last one. */
function whatItSaid(text: string): string {
  const lines = text.trim().split('\n').map((line) => line.trim());
  return lines.find((line) => /^\w*Error\b/.test(line)) ?? lines.at(-1) ?? '';
}

/** How a refusal names each hook. */
const HOOK_NAMES: Record<LeopoldHookName, string> = { guard: 'git guard', stop: 'Stop hook', 'stop-failure': 'StopFailure hook' };

/** The refusal, one line: each hook that cannot start and why, then what to do (each fix once). */
export function hookRefusal(problems: readonly HookProblem[]): string {
  const what = problems.map((p) => `the ${HOOK_NAMES[p.hook]} (${p.where}: ${p.command}) cannot start: ${p.reason}`);
  const fixes = [...new Set(problems.map((p) => p.fix))];
  const them = problems.length === 1 ? 'it' : 'them';
  return `refusing to start the run: ${what.join('; ')}. Claude Code skips a hook that cannot start, so the run would go on without ${them}. To fix: ${fixes.join('; ')}`;
}

/** The plugin this CLI runs from (`<plugin>/bin/leopold` → its root), or null for a package install. */
export function pluginRootOf(installRoot: string): string | null {
  return existsSync(join(installRoot, '.claude-plugin', 'plugin.json')) ? installRoot : null;
}

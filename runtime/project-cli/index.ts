/**
 * runtime/project-cli: how everything Leopold writes into a repository (hook commands,
 * skills, the emitted workflow's scribe commands, the Stop hook's instructions) runs
 * Leopold. Always the project's own install (`npm i -D leopold`): no absolute path, no
 * `leopold` on PATH, the same in every clone (docs/init.md). Measured in the real client
 * (2.1.332): hooks get `$CLAUDE_PROJECT_DIR`, so their commands name it; the Bash commands
 * the session and its agents run do NOT get it (it is empty there), and under an allow
 * rule the client refuses any command with a variable in it ("A variable in this command
 * can't be checked before it runs"), so the agents' commands are the variable-free
 * `node_modules/.bin/leopold`, run from the project root as every Leopold prompt says.
 */

/** The project's installed package (`npm i -D leopold`), quoted for paths with spaces. */
export const PROJECT_PACKAGE = '"$CLAUDE_PROJECT_DIR"/node_modules/leopold';

/** The project's `leopold` executable as the agents run it: relative to the project root, no variable. */
export const PROJECT_CLI = 'node_modules/.bin/leopold';

/** The permission rule that lets agents run it (`--allowedTools`, `permissions.allow`). */
export const PROJECT_CLI_RULE = `Bash(${PROJECT_CLI} *)`;

/** A `leopold …` command line through the project's install: `leopoldCommand('plan tick 3')`. */
export const leopoldCommand = (args: string): string => `${PROJECT_CLI} ${args}`;

/**
 * A hook command run detached from Claude Code: the shell ignores the signals the client
 * sends as it exits, keeps the hook's stdin on fd 3, and starts `command` in the background
 * of a subshell that exits at once, so the command is orphaned within milliseconds. For the
 * StopFailure hook. Measured on 2.1.332 in -p mode: the client exits right after the failed
 * turn, sends its StopFailure hook SIGTERM at once and kills what is left ~1.5 s later, long
 * before node (which resets ignored signals at start) could end the run; an orphaned
 * process gets neither signal. Its answer goes nowhere: the client ignores it anyway.
 */
export const detachedHook = (command: string): string => `trap '' HUP INT TERM; exec 3<&0; (${command} <&3 &) > /dev/null 2>&1`;

/** The command inside `detachedHook`'s wrapper, or null when `command` is not wrapped. */
export function unwrapDetachedHook(command: string): string | null {
  return /^\s*trap\s+''[^;]*;\s*exec\s+3<&0;\s*\((.*?)\s*<&3\s*&\)\s*>\s*\/dev\/null\s+2>&1\s*$/.exec(command)?.[1] ?? null;
}

/** The hook commands `init` registers: node on the project's built hooks (never npx: the guard runs before every tool call). */
export const PROJECT_HOOKS = {
  guard: `node ${PROJECT_PACKAGE}/dist/hooks/guard.js`,
  stop: `node ${PROJECT_PACKAGE}/dist/hooks/stop.js`,
  stopFailure: detachedHook(`node ${PROJECT_PACKAGE}/dist/hooks/stop-failure.js`),
} as const;

/** Leopold's hooks, by the name of their bundle (`dist/hooks/<name>.js`) and CLI subcommand (`leopold hook <name>`). */
export type LeopoldHookName = 'guard' | 'stop' | 'stop-failure';

/** Which Leopold hook a settings.json command runs, and how: a script path (as written) or the CLI. */
export interface LeopoldHookCommand {
  hook: LeopoldHookName;
  /** The script `node` runs, quotes removed, `$CLAUDE_PROJECT_DIR` still in it; null for `leopold hook …`. */
  script: string | null;
}

/**
 * Reads a hook command some Leopold install registered: `node <…>/dist/hooks/guard.js`
 * (or stop.js, stop-failure.js; inside `detachedHook`'s wrapper or not), quoted or not,
 * wherever that install lived, or `leopold hook guard|stop|stop-failure`.
 * Null for anything else. init replaces these when they are not today's commands.
 */
export function leopoldHookOf(command: unknown): LeopoldHookCommand | null {
  if (typeof command !== 'string') return null;
  const inner = unwrapDetachedHook(command);
  if (inner !== null) return leopoldHookOf(inner);
  const node = /^\s*node\s+(.*dist[\\/]hooks[\\/](guard|stop|stop-failure)\.js["']?)\s*$/.exec(command);
  if (node) return { hook: node[2] as LeopoldHookName, script: node[1]!.replace(/\\(["\\$`])/g, '$1').replace(/["']/g, '') };
  const cli = /(^|[\s/"'])leopold["']?\s+hook\s+(guard|stop|stop-failure)\s*$/.exec(command);
  return cli ? { hook: cli[2] as LeopoldHookName, script: null } : null;
}

/** True for a hook command some Leopold install registered (leopoldHookOf). */
export const isLeopoldHook = (command: unknown): boolean => leopoldHookOf(command) !== null;

/**
 * runtime/project-cli: how everything Leopold writes into a repository (hook commands,
 * skills, the emitted workflow's scribe commands, the Stop hook's instructions) runs
 * Leopold. Always the project's own install, named through `$CLAUDE_PROJECT_DIR`, which
 * Claude Code sets for hooks and the shell commands it runs: no absolute path, no
 * `leopold` on PATH, the same from every directory of every clone (docs/init.md).
 */

/** The project's installed package (`npm i -D leopold`), quoted for paths with spaces. */
export const PROJECT_PACKAGE = '"$CLAUDE_PROJECT_DIR"/node_modules/leopold';

/** The project's `leopold` executable, as a shell word. */
export const PROJECT_CLI = '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/leopold';

/** A `leopold …` command line through the project's install: `leopoldCommand('plan tick 3')`. */
export const leopoldCommand = (args: string): string => `${PROJECT_CLI} ${args}`;

/** The hook commands `init` registers: node on the project's built hooks (never npx: the guard runs before every tool call). */
export const PROJECT_HOOKS = {
  guard: `node ${PROJECT_PACKAGE}/dist/hooks/guard.js`,
  stop: `node ${PROJECT_PACKAGE}/dist/hooks/stop.js`,
} as const;

/** Which Leopold hook a settings.json command runs, and how: a script path (as written) or the CLI. */
export interface LeopoldHookCommand {
  hook: 'guard' | 'stop';
  /** The script `node` runs, quotes removed, `$CLAUDE_PROJECT_DIR` still in it; null for `leopold hook …`. */
  script: string | null;
}

/**
 * Reads a hook command some Leopold install registered: `node <…>/dist/hooks/guard.js`
 * (or stop.js), quoted or not, wherever that install lived, or `leopold hook guard|stop`.
 * Null for anything else. init replaces these when they are not today's commands.
 */
export function leopoldHookOf(command: unknown): LeopoldHookCommand | null {
  if (typeof command !== 'string') return null;
  const node = /^\s*node\s+(.*dist[\\/]hooks[\\/](guard|stop)\.js["']?)\s*$/.exec(command);
  if (node) return { hook: node[2] as 'guard' | 'stop', script: node[1]!.replace(/\\(["\\$`])/g, '$1').replace(/["']/g, '') };
  const cli = /(^|[\s/"'])leopold["']?\s+hook\s+(guard|stop)\s*$/.exec(command);
  return cli ? { hook: cli[2] as 'guard' | 'stop', script: null } : null;
}

/** True for a hook command some Leopold install registered (leopoldHookOf). */
export const isLeopoldHook = (command: unknown): boolean => leopoldHookOf(command) !== null;

import { execFileSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve, sep } from 'node:path';

// The programs the lock's own commands run (git, bubblewrap), found where a run could not
// have put them. `npx leopold …` puts the project's node_modules/.bin first on PATH, and
// the project is what the agent writes: a `git` or `bwrap` planted there would run as the
// user the moment `run finish` or `run status` looked for it. So PATH is searched without
// any directory inside the project and without any `node_modules/.bin`.

/** The PATH entries a lock command may run programs from: absolute, outside `root` (when given), not a `node_modules/.bin`. */
export function trustedPathEntries(root: string, path: string | undefined = process.env.PATH): string[] {
  const inside = (dir: string) => root !== '' && (dir === root || dir.startsWith(`${root}${sep}`));
  return (path ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '' && isAbsolute(dir))
    .map((dir) => resolve(dir))
    .filter((dir) => !inside(dir) && !/(^|[\\/])node_modules[\\/]\.bin$/.test(dir));
}

/** The first executable `name` on the trusted PATH, or null. */
export function trustedProgram(name: string, root: string, path: string | undefined = process.env.PATH): string | null {
  for (const dir of trustedPathEntries(root, path)) {
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not there, or not executable
    }
  }
  return null;
}

/**
 * Runs git for the lock (read-only queries: rev-parse, config --get, ls-files, remote) and
 * returns its stdout, or null when it fails. Git from the trusted PATH, with nothing from
 * the repository's config that runs a program on these commands (no fsmonitor, no pager;
 * none of them runs a hook), and no optional index refresh (so no write).
 */
export function lockGit(root: string, args: readonly string[]): string | null {
  const git = trustedProgram('git', root);
  if (git === null) return null;
  try {
    return execFileSync(git, ['-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false', ...args], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
      env: gitEnv(),
    });
  } catch {
    return null;
  }
}

/** The environment for lockGit: the user's, minus what makes git run another program. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' };
  for (const name of ['GIT_EXTERNAL_DIFF', 'GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_ASKPASS', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR']) delete env[name];
  return env;
}

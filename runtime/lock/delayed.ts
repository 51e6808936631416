import { lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Layout } from './layout.js';
import { type Grant, GIT_DELAYED, GIT_MERGE_HEAD, GIT_PENDING, GIT_PENDING_AUDITED, GIT_REDIRECTS, NODE_BIN, PACKAGE_MANAGER_CONFIG, PACKAGE_MANAGER_EXISTING, USER_DELAYED } from './paths.js';
import { lockGit } from './trusted.js';

// The paths through which a run's writes would take effect later, once the user lifts the
// lock (paths.ts lists them; docs/lock.md says which layer covers each). Arming denies
// them in the sandbox; where one must exist for that (a denied path that does not exist is
// an unreadable device inside the sandbox, and git refuses an unreadable `commondir`),
// arming creates it in the form its reader takes for "absent", and unlocking removes what
// it created while it is still that way.

/** A path arming creates before denying it: a directory, or a file with this content. */
interface Stand {
  path: string;
  content: string | null;
}

/** What the delayed-effect part of the lock is for one project. */
export interface DelayedPlan {
  /** Absolute paths the sandbox may not write. */
  deny: string[];
  /** Those of `deny` that are (or would be) directories: the Write/Edit rules cover what is inside. */
  dirs: string[];
  /** Paths only the Write/Edit rules deny (the sandbox's stand-in there would break git). */
  rulesOnly: string[];
  /** Paths to create first (they do not exist now). */
  create: Stand[];
}

const exists = (path: string): boolean => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

const isDirectory = (path: string): boolean => {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The user-level config directory (`$XDG_CONFIG_HOME`, else `~/.config`). */
function configHome(home: string, env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  return xdg && isAbsolute(xdg) ? xdg : join(home, '.config');
}

/** The absolute path of a USER_DELAYED entry. */
export function userPath(entry: string, home: string, env: NodeJS.ProcessEnv = process.env): string {
  return entry.startsWith('.config/') ? join(configHome(home, env), entry.slice('.config/'.length)) : join(home, entry);
}

/** The directory core.hooksPath names (git's effective config, relative paths from the worktree root), or null. */
export function hooksPathOf(root: string): string | null {
  const value = lockGit(root, ['config', '--get', 'core.hooksPath'])?.trim();
  if (!value) return null;
  const home = process.env.HOME ?? '';
  const expanded = value === '~' ? home : value.startsWith('~/') ? join(home, value.slice(2)) : value;
  return resolve(root, expanded);
}

/** What the sandbox must deny, and what must be created first, for `layout` with `grants`. */
export function delayedPlan(layout: Layout, grants: readonly Grant[], home: string): DelayedPlan {
  const deny: string[] = [];
  const dirs: string[] = [];
  const create: Stand[] = [];
  const rulesOnly: string[] = [];
  const need = (path: string, content: string | null) => {
    deny.push(path);
    if (content === null) dirs.push(path);
    if (!exists(path)) create.push({ path, content });
  };
  const existing = (path: string) => {
    if (!exists(path)) return;
    deny.push(path);
    if (isDirectory(path)) dirs.push(path);
  };
  const { root, gitDir, worktreeGitDir } = layout;
  if (gitDir && worktreeGitDir) {
    for (const name of GIT_DELAYED) {
      const path = join(gitDir, name);
      if (name === 'config') existing(path);
      else need(path, null);
    }
    for (const dir of new Set([gitDir, worktreeGitDir])) for (const file of GIT_REDIRECTS) need(join(dir, file.name), file.placeholder);
    // A grant lets the agent merge and cherry-pick; without one, the sandbox's stand-ins at
    // these names (a device inside it) make `git status` say a merge is in progress.
    if (grants.length === 0) {
      rulesOnly.push(join(worktreeGitDir, GIT_MERGE_HEAD));
      for (const name of GIT_PENDING) {
        deny.push(join(worktreeGitDir, name));
        if (name === 'sequencer') dirs.push(join(worktreeGitDir, name));
      }
    }
    const hooks = hooksPathOf(root);
    if (hooks && isDirectory(hooks)) existing(hooks);
    // A linked worktree's `.git` is a file naming its git directory.
    const dotGit = join(root, '.git');
    if (exists(dotGit) && !isDirectory(dotGit)) existing(dotGit);
  }
  for (const name of PACKAGE_MANAGER_CONFIG) need(join(root, name), '');
  for (const name of PACKAGE_MANAGER_EXISTING) existing(join(root, name));
  if (isDirectory(join(root, 'node_modules'))) need(join(root, NODE_BIN), null);
  for (const entry of USER_DELAYED) existing(userPath(entry, home));
  return { deny: [...new Set(deny)], dirs: [...new Set(dirs)], rulesOnly, create };
}

/** Creates the stand-ins of `plan`, returning what was created (relative to the project root). */
export function createStands(root: string, plan: DelayedPlan): string[] {
  const created: string[] = [];
  for (const stand of plan.create) {
    if (exists(stand.path)) continue;
    mkdirSync(dirname(stand.path), { recursive: true });
    if (stand.content === null) mkdirSync(stand.path);
    else writeFileSync(stand.path, stand.content, { flag: 'wx' });
    created.push(relative(root, stand.path));
  }
  return created;
}

/** The exclude patterns for created stand-ins in the worktree (so `git status` and `git add -A` pass them by). */
export function standExcludes(root: string, created: readonly string[]): string[] {
  return created.filter((path) => !path.startsWith('..') && !path.startsWith(`.git${sep}`) && path !== '.git' && !path.includes(`${sep}`) && !isDirectory(join(root, path))).map((path) => `/${path}`);
}

/**
 * Removes the stand-ins arming created, each only while it is still as arming left it (an
 * empty directory; a file with the placeholder content), and the empty files the sandbox
 * leaves at pending-state paths that did not exist (its mount points, when a command was
 * killed): an empty MERGE_HEAD is never a merge anyone started.
 */
export function removeStands(layout: Layout, created: readonly string[]): void {
  const placeholders = new Map<string, string>(GIT_REDIRECTS.map((file) => [file.name, file.placeholder]));
  const paths = created.map((path) => resolve(layout.root, path));
  for (const path of paths) {
    try {
      const stat = lstatSync(path);
      if (!stat.isFile()) continue;
      const content = readFileSync(path, 'utf8');
      if (content === (placeholders.get(path.slice(path.lastIndexOf(sep) + 1)) ?? '')) rmSync(path);
    } catch {
      // gone, or not readable: leave it
    }
  }
  for (const path of [...paths].sort((a, b) => b.length - a.length)) {
    try {
      if (isDirectory(path) && readdirSync(path).length === 0) rmdirSync(path);
    } catch {
      // not empty or gone: the user's now
    }
  }
  if (layout.worktreeGitDir) {
    for (const name of GIT_PENDING_AUDITED) {
      const path = join(layout.worktreeGitDir, name);
      try {
        const stat = lstatSync(path);
        if (stat.isFile() && stat.size === 0) rmSync(path);
      } catch {
        // absent
      }
    }
  }
}

import { dirname, join } from 'node:path';
import { lockGit } from './trusted.js';

/** The paths of one project the lock works on. */
export interface Layout {
  root: string;
  leopoldDir: string;
  settingsFile: string;
  /** git's common directory (refs, config, hooks live there), null outside a repository. */
  gitDir: string | null;
  /** The worktree's own git directory (HEAD, index, merge state): gitDir itself except in a linked worktree. */
  worktreeGitDir: string | null;
}

/** The layout of the project whose `.leopold/` is `leopoldDir`. */
export function layoutOf(leopoldDir: string): Layout {
  const root = dirname(leopoldDir);
  const dirs = (lockGit(root, ['rev-parse', '--path-format=absolute', '--git-common-dir', '--git-dir']) ?? '').split('\n').filter((line) => line !== '');
  const [gitDir = null, worktreeGitDir = gitDir] = dirs;
  return { root, leopoldDir, settingsFile: join(root, '.claude', 'settings.local.json'), gitDir, worktreeGitDir };
}

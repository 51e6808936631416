import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { lockGit } from '../lock/trusted.js';

/**
 * The run's own bookkeeping, never the work a verification covers: ticking PLAN.md,
 * recording a decision or an event, the lock's settings. Left out of the fingerprint.
 */
const BOOKKEEPING = ['.leopold', '.claude'];
/** Left out of the walk without git: what a repository or a package manager keeps, not the project's source. */
const WALK_SKIPS = new Set(['.git', 'node_modules', ...BOOKKEEPING]);
/** A tree walked without git holds at most this many entries; past it the fingerprint says so (and matches only itself). */
const MAX_WALK = 100_000;

/**
 * A fingerprint of the project's working tree as a verification saw it (docs/runtime.md,
 * "Done means verified"): equal fingerprints mean no file a verification covers changed in
 * between. With git: HEAD, `git status` (untracked files included, ignored ones not: build
 * output, caches and coverage are ignored where a project keeps them) and the content of
 * every changed file. Without git: every file's path, size and modification time.
 * `.leopold/` and `.claude/` are left out (the run's bookkeeping). Deterministic; `sha256:<hex>`.
 */
export function treeFingerprint(root: string): string {
  const hash = createHash('sha256');
  const fromGit = gitState(root);
  if (fromGit !== null) {
    hash.update(`git\0${fromGit.head}\0`);
    for (const { code, path } of fromGit.changed) {
      hash.update(`${code} ${path}\0`);
      hash.update(contentOf(join(root, path)));
      hash.update('\0');
    }
  } else {
    hash.update('walk\0');
    let count = 0;
    walk(root, root, (path, stat) => {
      count += 1;
      hash.update(`${path}\0${stat.isSymbolicLink() ? 'l' : 'f'}${stat.size}\0${stat.mtimeMs}\0`);
      return count < MAX_WALK;
    });
  }
  return `sha256:${hash.digest('hex')}`;
}

/** HEAD and the changed paths (sorted), or null when `root` is not in a git work tree git can read. */
function gitState(root: string): { head: string; changed: { code: string; path: string }[] } | null {
  const inside = lockGit(root, ['rev-parse', '--is-inside-work-tree']);
  if (inside === null || inside.trim() !== 'true') return null;
  const head = lockGit(root, ['rev-parse', '-q', '--verify', 'HEAD'])?.trim() ?? '(no commit)';
  const status = lockGit(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=none', '--', '.']);
  if (status === null) return null;
  const prefix = lockGit(root, ['rev-parse', '--show-prefix'])?.trim() ?? '';
  const changed = status
    .split('\0')
    .filter((entry) => entry.length > 3)
    // `XY path`, the path relative to the top of the work tree: keep those under root, relative to it.
    .map((entry) => ({ code: entry.slice(0, 2), path: entry.slice(3) }))
    .filter(({ path }) => path.startsWith(prefix))
    .map(({ code, path }) => ({ code, path: path.slice(prefix.length) }))
    .filter(({ path }) => !BOOKKEEPING.some((dir) => path === dir || path.startsWith(`${dir}/`)))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return { head, changed };
}

/** A file's content hash; a directory, link or missing file by what it is. */
function contentOf(path: string): string {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return 'link';
    if (!stat.isFile()) return 'other';
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return 'missing';
  }
}

/** Every entry under `dir` but the skipped directories, in name order; `visit` false stops the walk. */
function walk(root: string, dir: string, visit: (path: string, stat: Stats) => boolean): boolean {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return true;
  }
  for (const name of names) {
    if (dir === root && WALK_SKIPS.has(name)) continue;
    const path = join(dir, name);
    let stat: Stats;
    try {
      stat = lstatSync(path);
    } catch {
      continue;
    }
    const rel = relative(root, path).split(sep).join('/');
    if (stat.isDirectory()) {
      if (name === '.git' || name === 'node_modules') continue;
      if (!walk(root, path, visit)) return false;
    } else if (!visit(rel, stat)) {
      return false;
    }
  }
  return true;
}

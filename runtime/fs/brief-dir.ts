import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The brief folder's name inside a project. */
export const BRIEF_DIR = '.leopold';

/**
 * The nearest `.leopold/` directory at or above `startDir`, or null when no ancestor has
 * one. A `.leopold` that is a file does not count. Loads only node:fs and node:path, so
 * the hooks can share it without slowing their start.
 */
export function findBriefDir(startDir: string): string | null {
  for (let dir = resolve(startDir); ; dir = dirname(dir)) {
    if (isDirectory(join(dir, BRIEF_DIR))) return join(dir, BRIEF_DIR);
    if (dirname(dir) === dir) return null;
  }
}

/** The first `.leopold/` found walking up from each start in turn (hooks: project dir, cwd). */
export function findBriefDirFrom(starts: readonly string[]): string | null {
  for (const start of starts) {
    const found = findBriefDir(start);
    if (found) return found;
  }
  return null;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    // Unreadable or missing: keep walking, as git does for `.git`.
    return false;
  }
}

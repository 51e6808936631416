import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The brief folder's name inside a project. */
export const BRIEF_DIR = '.leopold';

/**
 * The nearest `.leopold/` directory at or above `startDir` (absolute), or null when no
 * ancestor has one. A `.leopold` that is a file does not count.
 */
export function findBriefDir(startDir: string): string | null {
  let dir = resolve(startDir);
  for (;;) {
    const candidate = join(dir, BRIEF_DIR);
    if (isDirectory(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    // Unreadable or missing: keep walking, as git does for `.git`.
    return false;
  }
}

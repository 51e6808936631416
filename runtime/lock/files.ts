import { statSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_RECORD } from './paths.js';

// How the lock's files are read, for the hooks, the guard and the CLI alike. node:fs only,
// so the hook bundles stay lean. Inside Claude Code's sandbox a denied path that does not
// exist shows as a character device, and on the host as an empty file while a sandboxed
// command runs: neither is a kill switch, a record or a token.

/** A regular file (or a link to one). */
export function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The sandbox's stand-in at a denied path that does not exist, as a command inside the sandbox sees it: a character device. */
export function isSandboxPlaceholder(path: string): boolean {
  try {
    return statSync(path).isCharacterDevice();
  } catch {
    return false;
  }
}

/** A lift token: a regular file with content (`leopold run allow` writes a line; an empty file is a placeholder). */
export function isToken(path: string): boolean {
  try {
    const stat = statSync(path);
    return stat.isFile() && stat.size > 0;
  } catch {
    return false;
  }
}

/** True while the lock is armed: `.leopold/lock.json` exists. */
export function isArmed(leopoldDir: string): boolean {
  return isRegularFile(join(leopoldDir, LOCK_RECORD));
}

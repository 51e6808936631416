import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { armLock, readLockRecord, type Grant } from '../../lock/arm.js';
import { isToken } from '../../lock/files.js';

const TOKEN_FILES: Readonly<Record<Grant, string>> = { git: 'ALLOW_GIT', push: 'ALLOW_PUSH' };

/**
 * Takes back the git grants of a run that ended on an API error: `.leopold/ALLOW_GIT` and
 * `ALLOW_PUSH` are the user's lift for one run, and a new run (the resume) must not start
 * with git already open. While the lock is armed with a grant, it is re-armed without it, so
 * git's refs are read-only for Claude's commands again. Returns the grants taken back. A
 * hook runs outside Claude's sandbox, so it can; a failure leaves the rest as it was.
 */
export function clearGrants(leopoldDir: string, now: Date): Grant[] {
  const cleared: Grant[] = [];
  for (const grant of Object.keys(TOKEN_FILES) as Grant[]) {
    const path = join(leopoldDir, TOKEN_FILES[grant]);
    if (!isToken(path)) continue;
    try {
      rmSync(path);
      cleared.push(grant);
    } catch {
      // cannot be removed: it stays, and run status still shows it
    }
  }
  const record = readLockRecord(leopoldDir);
  if (record !== null && record.grants.length > 0) {
    try {
      armLock(leopoldDir, { now, requireSandbox: record.require_sandbox });
    } catch {
      // settings that cannot be re-armed keep the grant in the sandbox until the next run start
    }
  }
  return cleared;
}

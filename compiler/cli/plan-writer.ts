import { readFileSync } from 'node:fs';
import { LeopoldError } from '../diagnostics/error.js';
import { writeFileAtomic } from '../../runtime/fs/atomic.js';
import { withLock } from '../../runtime/fs/lock.js';

/** PLAN.md as read under its lock, and the one way to replace it. */
export interface LockedPlan {
  /** The file's bytes as they are now, under the lock. */
  bytes: Buffer;
  /** Replaces PLAN.md with `data` atomically (temp file + rename). */
  write(data: string | Uint8Array): void;
}

/** How long a writer waits for `PLAN.md.lock`: every holder only reads, decides in memory and writes. */
const LOCK_TIMEOUT_MS = 30_000;

/**
 * The one PLAN.md writer: runs `edit` while holding `PLAN.md.lock`, with the file's current
 * bytes and the only function in the product that writes it. `leopold plan tick`, `leopold
 * plan amend` and compile's repair all come through here, so none of them can lose
 * another's change. Kept free of the graph checker: `plan tick` loads only this.
 */
export async function rewritePlan<T>(planPath: string, edit: (plan: LockedPlan) => T | Promise<T>): Promise<T> {
  const lockPath = `${planPath}.lock`;
  const held = withLock(
    lockPath,
    () => {
      let bytes: Buffer;
      try {
        bytes = readFileSync(planPath);
      } catch (error) {
        throw new LeopoldError(`cannot read ${planPath}: ${(error as Error).message}`);
      }
      return edit({ bytes, write: (data) => writeFileAtomic(planPath, data) });
    },
    { timeoutMs: LOCK_TIMEOUT_MS },
  );
  try {
    return await held;
  } catch (error) {
    // withLock's own timeout is a user-facing condition (someone holds the lock), not a bug.
    if (error instanceof Error && !(error instanceof LeopoldError) && error.message.startsWith(`timed out after ${LOCK_TIMEOUT_MS} ms waiting for the lock`)) {
      throw new LeopoldError(`${error.message}; another leopold command is changing the plan (remove ${lockPath} if no such command is running)`);
    }
    throw error;
  }
}

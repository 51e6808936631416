import { writeFileAtomic } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import { decodeUtf8, readRegularFile } from '../fs/read.js';

/** PLAN.md as read under its lock, and the one way to replace it. */
export interface LockedPlan {
  /** The file's bytes as they are now, under the lock. */
  bytes: Buffer;
  /** The same bytes as text (BOM kept): only well-formed UTF-8 gets this far. */
  text: string;
  /** Replaces PLAN.md with `data` atomically (temp file + rename); see writeFileAtomic for what it keeps and refuses. */
  write(data: string | Uint8Array): void;
}

/** How long a writer waits for `PLAN.md.lock`: every holder only reads, decides in memory and writes. */
export const PLAN_LOCK_TIMEOUT_MS = 30_000;

/**
 * PLAN.md's bytes and text, read as every command reads it: a regular file only (a FIFO or
 * a device is refused, never waited on), at most 16 MiB, and UTF-8, else a FileError
 * naming the line and column of the first bad byte.
 */
export function readPlanFile(planPath: string): { bytes: Buffer; text: string } {
  const bytes = readRegularFile(planPath);
  return { bytes, text: decodeUtf8(bytes, planPath, 'a UTF-8 plan file') };
}

/**
 * The one PLAN.md writer: runs `edit` while holding `PLAN.md.lock`, with the file as it
 * is now and the only function in the product that writes it. `leopold plan tick`,
 * `leopold plan amend` and compile's repair all come through here, so none of them can
 * lose another's change. The write checks every byte and the flush and renames only
 * then (a full disk leaves PLAN.md byte for byte as it was), keeps the file's mode,
 * writes through a symbolic link to a plan inside the project (and refuses one outside),
 * and refuses a read-only plan. Failures are FileErrors; a lock nobody releases is the
 * withLock timeout. Kept free of the graph checker: `plan tick` loads only this.
 */
export async function rewritePlan<T>(planPath: string, edit: (plan: LockedPlan) => T | Promise<T>): Promise<T> {
  return withLock(
    `${planPath}.lock`,
    () => {
      const { bytes, text } = readPlanFile(planPath);
      return edit({ bytes, text, write: (data) => writeFileAtomic(planPath, data) });
    },
    { timeoutMs: PLAN_LOCK_TIMEOUT_MS },
  );
}

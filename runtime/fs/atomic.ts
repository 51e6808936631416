import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let counter = 0;

/**
 * Replaces `path` with `data` in one step: write a temp file beside it, fsync, rename.
 * A reader (or a process killed half way) sees the old bytes or the new ones, never a mix.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  writeFilesAtomic([{ path, data }]);
}

/**
 * Replaces several files together: every temp file is written and synced first, and only
 * then are they renamed into place, so a target that cannot be written (read-only, full,
 * a file where its directory should be) leaves all of them untouched.
 */
export function writeFilesAtomic(files: readonly { path: string; data: string | Uint8Array }[]): void {
  const temps: string[] = [];
  try {
    for (const { path, data } of files) {
      const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${counter++}.tmp`);
      const fd = openSync(temp, 'w', 0o644);
      temps.push(temp);
      try {
        writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    // The one failure the temp files do not reveal in advance: a directory where a target
    // should be. Checked before the first rename, so no file is replaced when one cannot be.
    for (const { path } of files) {
      if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
        throw Object.assign(new Error(`EISDIR: illegal operation on a directory, rename '${path}'`), { code: 'EISDIR', syscall: 'rename', path });
      }
    }
    files.forEach(({ path }, i) => renameSync(temps[i]!, path));
  } catch (error) {
    for (const temp of temps) rmSync(temp, { force: true });
    throw error;
  }
}

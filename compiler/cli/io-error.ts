import { basename, dirname, join, relative } from 'node:path';
import { ERRNO_CAUSES, FileError } from '../../runtime/fs/file-error.js';

/** The file-system failures a writing command reports as a user problem (exit 2), not a bug: every code with a cause in words. */
export const IO_ERROR_CODES = Object.keys(ERRNO_CAUSES);

const VERBS: Readonly<Record<string, string>> = { open: 'write', write: 'write', fsync: 'write', close: 'write', mkdir: 'create the directory', rename: 'replace', unlink: 'remove', rmdir: 'remove', read: 'read', scandir: 'read' };

/**
 * One line for an fs failure (`cannot write .claude/workflows/leopold-run.js: permission
 * denied (EACCES)`), or null when `error` is not one. The temp file of an atomic write
 * (`.NAME.<pid>.<n>.tmp`) is named as the file it was replacing.
 */
export function ioFailureLine(error: unknown, cwd: string): string | null {
  // The runtime's readers and writers already say which file and why (runtime/fs).
  if (error instanceof FileError) return error.describe(cwd);
  const e = error as NodeJS.ErrnoException;
  if (e === null || typeof e !== 'object' || typeof e.code !== 'string' || !IO_ERROR_CODES.includes(e.code)) return null;
  const cause = `${ERRNO_CAUSES[e.code]} (${e.code})`;
  if (typeof e.path !== 'string') return `I/O error: ${cause}`;
  const temp = /^\.(.+)\.\d+\.\d+\.tmp$/.exec(basename(e.path));
  const target = temp ? join(dirname(e.path), temp[1]!) : e.path;
  const shown = relative(cwd, target) || target;
  const verb = VERBS[e.syscall ?? ''] ?? (e.syscall ? `${e.syscall}` : 'access');
  return `cannot ${verb} ${shown.includes(' ') ? `"${shown}"` : shown}: ${cause}`;
}

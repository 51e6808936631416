import { basename, dirname, join, relative } from 'node:path';

/** The file-system failures a writing command reports as a user problem (exit 2), not a bug. */
export const IO_ERROR_CODES = ['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'EEXIST', 'EISDIR', 'ENOTDIR', 'ENOENT', 'EBUSY', 'EMFILE'] as const;

const CAUSES: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EEXIST: 'a file is in the way',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a file is where a directory is expected',
  ENOENT: 'no such file or directory',
  EBUSY: 'the resource is busy',
  EMFILE: 'too many open files',
};

const VERBS: Readonly<Record<string, string>> = { open: 'write', mkdir: 'create the directory', rename: 'replace', unlink: 'remove', rmdir: 'remove', read: 'read', scandir: 'read' };

/**
 * One line for an fs failure (`cannot write .claude/workflows/leopold-run.js: permission
 * denied (EACCES)`), or null when `error` is not one. The temp file of an atomic write
 * (`.NAME.<pid>.<n>.tmp`) is named as the file it was replacing.
 */
export function ioFailureLine(error: unknown, cwd: string): string | null {
  const e = error as NodeJS.ErrnoException;
  if (e === null || typeof e !== 'object' || typeof e.code !== 'string' || !(IO_ERROR_CODES as readonly string[]).includes(e.code)) return null;
  const cause = `${CAUSES[e.code]} (${e.code})`;
  if (typeof e.path !== 'string') return `I/O error: ${cause}`;
  const temp = /^\.(.+)\.\d+\.\d+\.tmp$/.exec(basename(e.path));
  const target = temp ? join(dirname(e.path), temp[1]!) : e.path;
  const shown = relative(cwd, target) || target;
  const verb = VERBS[e.syscall ?? ''] ?? (e.syscall ? `${e.syscall}` : 'access');
  return `cannot ${verb} ${shown.includes(' ') ? `"${shown}"` : shown}: ${cause}`;
}

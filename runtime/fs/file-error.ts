import { isAbsolute, relative } from 'node:path';

/** What an OS error code means, in the words a one-line failure uses. */
export const ERRNO_CAUSES: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
  EFBIG: 'the file is too large',
  EEXIST: 'a file is in the way',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a file is where a directory is expected',
  ENOENT: 'no such file or directory',
  EBUSY: 'the resource is busy',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  ELOOP: 'too many symbolic links',
  ENXIO: 'no such device or address (a socket or a FIFO nobody reads)',
  ETXTBSY: 'the file is busy',
  ENAMETOOLONG: 'the name is too long',
};

/** The codes that mean the disk, not the file, refused a write: full, over quota, broken or read-only. */
export const DISK_REFUSALS: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EFBIG']);

// Built, the compile command runs from a bundle of its own with its own copy of this class;
// `instanceof` asks for this mark rather than the prototype (as LeopoldError does).
const MARK = Symbol.for('leopold.FileError');

/**
 * A file the product could not read or write, said in one line: which file, what was
 * being done, and why. `code` is the OS error code when the OS refused (ENOSPC, EIO …),
 * absent when Leopold refused (a FIFO where a file belongs, a read-only plan, invalid
 * UTF-8 …). `line`/`column` point into the file when the cause has a place (invalid UTF-8).
 */
export class FileError extends Error {
  override readonly name = 'FileError';
  readonly [MARK] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [MARK]?: unknown })[MARK] === true;
  }
  constructor(
    /** The file as the caller named it (never a temporary file). */
    readonly path: string,
    /** `read`, `write`, `replace`, `lock` … */
    readonly verb: string,
    /** Why, in words: `no space left on the device`, `it is a FIFO, not a regular file`. */
    readonly reason: string,
    readonly code?: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`cannot ${verb} ${path}: ${reason}${code ? ` (${code})` : ''}`);
  }

  /** The one line a command prints, with the path shown relative to `cwd` when it is under it. */
  describe(cwd: string): string {
    const rel = relative(cwd, this.path);
    const shown = rel === '' || isAbsolute(rel) || rel.startsWith('..') ? this.path : rel;
    const quoted = /[\s\u0000-\u001f\u007f]/.test(shown) ? JSON.stringify(shown) : shown;
    if (this.line !== undefined) return `${quoted}:${this.line}:${this.column ?? 1}: ${this.reason}`;
    return `cannot ${this.verb} ${quoted}: ${this.reason}${this.code ? ` (${this.code})` : ''}`;
  }
}

/**
 * `error` as a FileError about `path`: an OS error keeps its code and gets its cause in
 * words; a FileError passes through; anything else is returned unchanged (a bug, not I/O).
 */
export function asFileError(error: unknown, path: string, verb: string): unknown {
  if (error instanceof FileError) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string') return error;
  return new FileError(path, verb, ERRNO_CAUSES[code] ?? (error as Error).message, code);
}

/** True when the disk itself refused a write (full, over quota, I/O error, read-only file system). */
export function isDiskRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DISK_REFUSALS.has(code);
}

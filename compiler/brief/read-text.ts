import { statSync } from 'node:fs';
import { FileError } from '../../runtime/fs/file-error.js';
import { decodeUtf8, readRegularFile } from '../../runtime/fs/read.js';
import { LeopoldError } from '../diagnostics/diagnostic.js';

/** Plans and briefs are prose; anything bigger than this is not one (and would stall the parser). */
export const MAX_TEXT_BYTES = 16 * 1024 * 1024;

/**
 * Reads a UTF-8 text file for the compiler, turning every way it can fail into a
 * one-line LeopoldError naming `path` as given: missing, a directory, a FIFO or a device
 * (opened without blocking: never waited on), unreadable, too big, binary (a NUL byte) or
 * not UTF-8 (with the line and column of the first bad byte, as every command says it:
 * runtime/fs/read.ts). The BOM is kept so positions stay true to the bytes.
 */
export function readTextFile(path: string, what = 'file'): string {
  const shown = displayPath(path);
  const a = withArticle(what);
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path, MAX_TEXT_BYTES);
  } catch (error) {
    throw asLeopoldError(error, shown, what);
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) throw new LeopoldError(`looks binary (NUL byte at offset ${nul}), expected a UTF-8 ${what}`, shown);
  try {
    return decodeUtf8(bytes, path, `a UTF-8 ${what}`);
  } catch (error) {
    const e = error as FileError;
    throw new LeopoldError(e.reason, shown, e.line, e.column);
  }
}

/** `a plan file`, `an answers file`: the article English wants before `what`. */
function withArticle(what: string): string {
  return `${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what}`;
}

/** A path safe for a one-line message: control characters (a newline in a name) are escaped. */
export function displayPath(path: string): string {
  return /[\u0000-\u001F\u007F]/.test(path) ? JSON.stringify(path) : path;
}

/** Like readTextFile, but a missing file is the empty string (optional brief files). */
export function readOptionalTextFile(path: string, what = 'file'): string {
  try {
    statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
  }
  return readTextFile(path, what);
}

function asLeopoldError(error: unknown, path: string, what: string): LeopoldError {
  if (error instanceof LeopoldError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // Refused by the reader itself (a FIFO, a device, too big): its reason says what it found.
  if (error instanceof FileError && code === undefined) return new LeopoldError(`${error.reason.replace(/^it /, '')}, expected ${withArticle(what)}`, path);
  switch (code) {
    case 'ENOENT':
      return new LeopoldError(`no such file (expected ${withArticle(what)})`, path);
    case 'ENOTDIR':
      return new LeopoldError(`no such file: a parent of it is not a directory`, path);
    case 'EISDIR':
      return new LeopoldError(`is a directory, expected ${withArticle(what)}`, path);
    case 'EACCES':
    case 'EPERM':
      return new LeopoldError('cannot be read: permission denied', path);
    case 'ELOOP':
      return new LeopoldError('cannot be read: too many symbolic links', path);
    default:
      return new LeopoldError(`cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})`, path);
  }
}

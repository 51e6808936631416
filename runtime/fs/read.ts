import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { FileError, asFileError } from './file-error.js';

// The product's reads of its own files (state, plan, brief, logs, caches, locks): only
// regular files, never more than a bound. A FIFO, a socket or a device where a file belongs
// (or a link to one, such as /dev/zero) must not hang a hook that runs on every turn, so
// every open is non-blocking (opening a FIFO for reading would wait for a writer) and the
// type is asked of the open descriptor (fstat), so nothing can be swapped in between.
// node:fs only, so the hooks can load it.

/** The largest file read whole: plans and briefs are prose, and 16 MiB is far past any. */
export const MAX_READ_BYTES = 16 * 1024 * 1024;

const NONBLOCKING = constants.O_NONBLOCK | constants.O_NOCTTY;

/** What a file that is not a regular file is, in words. */
function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** The refusal for a file of the wrong type (EISDIR for a directory, so callers can tell it apart). */
export function notRegular(path: string, verb: string, stat: Stats): FileError {
  return stat.isDirectory()
    ? new FileError(path, verb, 'it is a directory, not a file', 'EISDIR')
    : new FileError(path, verb, `it is ${kindOf(stat)}, not a regular file`);
}

/**
 * Opens `path` without blocking (`flags` such as O_RDONLY, or O_RDWR | O_APPEND | O_CREAT
 * with `mode`) and returns the descriptor only when it is a regular file; anything else is
 * closed again and refused with a FileError. OS errors come back as FileErrors about `path`.
 */
export function openRegular(path: string, flags: number, verb: string, mode?: number): { fd: number; stat: Stats } {
  let fd: number;
  try {
    fd = openSync(path, flags | NONBLOCKING, mode);
  } catch (error) {
    throw asFileError(error, path, verb);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw notRegular(path, verb, stat);
    return { fd, stat };
  } catch (error) {
    closeSync(fd);
    throw asFileError(error, path, verb);
  }
}

/** Reads `length` bytes at `position` of an open file (fewer at its end). */
export function readAt(fd: number, length: number, position: number): Buffer {
  const buffer = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buffer, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buffer : buffer.subarray(0, got);
}

/**
 * The bytes of the regular file at `path`, at most `maxBytes` (a file that grows past the
 * bound while it is read is refused too). Throws a FileError for a missing, unreadable,
 * oversized or non-regular file.
 */
export function readRegularFile(path: string, maxBytes = MAX_READ_BYTES): Buffer {
  const { fd, stat } = openRegular(path, constants.O_RDONLY, 'read');
  try {
    if (stat.size > maxBytes) throw tooBig(path, stat.size, maxBytes);
    // Read to the end, not to the size fstat gave: a log may grow meanwhile.
    const chunks: Buffer[] = [];
    let total = 0;
    for (let length = Math.max(stat.size, 4096) + 1; ; length = 64 * 1024) {
      const chunk = readAt(fd, length, total);
      if (chunk.length === 0) break;
      chunks.push(chunk);
      total += chunk.length;
      if (total > maxBytes) throw tooBig(path, total, maxBytes);
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  } catch (error) {
    throw asFileError(error, path, 'read');
  } finally {
    closeSync(fd);
  }
}

function tooBig(path: string, size: number, maxBytes: number): FileError {
  return new FileError(path, 'read', `it is ${size > maxBytes ? `over ${maxBytes}` : size} bytes; at most ${maxBytes} are read`);
}

/** Like readRegularFile, but a missing file is null (so is one whose parent is a file: it cannot exist). */
export function readOptionalFile(path: string, maxBytes = MAX_READ_BYTES): Buffer | null {
  try {
    return readRegularFile(path, maxBytes);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/** A file's text ('' when it is missing); bytes that are not UTF-8 read as U+FFFD. Other failures throw a FileError. */
export function readOptionalText(path: string, maxBytes = MAX_READ_BYTES): string {
  return readOptionalFile(path, maxBytes)?.toString('utf8') ?? '';
}

/**
 * The byte offset of the first byte that is not part of well-formed UTF-8 (overlong forms,
 * surrogates and code points past U+10FFFF included), or -1 when all of it is.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let cp: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min, cp] = [1, 0x80, b & 0x1f];
    else if (b >= 0xe0 && b <= 0xef) [need, min, cp] = [2, 0x800, b & 0x0f];
    else if (b >= 0xf0 && b <= 0xf4) [need, min, cp] = [3, 0x10000, b & 0x07];
    else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/**
 * `bytes` decoded as UTF-8 (a BOM is kept, so offsets stay true to the file), or a FileError
 * naming the line and column of the first byte that is not UTF-8: the same diagnostic for
 * every command that reads the file. `what` names what the file should be (`a plan file`).
 */
export function decodeUtf8(bytes: Uint8Array, path: string, what = 'a text file'): string {
  const at = invalidUtf8Offset(bytes);
  if (at < 0) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const before = Buffer.from(bytes.buffer, bytes.byteOffset, at).toString('utf8');
  // Lines end at CRLF, LF or a lone CR, as the plan parser counts them; columns are characters.
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  const line = (before.match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
  const byte = `0x${bytes[at]!.toString(16).padStart(2, '0')}`;
  return fail(new FileError(path, 'read', `is not valid UTF-8 text (byte ${byte}), expected ${what}`, undefined, line, before.length - lineStart + 1));
}

function fail(error: FileError): never {
  throw error;
}

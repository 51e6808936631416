import { closeSync, constants, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { newFileMode, writeWhole } from './atomic.js';
import { FileError, asFileError } from './file-error.js';
import { readRegularFile } from './read.js';

/** How long to wait for a lock before giving up, and how old a lock of a live pid may get. */
export interface LockOptions {
  timeoutMs?: number;
  staleMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A lock file holds `pid token`; anything longer is not one of ours.
const MAX_LOCK_BYTES = 4096;

/** A lock file's content, read without blocking: a FIFO or a device at the lock's path is refused, not waited on. */
function readLock(path: string): string {
  return readRegularFile(path, MAX_LOCK_BYTES).toString('utf8');
}

/**
 * A token no other holder of this lock will have: the pid is unique among live processes,
 * and the time and random part tell apart the calls of one process. Not node:crypto, whose
 * loading is a measurable part of a scribe's cold start; the token guards against
 * mistakes (releasing someone else's lock), not against an adversary.
 */
function uniqueToken(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

/** True when a process with this pid exists on this machine. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Breaks the lock at `path` if its holder is dead or it is older than `staleMs`. The lock
 * is renamed away first and its token compared, so two breakers never both delete a fresh
 * lock that a third process has just taken.
 */
function breakIfStale(path: string, staleMs: number): void {
  let content: string;
  let mtimeMs: number;
  try {
    content = readLock(path);
    mtimeMs = statSync(path).mtimeMs;
  } catch (error) {
    // Something that is not a lock file sits where the lock belongs: say so, never wait on it.
    if (error instanceof FileError && error.code !== 'ENOENT') throw error;
    return; // released meanwhile
  }
  const pid = Number.parseInt(content.split(' ')[0] ?? '', 10);
  const stale = !Number.isInteger(pid) || pid <= 0 ? Date.now() - mtimeMs > 1000 : !alive(pid) || Date.now() - mtimeMs > staleMs;
  if (!stale) return;
  const aside = `${path}.broken-${process.pid}-${uniqueToken()}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else broke it first
  }
  let taken = '';
  try {
    taken = readLock(aside);
  } catch {
    /* nothing to compare */
  }
  if (taken !== content) {
    // We moved a lock that someone took after our check: put it back if the path is free.
    try {
      renameSync(aside, path);
      return;
    } catch {
      /* fall through and drop it */
    }
  }
  rmSync(aside, { force: true });
}

/**
 * Creates the lock file holding `token`; false when another holder has it. A lock file that
 * cannot be written whole (a full disk) is removed again before the error is thrown, so a
 * failed attempt never leaves a lock behind.
 */
function tryTake(path: string, token: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, newFileMode(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw asFileError(error, path, 'take the lock');
  }
  try {
    try {
      writeWhole(fd, Buffer.from(token, 'utf8'));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    rmSync(path, { force: true });
    throw asFileError(error, path, 'take the lock');
  }
  return true;
}

/**
 * Runs `fn` while holding an exclusive lock file at `path` (created with O_EXCL; the file
 * holds `pid token`). Stale locks left by killed processes are recovered. The lock is
 * released even when `fn` throws.
 */
export async function withLock<T>(path: string, fn: () => T | Promise<T>, options: LockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const staleMs = options.staleMs ?? 60_000;
  const token = `${process.pid} ${uniqueToken()}\n`;
  const started = Date.now();
  let delay = 2;
  for (;;) {
    if (tryTake(path, token)) break;
    breakIfStale(path, staleMs);
    if (Date.now() - started > timeoutMs) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for the lock ${path}`);
    }
    await sleep(delay + Math.floor(Math.random() * delay));
    delay = Math.min(delay * 2, 50);
  }
  try {
    return await fn();
  } finally {
    try {
      if (readLock(path) === token) rmSync(path, { force: true });
    } catch {
      /* already gone */
    }
  }
}

import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fsyncSync,
  linkSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { findBriefDir } from './brief-dir.js';
import { FileError, asFileError } from './file-error.js';
import { notRegular } from './read.js';

let counter = 0;

/** How a file is replaced. */
export interface AtomicWriteOptions {
  /**
   * The project the file belongs to. A target that is a symbolic link is written through
   * to the file it points to when that file is inside this directory, and refused
   * otherwise. Default: the directory holding the `.leopold/` found at or above the file,
   * else the file's own directory.
   */
  root?: string;
  /**
   * Permission bits for a file that does not exist yet, before the umask and the ceiling
   * its directory sets (default 0o666; a `settings.local.json` 0o600). An existing file
   * keeps its own.
   */
  mode?: number;
  /** fsync before the rename (default true). False only for a cache whose loss costs a recomputation. */
  durable?: boolean;
  /**
   * A file this one is derived from (a cache holding its text): the result is never
   * readable by more people than that file, whatever it was before.
   */
  notWiderThan?: string;
}

/** One file of a writeFilesAtomic batch. */
export interface AtomicFile {
  path: string;
  data: string | Uint8Array;
}

/**
 * Files created private whatever the directory allows: Claude Code's personal settings,
 * which can hold secrets in `env`.
 */
const PRIVATE_FILES: ReadonlySet<string> = new Set(['settings.local.json']);

/**
 * Replaces `path` with `data` in one step: write a temp file beside it, check every write
 * and the fsync, rename. A reader (or a process killed half way) sees the old bytes or the
 * new ones, never a mix; a full disk or an I/O error leaves the old bytes and no temp file,
 * and throws a FileError naming `path`. The file keeps its permission bits (and, for root,
 * its owner); a read-only file, a FIFO or a device is refused, not replaced.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  writeFilesAtomic([{ path, data }], options);
}

/**
 * Replaces several files together: every temp file is written and synced first, and only
 * then are they renamed into place, so a target that cannot be written (read-only, full,
 * a file where its directory should be) leaves all of them untouched.
 */
export function writeFilesAtomic(files: readonly AtomicFile[], options: AtomicWriteOptions = {}): void {
  const plans = files.map((file) => ({ ...file, target: writeTarget(file.path, options.root) }));
  const cap = options.notWiderThan === undefined ? 0o777 : modeCap(options.notWiderThan);
  const temps: string[] = [];
  let current = files[0]?.path ?? '';
  try {
    for (const { path, data, target } of plans) {
      current = path;
      writeTemp(target.path, data, target.existing, options, cap, temps);
    }
    // The one failure the temp files do not reveal in advance: a directory where a target
    // should be (made since it was looked at). Checked before the first rename, so no file
    // is replaced when one cannot be.
    for (const { path, target } of plans) {
      current = path;
      const now = statSync(target.path, { throwIfNoEntry: false });
      if (now && !now.isFile()) throw notRegular(path, 'replace', now);
    }
    plans.forEach(({ path, target }, i) => {
      current = path;
      renameSync(temps[i]!, target.path);
    });
  } catch (error) {
    for (const temp of temps) rmSync(temp, { force: true });
    throw asFileError(error, current, 'write');
  }
}

/**
 * Creates `path` with `data` only if no file is there: the whole file appears at once
 * (written and synced as a temp file, then linked into place, which fails when the name
 * is taken) or not at all. False when a file was already there: it is never replaced.
 */
export function createFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): boolean {
  const temps: string[] = [];
  try {
    const temp = writeTemp(path, data, null, options, options.notWiderThan === undefined ? 0o777 : modeCap(options.notWiderThan), temps);
    try {
      linkSync(temp, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    return true;
  } catch (error) {
    throw asFileError(error, path, 'write');
  } finally {
    for (const temp of temps) rmSync(temp, { force: true });
  }
}

/**
 * Writes `data` to a new temp file beside `target` (pushed onto `temps` as soon as it
 * exists, so the caller removes it whatever happens): every byte checked, synced unless
 * the caller says it is a cache, closed (a close can report a failed write-back).
 */
function writeTemp(target: string, data: string | Uint8Array, existing: Stats | null, options: AtomicWriteOptions, cap: number, temps: string[]): string {
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${counter++}.tmp`);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, existing ? 0o600 : newFileMode(target, options.mode) & cap);
  temps.push(temp);
  try {
    if (existing) keepModeAndOwner(fd, existing, cap);
    writeWhole(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    if (options.durable !== false) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return temp;
}

/** Writes all of `data`, however many calls the kernel takes: a short write is never the end. */
export function writeWhole(fd: number, data: Uint8Array, position: number | null = null): void {
  let written = 0;
  while (written < data.length) {
    const n = writeSync(fd, data, written, data.length - written, position === null ? null : position + written);
    // write(2) returns 0 only when it cannot make progress; never spin on it.
    if (n <= 0) throw Object.assign(new Error('write made no progress'), { code: 'EIO' });
    written += n;
  }
}

/** Where a write of `path` lands, and the file it replaces (if any), refusing what must not be replaced. */
function writeTarget(path: string, root: string | undefined): { path: string; existing: Stats | null } {
  let target = path;
  let link: Stats | undefined;
  try {
    link = lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    throw asFileError(error, path, 'write');
  }
  if (link?.isSymbolicLink()) target = linkTarget(path, root);
  let existing: Stats | undefined;
  try {
    existing = statSync(target, { throwIfNoEntry: false });
  } catch (error) {
    throw asFileError(error, path, 'write');
  }
  if (!existing) return { path: target, existing: null };
  if (!existing.isFile()) throw notRegular(path, 'write', existing);
  if ((existing.mode & 0o222) === 0) {
    throw new FileError(path, 'write', `it is read-only (mode ${(existing.mode & 0o777).toString(8).padStart(4, '0')}); make it writable if Leopold should change it`);
  }
  // As root the kernel would let us; a file the user cannot write is theirs to keep.
  if (process.getuid?.() !== 0) {
    try {
      accessSync(target, constants.W_OK);
    } catch (error) {
      throw asFileError(error, path, 'write');
    }
  }
  return { path: target, existing };
}

/**
 * The file a symbolic link at `path` points to, when it lies inside the project: a
 * rename would otherwise replace the link with a copy and leave the file it named behind.
 */
function linkTarget(path: string, root: string | undefined): string {
  let real: string;
  try {
    try {
      real = realpathSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // A dangling link: the file it names is created, in a directory that must exist.
      const named = resolve(dirname(path), readlinkSync(path));
      real = join(realpathSync(dirname(named)), basename(named));
    }
  } catch (error) {
    throw asFileError(error, path, 'write');
  }
  const project = projectOf(path, root);
  if (real === project || real.startsWith(project.endsWith(sep) ? project : `${project}${sep}`)) return real;
  throw new FileError(path, 'write', `it is a symbolic link to ${real}, outside the project (${project}); Leopold writes through a link only to a file inside the project`);
}

function projectOf(path: string, root: string | undefined): string {
  const dir = root ?? (() => {
    const brief = findBriefDir(dirname(resolve(path)));
    return brief === null ? dirname(resolve(path)) : dirname(brief);
  })();
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

/**
 * A new file's permission bits: what the caller asks (0o666 by default, 0o600 for a
 * private file), no wider than its directory lets others in (a 0700 directory gives
 * 0600 files). The kernel then applies the umask.
 */
export function newFileMode(path: string, mode?: number): number {
  const wanted = mode ?? (PRIVATE_FILES.has(basename(path)) ? 0o600 : 0o666);
  let ceiling = 0o666;
  try {
    ceiling = (statSync(dirname(path)).mode & 0o666) | 0o600;
  } catch {
    // The open below reports a missing directory.
  }
  return wanted & ceiling;
}

/** The permission bits a file derived from `source` may have: the source's own, owner read/write always. */
function modeCap(source: string): number {
  try {
    return (statSync(source).mode & 0o777) | 0o600;
  } catch {
    return 0o600; // nothing to compare with: private
  }
}

/** Gives the temp file the permission bits (and, where we may, the owner) of the file it replaces. */
function keepModeAndOwner(fd: number, original: Stats, cap: number): void {
  fchmodSync(fd, original.mode & 0o777 & cap);
  if (original.uid !== process.getuid?.() || original.gid !== process.getgid?.()) {
    try {
      fchownSync(fd, original.uid, original.gid);
    } catch {
      // Only root may give a file away; anyone else's rewrite is theirs.
    }
  }
}

import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readSync, readlinkSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { isArmed, isRegularFile, isToken } from '../../lock/files.js';
import { LOCK_RECORD } from '../../lock/paths.js';
import type { Tokens } from './findings.js';

// The guard's only file-system reads: where `.leopold/` is, whether a run is active, which
// tokens exist, and (only for a verb git does not ship) the user's git aliases.

/**
 * True while the lock is engaged: a run is active (`.leopold/state.json` says
 * `"active": true`) or the OS lock is armed (`.leopold/lock.json` exists, from `leopold run
 * start` until the user's `leopold run unlock`, so ending a run never reopens git by
 * itself). A missing, unreadable or corrupt state.json means no run, as for every other
 * reader of state.json (runtime/state).
 */
export function isRunActive(leopoldDir: string): boolean {
  if (isArmed(leopoldDir)) return true;
  try {
    const state = JSON.parse(readFileSync(join(leopoldDir, 'state.json'), 'utf8')) as unknown;
    return state !== null && typeof state === 'object' && (state as { active?: unknown }).active === true;
  } catch {
    return false;
  }
}

/**
 * What `.leopold/lock.json` says about the OS layer (runtime/lock/arm.ts, LockRecord.sandbox):
 * whether Claude Code's sandbox was armed and can run here, and the commands it never
 * sandboxes. Null when the lock is not armed, the record does not say, or it is unreadable.
 */
export function recordedOsLayer(leopoldDir: string): { available: boolean; excluded: string[] } | null {
  const path = join(leopoldDir, LOCK_RECORD);
  if (!isRegularFile(path)) return null;
  try {
    const sandbox = (JSON.parse(readFileSync(path, 'utf8')) as { sandbox?: { armed?: unknown; available?: unknown; excluded_commands?: unknown } }).sandbox;
    if (!sandbox || sandbox.armed !== true) return null;
    const excluded = Array.isArray(sandbox.excluded_commands) ? sandbox.excluded_commands.filter((c): c is string => typeof c === 'string') : [];
    return { available: sandbox.available === true, excluded };
  } catch {
    return null;
  }
}

/**
 * The `sandbox.excludedCommands` the settings name now (the user's, the project's, the
 * local and the managed settings; Claude Code merges them): a list added after arming
 * counts too. Unreadable files name none.
 */
export function liveExcludedCommands(root: string, home: string): string[] {
  const out: string[] = [];
  for (const file of [join(home, '.claude', 'settings.json'), join(root, '.claude', 'settings.json'), join(root, '.claude', 'settings.local.json'), '/etc/claude-code/managed-settings.json']) {
    const text = readBounded(file);
    if (text === null) continue;
    try {
      const list = (JSON.parse(text) as { sandbox?: { excludedCommands?: unknown } }).sandbox?.excludedCommands;
      if (Array.isArray(list)) out.push(...list.filter((c): c is string => typeof c === 'string'));
    } catch {
      // not JSON: Claude Code ignores it too
    }
  }
  return out;
}

/** A directory's entries (at most 1,000, sorted); null when it is not a readable directory. */
export function listDirectory(path: string): string[] | null {
  try {
    return readdirSync(path).sort().slice(0, 1000);
  } catch {
    return null;
  }
}

/** Scripts, package.json and Makefiles larger than this are not read (the guard denies running them). */
export const MAX_READ_BYTES = 256 * 1024;

/** A file's text when it is a regular file of at most MAX_READ_BYTES; null when missing, unreadable or too big. */
export function readBounded(path: string): string | null {
  let fd: number | null = null;
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > MAX_READ_BYTES) return null;
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(MAX_READ_BYTES + 1);
    let n = 0;
    for (let got = 1; got > 0 && n <= MAX_READ_BYTES; n += got) got = readSync(fd, buffer, n, buffer.length - n, null);
    return n > MAX_READ_BYTES ? null : buffer.subarray(0, n).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * `path` with every symlink on it resolved, component by component (a dangling link
 * resolves to where it points; missing components are kept as written). Bounded: after 40
 * links it gives up and returns what it has.
 */
export function resolveLinks(path: string): string {
  let parts = resolve(path).split(sep).filter(Boolean);
  let done = '/';
  let links = 0;
  while (parts.length > 0) {
    const next = join(done, parts[0] as string);
    parts = parts.slice(1);
    let target: string | null = null;
    try {
      if (lstatSync(next).isSymbolicLink()) target = readlinkSync(next);
    } catch {
      return join(next, ...parts);
    }
    if (target === null) {
      done = next;
      continue;
    }
    if (++links > 40) return join(next, ...parts);
    parts = [...resolve(done, target).split(sep).filter(Boolean), ...parts];
    done = '/';
  }
  return done;
}

/**
 * Where `PATH` finds a program name (the first executable regular file), cached per name;
 * null when it finds none. The guard reads what it finds outside the system directories.
 */
export function pathLookup(path: string | undefined): (name: string) => string | null {
  const dirs = (path ?? '').split(':').filter((d) => d !== '' && d.startsWith('/'));
  const cache = new Map<string, string | null>();
  return (name) => {
    if (cache.has(name)) return cache.get(name) as string | null;
    let found: string | null = null;
    for (const dir of dirs) {
      try {
        const candidate = join(dir, name);
        const st = statSync(candidate);
        if (st.isFile() && (st.mode & 0o111) !== 0) {
          found = candidate;
          break;
        }
      } catch {
        // not here
      }
    }
    cache.set(name, found);
    return found;
  };
}

/** Which lift tokens exist. */
export function tokensIn(leopoldDir: string): Tokens {
  return { allowGit: isToken(join(leopoldDir, 'ALLOW_GIT')), allowPush: isToken(join(leopoldDir, 'ALLOW_PUSH')) };
}

/**
 * A lookup of `[alias]` entries in the repository's and the user's git config files. Reads
 * lazily, once; `include` directives and conditional includes are not followed.
 */
export function gitAliasReader(dirs: readonly string[], home: string, env: NodeJS.ProcessEnv): (name: string) => string | undefined {
  let aliases: Map<string, string> | null = null;
  return (name) => {
    aliases ??= loadAliases(dirs, home, env);
    return aliases.get(name.toLowerCase());
  };
}

function loadAliases(dirs: readonly string[], home: string, env: NodeJS.ProcessEnv): Map<string, string> {
  const files: string[] = [];
  if (env.GIT_CONFIG_SYSTEM) files.push(env.GIT_CONFIG_SYSTEM);
  else files.push('/etc/gitconfig');
  files.push(join(env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'config'));
  files.push(env.GIT_CONFIG_GLOBAL || join(home, '.gitconfig'));
  for (const dir of dirs) {
    const git = findGitDir(dir);
    if (git) files.push(join(git, 'config'));
  }
  const aliases = new Map<string, string>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    let inAlias = false;
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]\s*(.*)$/.exec(line);
      if (section) {
        inAlias = (section[1] as string).toLowerCase() === 'alias';
        continue;
      }
      const entry = inAlias ? /^([A-Za-z0-9-]+)\s*=\s*(.*)$/.exec(line) : null;
      if (entry) aliases.set((entry[1] as string).toLowerCase(), unquote(entry[2] as string));
    }
  }
  return aliases;
}

function unquote(value: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && i + 1 < value.length) out += value[++i] === 'n' ? '\n' : value[i];
    else if ((c === '#' || c === ';') && !quoted) break;
    else out += c;
  }
  return out.trim();
}

function findGitDir(start: string): string | null {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const candidate = join(dir, '.git');
    try {
      const st = statSync(candidate);
      if (st.isDirectory()) return candidate;
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(candidate, 'utf8'));
      if (m) return resolve(dir, (m[1] as string).trim());
    } catch {
      // keep walking
    }
    if (dirname(dir) === dir) return null;
  }
}

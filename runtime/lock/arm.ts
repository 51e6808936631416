import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { isRegularFile, isToken } from './files.js';
import { GIT_REF_PATHS, HOOK_CODE, LEOPOLD_PROTECTED, LOCK_RECORD, SETTINGS_PROTECTED } from './paths.js';

/**
 * The OS-enforced run lock. Arming writes Leopold's part of the project's machine-local
 * Claude Code settings (`.claude/settings.local.json`, which Claude Code re-reads while a
 * session runs): the Bash sandbox on, no unsandboxed escape hatch, the protected paths in
 * `sandbox.filesystem.denyWrite`, and `permissions.deny` rules for the Write/Edit tools,
 * which the sandbox does not cover. Then `.leopold/lock.json` records what was added, so
 * releasing removes exactly that and leaves the user's own settings as they were.
 *
 * The settings name absolute paths: that file is machine-local by Claude Code's design
 * (git ignores it), and the sandbox resolves relative paths against the session's working
 * directory, not the project. lock.json names only project-relative paths.
 */

/** A lift the user grants with `leopold run allow git|push`: the guard lets the verb through and the refs become writable. */
export type Grant = 'git' | 'push';

const TOKENS: Record<Grant, string> = { git: 'ALLOW_GIT', push: 'ALLOW_PUSH' };

/** What `.leopold/lock.json` holds. */
export interface LockRecord {
  version: 1;
  armed_at: string;
  grants: Grant[];
  require_sandbox: boolean;
  /** The sandbox switches as they were before arming (null: the key was absent). */
  previous: { enabled: boolean | null; allowUnsandboxedCommands: boolean | null; failIfUnavailable: boolean | null };
  /** The permissions.deny rules arming added (rules the user already had are not listed). */
  deny_rules: string[];
  /** The .git/info/exclude patterns arming added, for the sandbox's placeholder files. */
  exclude: string[];
  /** True when arming created an empty .git/packed-refs (so denying writes to it keeps it readable). */
  created_packed_refs: boolean;
  /** True when the user's settings already allowed writes to the project root (releasing keeps it). */
  previous_allow_root: boolean;
  /** The remotes' hosts arming put on the sandbox's network deny list (none while push is granted). */
  denied_domains: string[];
  /** The remotes on this file system, relative to the project, arming made read-only. */
  local_remotes: string[];
  /**
   * True when the user had no sandbox of their own: arming then also allows every host
   * (`*`), so the run keeps the network it had before, minus the remotes. (Not every path:
   * with `/` writable the sandbox masks protected names under every temp directory, and
   * concurrent sessions on one machine race on those masks.) A sandbox the user
   * configured is never widened.
   */
  widened: boolean;
  /**
   * The OS layer as arming found it: the sandbox armed (always, by arming), whether it can
   * run on this machine (runtime/lock/sandbox.ts), and the `sandbox.excludedCommands` in
   * force then (they run outside it). The git guard reads it to know whether a command it
   * cannot see through still runs inside the sandbox. Absent in records written before
   * this field, or when arming was not told: the guard then assumes no OS layer.
   */
  sandbox?: OsLayer;
}

/** What `lock.json` records about the OS layer (see LockRecord.sandbox). */
export interface OsLayer {
  armed: true;
  available: boolean;
  excluded_commands: string[];
}

/**
 * Paths Claude Code's sandbox (2.1.332) always protects and, when they do not exist,
 * masks with a character-device placeholder in the working directory: `git add -A`
 * refuses those ("can only add regular files"). While the lock is armed, the ones that did
 * not exist are listed in .git/info/exclude so git skips them.
 */
export const SANDBOX_PLACEHOLDERS = [
  '.bash_profile',
  '.bashrc',
  '.profile',
  '.zprofile',
  '.zshrc',
  '.gitconfig',
  '.gitmodules',
  '.ripgreprc',
  '.mcp.json',
  '.idea',
  '.vscode',
  '.claude/agents',
  '.claude/commands',
  '.claude/hooks',
  '.claude/launch.json',
  '.claude/loop.md',
  '.claude/output-styles',
  '.claude/routines',
  '.claude/scheduled_tasks.json',
  '.claude/skills',
  '.claude/workflows',
  ...LEOPOLD_PROTECTED.map((name) => `.leopold/${name}`),
] as const;

const EXCLUDE_BEGIN = '# leopold run lock: the sandbox placeholders (leopold run unlock removes this block)';
const EXCLUDE_END = '# end of the leopold run lock block';

export class LockError extends Error {}

/** What a widened lock allows besides its denials: every host. */
const ANY_HOST = '*';

/** The paths of one project the lock works on. */
interface Layout {
  root: string;
  leopoldDir: string;
  settingsFile: string;
  /** git's common directory (refs and packed-refs live there), null outside a repository. */
  gitDir: string | null;
}

function layoutOf(leopoldDir: string): Layout {
  const root = dirname(leopoldDir);
  return { root, leopoldDir, settingsFile: join(root, '.claude', 'settings.local.json'), gitDir: gitCommonDir(root) };
}

function gitCommonDir(root: string): string | null {
  try {
    const out = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return out.trim() || null;
  } catch {
    return null;
  }
}

/**
 * Where the project's remotes push to: network hosts (the sandbox's proxy lets any host
 * through in bypassPermissions mode, so each remote's host goes on its deny list) and
 * paths on this file system (made read-only, wherever they are). `git remote get-url
 * --push --all` applies the user's insteadOf rewrites.
 */
export function remoteTargets(root: string): { hosts: string[]; paths: string[] } {
  const hosts = new Set<string>();
  const paths = new Set<string>();
  const run = (args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      return '';
    }
  };
  for (const name of run(['remote']).split('\n').filter((line) => line !== '')) {
    for (const url of run(['remote', 'get-url', '--push', '--all', name]).split('\n').filter((line) => line !== '')) {
      const target = remoteTarget(url);
      if (target.host) hosts.add(target.host);
      else if (target.path) paths.add(resolve(root, target.path));
    }
  }
  return { hosts: [...hosts].sort(), paths: [...paths].sort() };
}

/** The host or local path of one remote URL (`https://h/…`, `ssh://u@h:22/…`, `u@h:path`, `file:///p`, `/p`, `../p`). */
export function remoteTarget(url: string): { host?: string; path?: string } {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/]*@)?(\[[^\]]+\]|[^:/]+)?(?::\d+)?(\/.*)?$/i.exec(url);
  if (scheme) {
    if (scheme[1]!.toLowerCase() === 'file') return { path: decodeURIComponent(scheme[3] ?? '/') };
    return scheme[2] ? { host: scheme[2].replace(/^\[|\]$/g, '').toLowerCase() } : {};
  }
  // scp-like syntax: a colon before the first slash (git's own rule for ssh remotes).
  const scp = /^(?:[^@/:]+@)?([^/:]+):/.exec(url);
  if (scp && !url.startsWith('/') && !url.startsWith('.')) return { host: scp[1]!.toLowerCase() };
  return { path: url };
}

/** The lock's record, or null when the lock is not armed (a corrupt record counts as armed with nothing known). */
export function readLockRecord(leopoldDir: string): LockRecord | null {
  const path = join(leopoldDir, LOCK_RECORD);
  if (!isRegularFile(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockRecord;
  } catch {
    return {
      version: 1,
      armed_at: 'unknown',
      grants: [],
      require_sandbox: false,
      previous: { enabled: null, allowUnsandboxedCommands: null, failIfUnavailable: null },
      deny_rules: [],
      exclude: [],
      created_packed_refs: false,
      previous_allow_root: false,
      denied_domains: [],
      local_remotes: [],
      widened: false,
    };
  }
}

/**
 * The grants whose token files exist: regular files that are not empty. While a sandboxed
 * command runs, Claude Code's sandbox keeps an empty placeholder file on the host at each
 * denied path that did not exist (its mount point), and a command killed mid-run can leave
 * one behind: an empty file is never a grant. `leopold run allow` writes a line.
 */
export function grantsIn(leopoldDir: string): Grant[] {
  return (Object.keys(TOKENS) as Grant[]).filter((grant) => isToken(join(leopoldDir, TOKENS[grant])));
}

/** The absolute paths the sandbox may not write while armed with `grants`. */
export function protectedPaths(layout: Layout, grants: readonly Grant[]): string[] {
  const paths = [...LEOPOLD_PROTECTED.map((name) => join(layout.leopoldDir, name)), ...SETTINGS_PROTECTED.map((path) => join(layout.root, path))];
  // A grant means a commit (or a push, which updates refs/remotes) is the user's wish.
  if (layout.gitDir && grants.length === 0) paths.push(...GIT_REF_PATHS.map((path) => join(layout.gitDir!, path.slice('.git/'.length))));
  for (const path of HOOK_CODE) if (existsOrLink(join(layout.root, path))) paths.push(join(layout.root, path));
  return paths;
}

/** The permissions.deny rules for the Write/Edit tools (project-root-relative, as Claude Code reads `/path` in project settings). */
export function denyRules(grants: readonly Grant[]): string[] {
  const paths = [...LEOPOLD_PROTECTED.map((name) => `.leopold/${name}`), ...SETTINGS_PROTECTED, '.git/config', ...HOOK_CODE.map((path) => `${path}/**`)];
  if (grants.length === 0) paths.push('.git/HEAD', '.git/refs/**', '.git/packed-refs');
  return paths.flatMap((path) => [`Edit(/${path})`, `Write(/${path})`]);
}

type Json = Record<string, unknown>;

function readSettings(file: string): Json {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new LockError(`${file}: not valid JSON (${(error as Error).message}); fix it before a run can arm the lock`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new LockError(`${file}: not a JSON object; fix it before a run can arm the lock`);
  return value as Json;
}

const objectAt = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Json) } : {});
const stringsAt = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const boolOrNull = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

/** Settings with Leopold's lock merged in: the user's own entries kept, ours added once. */
function withLock(
  settings: Json,
  root: string,
  paths: readonly string[],
  rules: readonly string[],
  domains: readonly string[],
  widen: boolean,
  requireSandbox: boolean,
  previous: LockRecord['previous'],
): Json {
  const sandbox = objectAt(settings.sandbox);
  if (domains.length > 0 || widen) {
    const network = objectAt(sandbox.network);
    if (widen) network.allowedDomains = union(stringsAt(network.allowedDomains), [ANY_HOST]);
    if (domains.length > 0) network.deniedDomains = union(stringsAt(network.deniedDomains), domains);
    sandbox.network = network;
  }
  const filesystem = objectAt(sandbox.filesystem);
  // The whole project, not only the session's working directory (a session started in a
  // subdirectory must still record into .leopold/); the denied paths stay denied inside it.
  filesystem.allowWrite = union(stringsAt(filesystem.allowWrite), [root]);
  filesystem.denyWrite = union(stringsAt(filesystem.denyWrite), paths);
  sandbox.enabled = true;
  sandbox.allowUnsandboxedCommands = false;
  if (requireSandbox) sandbox.failIfUnavailable = true;
  else if (previous.failIfUnavailable === null) delete sandbox.failIfUnavailable;
  sandbox.filesystem = filesystem;
  const permissions = objectAt(settings.permissions);
  permissions.deny = union(stringsAt(permissions.deny), rules);
  return { ...settings, sandbox, permissions };
}

/** Settings with Leopold's lock taken out again: our paths and rules removed, the switches restored. */
function withoutLock(settings: Json, root: string, record: LockRecord): Json {
  const out = { ...settings };
  const ours = (path: string) => path.startsWith(`${root}/`) && isLockPath(path.slice(root.length + 1));
  const sandbox = objectAt(out.sandbox);
  const filesystem = objectAt(sandbox.filesystem);
  const denyWrite = stringsAt(filesystem.denyWrite).filter((path) => !ours(path));
  if (denyWrite.length > 0) filesystem.denyWrite = denyWrite;
  else delete filesystem.denyWrite;
  const remotes = new Set((record.local_remotes ?? []).map((path) => resolve(root, path)));
  filesystem.denyWrite = stringsAt(filesystem.denyWrite).filter((path) => !remotes.has(path));
  if ((filesystem.denyWrite as string[]).length === 0) delete filesystem.denyWrite;
  const allowWrite = stringsAt(filesystem.allowWrite).filter((path) => path !== root || record.previous_allow_root === true);
  if (allowWrite.length > 0) filesystem.allowWrite = allowWrite;
  else delete filesystem.allowWrite;
  if (Object.keys(filesystem).length > 0) sandbox.filesystem = filesystem;
  else delete sandbox.filesystem;
  const network = objectAt(sandbox.network);
  const denied = new Set(record.denied_domains ?? []);
  const deniedDomains = stringsAt(network.deniedDomains).filter((host) => !denied.has(host));
  if (deniedDomains.length > 0) network.deniedDomains = deniedDomains;
  else delete network.deniedDomains;
  const allowedDomains = stringsAt(network.allowedDomains).filter((host) => !(record.widened && host === ANY_HOST));
  if (allowedDomains.length > 0) network.allowedDomains = allowedDomains;
  else delete network.allowedDomains;
  if (Object.keys(network).length > 0) sandbox.network = network;
  else delete sandbox.network;
  for (const key of ['enabled', 'allowUnsandboxedCommands', 'failIfUnavailable'] as const) {
    const before = record.previous[key];
    if (before === null) delete sandbox[key];
    else sandbox[key] = before;
  }
  if (Object.keys(sandbox).length > 0) out.sandbox = sandbox;
  else delete out.sandbox;
  const permissions = objectAt(out.permissions);
  const added = new Set(record.deny_rules);
  const deny = stringsAt(permissions.deny).filter((rule) => !added.has(rule));
  if (deny.length > 0) permissions.deny = deny;
  else delete permissions.deny;
  if (Object.keys(permissions).length > 0) out.permissions = permissions;
  else delete out.permissions;
  return out;
}

/** A project-relative path of the lock's own list (or a git path under .git/). */
function isLockPath(relative: string): boolean {
  return (
    LEOPOLD_PROTECTED.some((name) => relative === `.leopold/${name}`) ||
    (SETTINGS_PROTECTED as readonly string[]).includes(relative) ||
    (HOOK_CODE as readonly string[]).includes(relative) ||
    (GIT_REF_PATHS as readonly string[]).includes(relative)
  );
}

function union(mine: readonly string[], ours: readonly string[]): string[] {
  const out = [...mine];
  for (const item of ours) if (!out.includes(item)) out.push(item);
  return out;
}

/** What arming did, for the command to report. */
export interface ArmResult {
  record: LockRecord;
  /** False when the settings already held exactly this lock (nothing was written). */
  changed: boolean;
}

/**
 * Arms the lock for the project of `leopoldDir` (idempotent: re-arming an armed lock
 * refreshes it for the tokens present now). Run outside Claude Code's sandbox: inside it,
 * the settings and lock.json are read-only, which is the point.
 */
export function armLock(leopoldDir: string, options: { now: Date; requireSandbox: boolean; sandbox?: { available: boolean; excludedCommands: string[] } }): ArmResult {
  const layout = layoutOf(leopoldDir);
  const existing = readLockRecord(leopoldDir);
  const settings = readSettings(layout.settingsFile);
  const sandboxBefore = objectAt(settings.sandbox);
  const previous: LockRecord['previous'] = existing?.previous ?? {
    enabled: boolOrNull(sandboxBefore.enabled),
    allowUnsandboxedCommands: boolOrNull(sandboxBefore.allowUnsandboxedCommands),
    failIfUnavailable: boolOrNull(sandboxBefore.failIfUnavailable),
  };
  const grants = grantsIn(leopoldDir);
  const requireSandbox = options.requireSandbox || existing?.require_sandbox === true;
  // A denied path that does not exist becomes unreadable in the sandbox, and git reads packed-refs.
  const packedRefs = layout.gitDir ? join(layout.gitDir, 'packed-refs') : null;
  const needPackedRefs = packedRefs !== null && !existsSync(packedRefs);
  const createdPackedRefs = (existing?.created_packed_refs ?? false) || needPackedRefs;
  // Re-arming starts from the settings without the old lock, so a grant given or taken back since shows.
  const base = existing ? withoutLock(settings, layout.root, existing) : settings;
  const rules = denyRules(grants);
  const already = new Set(stringsAt(objectAt(base.permissions).deny));
  const addedRules = rules.filter((rule) => !already.has(rule));
  // Push granted: the remotes are the user's to reach.
  const remotes = grants.includes('push') ? { hosts: [], paths: [] } : remoteTargets(layout.root);
  const baseNetwork = stringsAt(objectAt(objectAt(base.sandbox).network).deniedDomains);
  const baseDeny = stringsAt(objectAt(objectAt(base.sandbox).filesystem).denyWrite);
  const widen = existing?.widened ?? previous.enabled !== true;
  const next = withLock(base, layout.root, [...protectedPaths(layout, grants), ...remotes.paths], rules, remotes.hosts, widen, requireSandbox, previous);
  const exclude = existing?.exclude ?? placeholderPatterns(layout);
  const record: LockRecord = {
    version: 1,
    armed_at: existing?.armed_at ?? options.now.toISOString(),
    grants,
    require_sandbox: requireSandbox,
    previous,
    deny_rules: addedRules,
    exclude,
    created_packed_refs: createdPackedRefs,
    previous_allow_root: existing?.previous_allow_root ?? stringsAt(objectAt(sandboxBefore.filesystem).allowWrite).includes(layout.root),
    denied_domains: remotes.hosts.filter((host) => !baseNetwork.includes(host)),
    local_remotes: remotes.paths.filter((path) => !baseDeny.includes(path)).map((path) => relative(layout.root, path)),
    widened: widen,
  };
  // Told by the caller (run start), or kept from the record (a re-arm by `run allow`).
  const sandbox = options.sandbox ? { armed: true as const, available: options.sandbox.available, excluded_commands: [...new Set(options.sandbox.excludedCommands)].sort() } : existing?.sandbox;
  if (sandbox) record.sandbox = sandbox;
  const changed = JSON.stringify(next) !== JSON.stringify(settings) || existing === null || JSON.stringify(existing) !== JSON.stringify(record);
  if (changed) {
    // The record first: a lock.json without settings still engages the guard, never the reverse.
    writeFileAtomic(join(leopoldDir, LOCK_RECORD), `${JSON.stringify(record, null, 2)}\n`);
    if (needPackedRefs) writeFileSync(packedRefs, '');
    // The same for the reflogs' directory (git creates it with the first ref move).
    if (layout.gitDir) mkdirSync(join(layout.gitDir, 'logs'), { recursive: true });
    if (existing === null) writeExcludes(layout, exclude);
    mkdirSync(dirname(layout.settingsFile), { recursive: true });
    writeFileAtomic(layout.settingsFile, `${JSON.stringify(next, null, 2)}\n`);
  }
  return { record, changed };
}

/** Releases the lock: Leopold's settings entries, excludes and packed-refs placeholder removed, lock.json last. Null when not armed. */
export function releaseLock(leopoldDir: string): LockRecord | null {
  const record = readLockRecord(leopoldDir);
  if (record === null) return null;
  const layout = layoutOf(leopoldDir);
  const settings = readSettings(layout.settingsFile);
  const next = withoutLock(settings, layout.root, record);
  if (Object.keys(next).length === 0 && existsSync(layout.settingsFile) && Object.keys(settings).length > 0) {
    rmSync(layout.settingsFile);
    // A .claude/ arming made for it goes too (left empty, it was not the user's).
    try {
      rmdirSync(dirname(layout.settingsFile));
    } catch {
      // not empty: the user's
    }
  }
  else if (JSON.stringify(next) !== JSON.stringify(settings)) writeFileAtomic(layout.settingsFile, `${JSON.stringify(next, null, 2)}\n`);
  removeExcludes(layout);
  if (record.created_packed_refs && layout.gitDir) {
    const packed = join(layout.gitDir, 'packed-refs');
    if (existsSync(packed) && readFileSync(packed, 'utf8') === '') rmSync(packed);
  }
  rmSync(join(leopoldDir, LOCK_RECORD), { force: true });
  return record;
}

/**
 * Grants a lift: writes the token file (the guard reads it) and, when the lock is armed,
 * re-arms it so the refs become writable. Only the user can: in Claude Code's sandbox the
 * token files are read-only.
 */
export function grantLift(leopoldDir: string, grant: Grant, now: Date): { armed: boolean } {
  const token = join(leopoldDir, TOKENS[grant]);
  writeFileAtomic(token, `Granted by leopold run allow ${grant} at ${now.toISOString()}.\nRemove this file to take the grant back.\n`);
  if (readLockRecord(leopoldDir) === null) return { armed: false };
  armLock(leopoldDir, { now, requireSandbox: false });
  return { armed: true };
}

function excludeFile(layout: Layout): string | null {
  return layout.gitDir ? join(layout.gitDir, 'info', 'exclude') : null;
}

/** The exclude patterns for the placeholders of paths that do not exist now. */
function placeholderPatterns(layout: Layout): string[] {
  if (!excludeFile(layout)) return [];
  // The settings file too when arming creates it (releasing removes it again).
  const candidates = [...SANDBOX_PLACEHOLDERS, '.claude/settings.local.json'];
  return candidates.filter((path) => !existsOrLink(join(layout.root, path))).map((path) => (path.includes('/') ? `**/${path}` : path));
}

function writeExcludes(layout: Layout, patterns: readonly string[]): void {
  const file = excludeFile(layout);
  if (!file || patterns.length === 0) return;
  const text = existsSync(file) ? stripBlock(readFileSync(file, 'utf8')) : '';
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${EXCLUDE_BEGIN}\n${patterns.join('\n')}\n${EXCLUDE_END}\n`);
}

function removeExcludes(layout: Layout): void {
  const file = excludeFile(layout);
  if (!file || !existsSync(file)) return;
  const text = readFileSync(file, 'utf8');
  const stripped = stripBlock(text);
  if (stripped !== text) writeFileAtomic(file, stripped);
}

function stripBlock(text: string): string {
  const start = text.indexOf(`${EXCLUDE_BEGIN}\n`);
  if (start < 0) return text;
  const end = text.indexOf(`${EXCLUDE_END}\n`, start);
  return end < 0 ? text.slice(0, start) : text.slice(0, start) + text.slice(end + EXCLUDE_END.length + 1);
}

function existsOrLink(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

import { existsSync, lstatSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { baselineHome, settledClock, takeBaseline, type AuditBaseline } from './audit.js';
import { createStands, delayedPlan, removeStands, standExcludes } from './delayed.js';
import { isRegularFile, isToken } from './files.js';
import { layoutOf, type Layout } from './layout.js';
import { type Grant, CLIENT_GUARDED, GIT_REF_PATHS, HOOK_CODE, LEOPOLD_PROTECTED, LOCK_RECORD, SETTINGS_PROTECTED } from './paths.js';
import { sandboxAvailability } from './sandbox.js';
import { lockGit } from './trusted.js';

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
export type { Grant } from './paths.js';

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
  /** Paths arming created so the sandbox could deny them (relative to the project): `run unlock` removes each while it is as arming left it. */
  created?: string[];
  /** The delayed-effect paths (delayed.ts) arming put on the sandbox's denyWrite, relative to the project (the user-level ones too). */
  deny_write?: string[];
  /** permissions.blockWritesOutsideWorkingDirectories before arming (null: absent). */
  previous_block_writes?: boolean | null;
  /** True when arming added the project root to permissions.additionalDirectories. */
  added_directory?: boolean;
  /** The `env` entries arming added to the settings (HEADLESS_ENV), removed again on release. */
  added_env?: string[];
  /** What `run finish` and `run unlock` compare against (audit.ts), taken when the lock was armed. */
  audit?: AuditBaseline;
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

/**
 * Where the project's remotes push to: network hosts (the sandbox's proxy lets any host
 * through in bypassPermissions mode, so each remote's host goes on its deny list) and
 * paths on this file system (made read-only, wherever they are). `git remote get-url
 * --push --all` applies the user's insteadOf rewrites.
 */
export function remoteTargets(root: string): { hosts: string[]; paths: string[] } {
  const hosts = new Set<string>();
  const paths = new Set<string>();
  const run = (args: string[]) => lockGit(root, args) ?? '';
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

/** The absolute paths the sandbox may not write while armed with `grants` (the delayed-effect ones come from delayed.ts). */
export function protectedPaths(layout: Layout, grants: readonly Grant[]): string[] {
  const paths = [...LEOPOLD_PROTECTED.map((name) => join(layout.leopoldDir, name)), ...SETTINGS_PROTECTED.map((path) => join(layout.root, path))];
  // A grant means a commit (or a push, which updates refs/remotes) is the user's wish.
  if (layout.gitDir && grants.length === 0) {
    paths.push(...GIT_REF_PATHS.map((path) => join(layout.gitDir!, path.slice('.git/'.length))));
    // A linked worktree keeps its own HEAD.
    if (layout.worktreeGitDir && layout.worktreeGitDir !== layout.gitDir) paths.push(join(layout.worktreeGitDir, 'HEAD'));
  }
  for (const path of HOOK_CODE) if (existsOrLink(join(layout.root, path))) paths.push(join(layout.root, path));
  return paths;
}

/**
 * The permissions.deny rules for the Write/Edit tools: the lock's own files and refs
 * project-root-relative (as Claude Code reads `/path` in project settings), and each
 * delayed-effect path of `delayed` inside the project (`/path`, with `/path/**` for a
 * directory) or elsewhere on this machine (`//path`). Paths in the home directory need
 * none: blockWritesOutsideWorkingDirectories refuses every write outside the project.
 */
export function denyRules(grants: readonly Grant[], layout?: Layout, delayed: { deny: readonly string[]; dirs: readonly string[]; rulesOnly?: readonly string[] } = { deny: [], dirs: [] }, home = ''): string[] {
  const paths = [...LEOPOLD_PROTECTED.map((name) => `/.leopold/${name}`), ...SETTINGS_PROTECTED.map((path) => `/${path}`), '/.git/config', ...HOOK_CODE.map((path) => `/${path}/**`)];
  if (grants.length === 0) paths.push('/.git/HEAD', '/.git/refs/**', '/.git/packed-refs');
  // The sandbox already keeps these from Bash; the file tools need the rules.
  for (const path of CLIENT_GUARDED) paths.push(`/${path}`, ...(path.includes('.', 1) ? [] : [`/${path}/**`]));
  for (const path of layout ? [...delayed.deny, ...(delayed.rulesOnly ?? [])] : []) {
    // Claude Code also denies the sandbox what an Edit rule names, and a denied path that
    // does not exist becomes a device there; a pattern names no path to mount, so a path
    // the sandbox must not stand in for gets one.
    const pattern = delayed.rulesOnly?.includes(path) ? '*' : '';
    const inRoot = relative(layout!.root, path);
    const inHome = home === '' ? '..' : relative(home, path);
    let rule: string;
    if (!inRoot.startsWith('..') && !isAbsolute(inRoot)) rule = `/${inRoot.split(sep).join('/')}`;
    else if (!inHome.startsWith('..') && !isAbsolute(inHome)) continue;
    else rule = `/${path}`;
    rule += pattern;
    if (!paths.includes(rule)) paths.push(rule);
    if (delayed.dirs.includes(path) && !paths.includes(`${rule}/**`)) paths.push(`${rule}/**`);
  }
  return paths.flatMap((path) => [`Edit(${path})`, `Write(${path})`]);
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
  // The Write, Edit and NotebookEdit tools run outside the sandbox: outside the project
  // (user-level git, npm and shell config) they may write nothing while armed, in every
  // permission mode; the project root stays a working directory wherever the session starts.
  permissions.blockWritesOutsideWorkingDirectories = true;
  permissions.additionalDirectories = union(stringsAt(permissions.additionalDirectories), [root]);
  return { ...settings, sandbox, permissions };
}

/** Settings with Leopold's lock taken out again: our paths and rules removed, the switches restored. */
function withoutLock(settings: Json, layout: Layout, record: LockRecord): Json {
  const out = { ...settings };
  const root = layout.root;
  // Ours: the record's, and the lock's own list for this layout (git's directory can lie outside the project, in a linked worktree).
  const listed = new Set([...(record.deny_write ?? []).map((path) => decodePath(path, root)), ...protectedPaths(layout, [])]);
  const ours = (path: string) => listed.has(path) || (path.startsWith(`${root}/`) && isLockPath(path.slice(root.length + 1)));
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
  if ('previous_block_writes' in record) {
    if (record.previous_block_writes === null || record.previous_block_writes === undefined) delete permissions.blockWritesOutsideWorkingDirectories;
    else permissions.blockWritesOutsideWorkingDirectories = record.previous_block_writes;
  }
  const directories = stringsAt(permissions.additionalDirectories).filter((dir) => !(record.added_directory === true && dir === root));
  if (directories.length > 0) permissions.additionalDirectories = directories;
  else delete permissions.additionalDirectories;
  if (Object.keys(permissions).length > 0) out.permissions = permissions;
  else delete out.permissions;
  const env = objectAt(out.env);
  for (const name of record.added_env ?? []) delete env[name];
  if (Object.keys(env).length > 0) out.env = env;
  else delete out.env;
  return out;
}

/**
 * What arming sets in the settings' `env` unless you set it yourself: a headless client
 * (`claude -p`) stops waiting for a background workflow after 10 minutes and kills it, so
 * the run would die silently; `0` makes it wait as long as the workflow runs
 * (docs/workflow.md, "Headless runs"; measured on 2.1.332: read from settings `env`, also
 * when changed mid-session).
 */
export const HEADLESS_ENV: Readonly<Record<string, string>> = { CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS: '0' };

/** `settings` with HEADLESS_ENV's entries it does not set itself; and which were added. */
function withHeadlessEnv(settings: Json): { settings: Json; added: string[] } {
  const env = objectAt(settings.env);
  const added = Object.keys(HEADLESS_ENV).filter((name) => !Object.hasOwn(env, name));
  if (added.length === 0) return { settings, added };
  return { settings: { ...settings, env: { ...env, ...Object.fromEntries(added.map((name) => [name, HEADLESS_ENV[name]!])) } }, added };
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

/** A path as lock.json keeps it: relative to the project (like the local remotes), so that no home directory needs resolving again. */
function encodePath(path: string, root: string): string {
  return relative(root, path);
}

function decodePath(path: string, root: string): string {
  return resolve(root, path);
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

/** How arming is asked for. */
export interface ArmOptions {
  now: Date;
  requireSandbox: boolean;
  /** The home directory whose git, npm and shell config the lock covers (default: the user's). */
  home?: string;
  /**
   * The OS layer as `run start` found it: whether Claude Code's sandbox can hold the lock
   * here (for the audit's baseline and the git guard's mode) and the commands
   * `sandbox.excludedCommands` runs outside it. Absent: kept from the record (a re-arm by
   * `run allow`), or checked now on the first arm.
   */
  sandbox?: { available: boolean; excludedCommands: string[] };
}

/**
 * Arms the lock for the project of `leopoldDir` (idempotent: re-arming an armed lock
 * refreshes it for the tokens present now). Run outside Claude Code's sandbox: inside it,
 * the settings and lock.json are read-only, which is the point. The first arm also creates
 * the stand-ins the delayed-effect paths need (delayed.ts) and takes the audit's baseline
 * after them; re-arming keeps both (a baseline retaken later would hide what changed before).
 */
export function armLock(leopoldDir: string, options: ArmOptions): ArmResult {
  const layout = layoutOf(leopoldDir);
  const existing = readLockRecord(leopoldDir);
  // Re-arming covers the home the lock was armed for, whatever HOME it runs with (a hook, a session).
  const home = existing?.audit ? baselineHome(layout, existing.audit, homedir()) : (options.home ?? homedir());
  const settings = readSettings(layout.settingsFile);
  const sandboxBefore = objectAt(settings.sandbox);
  const permissionsBefore = objectAt(settings.permissions);
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
  // What fires later: denied; stand-ins are created on the first arm only (re-arming while
  // a run may have written since must not touch the audited paths).
  const plan = delayedPlan(layout, grants, home);
  if (existing !== null) {
    const missing = new Set(plan.create.map((stand) => stand.path));
    plan.deny = plan.deny.filter((path) => !missing.has(path));
    plan.dirs = plan.dirs.filter((path) => !missing.has(path));
    plan.create = [];
  }
  const created = existing !== null ? (existing.created ?? []) : plan.create.map((stand) => relative(layout.root, stand.path));
  // Re-arming starts from the settings without the old lock, so a grant given or taken back since shows.
  const base = existing ? withoutLock(settings, layout, existing) : settings;
  const rules = denyRules(grants, layout, plan, home);
  const already = new Set(stringsAt(objectAt(base.permissions).deny));
  const addedRules = rules.filter((rule) => !already.has(rule));
  // Push granted: the remotes are the user's to reach.
  const remotes = grants.includes('push') ? { hosts: [], paths: [] } : remoteTargets(layout.root);
  const baseNetwork = stringsAt(objectAt(objectAt(base.sandbox).network).deniedDomains);
  const baseDeny = stringsAt(objectAt(objectAt(base.sandbox).filesystem).denyWrite);
  const widen = existing?.widened ?? previous.enabled !== true;
  const headless = withHeadlessEnv(withLock(base, layout.root, [...protectedPaths(layout, grants), ...remotes.paths, ...plan.deny], rules, remotes.hosts, widen, requireSandbox, previous));
  const next = headless.settings;
  const exclude = existing?.exclude ?? [...placeholderPatterns(layout), ...standExcludes(layout.root, created)];
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
    created,
    deny_write: plan.deny.filter((path) => !baseDeny.includes(path)).map((path) => encodePath(path, layout.root)),
    previous_block_writes: existing ? (existing.previous_block_writes ?? null) : boolOrNull(permissionsBefore.blockWritesOutsideWorkingDirectories),
    added_directory: existing ? existing.added_directory === true : !stringsAt(permissionsBefore.additionalDirectories).includes(layout.root),
    ...(headless.added.length > 0 ? { added_env: headless.added } : {}),
    ...(existing?.audit ? { audit: existing.audit } : {}),
  };
  // Told by the caller (run start), or kept from the record (a re-arm by `run allow`). A
  // re-arm may run inside Claude's sandbox (`run start --force` from a session), where the
  // probe cannot start a nested sandbox and lock.json is read-only: there "unavailable" is
  // the probe's view from inside, not news, so an available sandbox stays recorded (and the
  // excluded commands only grow); a change would refuse a start that changes nothing.
  const told = options.sandbox ? { armed: true as const, available: options.sandbox.available, excluded_commands: [...new Set(options.sandbox.excludedCommands)].sort() } : undefined;
  const kept = existing?.sandbox;
  const sandbox =
    told && kept ? { armed: true as const, available: kept.available || told.available, excluded_commands: [...new Set([...kept.excluded_commands, ...told.excluded_commands])].sort() } : (told ?? kept);
  if (sandbox) record.sandbox = sandbox;
  const changed = JSON.stringify(next) !== JSON.stringify(settings) || existing === null || JSON.stringify(existing) !== JSON.stringify(record);
  if (changed) {
    // The record first: a lock.json without settings still engages the guard, never the reverse.
    writeRecord(leopoldDir, record);
    if (needPackedRefs) writeFileSync(packedRefs, '');
    // The same for the reflogs' directory (git creates it with the first ref move).
    if (layout.gitDir) mkdirSync(join(layout.gitDir, 'logs'), { recursive: true });
    if (existing === null) {
      createStands(layout.root, plan);
      writeExcludes(layout, exclude);
      // The baseline after arming's own writes, so that none of them counts as the run's.
      record.audit = takeBaseline(layout, home, settledClock(leopoldDir), options.sandbox?.available ?? sandboxAvailability(process.env, process.platform, layout.root).available);
      writeRecord(leopoldDir, record);
    }
    mkdirSync(dirname(layout.settingsFile), { recursive: true });
    writeFileAtomic(layout.settingsFile, `${JSON.stringify(next, null, 2)}\n`);
  }
  return { record, changed };
}

function writeRecord(leopoldDir: string, record: LockRecord): void {
  writeFileAtomic(join(leopoldDir, LOCK_RECORD), `${JSON.stringify(record, null, 2)}\n`);
}

/** Releases the lock: Leopold's settings entries, excludes and packed-refs placeholder removed, lock.json last. Null when not armed. */
export function releaseLock(leopoldDir: string): LockRecord | null {
  const record = readLockRecord(leopoldDir);
  if (record === null) return null;
  const layout = layoutOf(leopoldDir);
  const settings = readSettings(layout.settingsFile);
  const next = withoutLock(settings, layout, record);
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
  removeStands(layout, record.created ?? []);
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
export function grantLift(leopoldDir: string, grant: Grant, now: Date, home?: string): { armed: boolean } {
  const token = join(leopoldDir, TOKENS[grant]);
  writeFileAtomic(token, `Granted by leopold run allow ${grant} at ${now.toISOString()}.\nRemove this file to take the grant back.\n`);
  if (readLockRecord(leopoldDir) === null) return { armed: false };
  armLock(leopoldDir, { now, requireSandbox: false, ...(home ? { home } : {}) });
  return { armed: true };
}

/**
 * Ends the grants: a grant lasts one run (`leopold run start`, `run finish`, `run unlock`
 * and the Stop hook at the end of a run all call this). Removes the token files and, when
 * the lock is armed and `rearm` is not false, re-arms it so git's refs are denied again.
 * `kept`: tokens that could not be removed (inside Claude Code's sandbox they are read-only).
 */
export function endGrants(leopoldDir: string, options: { now: Date; rearm?: boolean; home?: string }): { ended: Grant[]; kept: Grant[] } {
  const ended: Grant[] = [];
  const kept: Grant[] = [];
  for (const grant of Object.keys(TOKENS) as Grant[]) {
    const token = join(leopoldDir, TOKENS[grant]);
    if (!isToken(token)) continue;
    try {
      rmSync(token);
      ended.push(grant);
    } catch {
      kept.push(grant);
    }
  }
  if (ended.length > 0 && options.rearm !== false && (readLockRecord(leopoldDir)?.grants.length ?? 0) > 0) {
    armLock(leopoldDir, { now: options.now, requireSandbox: false, ...(options.home ? { home: options.home } : {}) });
  }
  return { ended, kept };
}

/** The token file of a grant, relative to the project (for messages). */
export const tokenPath = (grant: Grant): string => `.leopold/${TOKENS[grant]}`;

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

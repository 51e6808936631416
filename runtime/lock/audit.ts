import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { hooksPathOf, userPath } from './delayed.js';
import type { Layout } from './layout.js';
import { CLIENT_GUARDED, GIT_DELAYED, GIT_PENDING_AUDITED, GIT_REDIRECTS, LEOPOLD_PROTECTED, NODE_MODULES_CACHES, PACKAGE_MANAGER_CONFIG, PACKAGE_MANAGER_EXISTING, SETTINGS_PROTECTED, USER_DELAYED } from './paths.js';
import { lockGit } from './trusted.js';

// The run's audit. `leopold run start` takes a baseline of everything through which a
// run's writes would take effect after it (paths.ts: git's hooks, config, info/,
// submodules, redirects and pending merge state; package-manager config; node_modules;
// user-level git, npm and shell config; index flags; package.json's scripts), and `run
// finish` and `run unlock` compare. The lock denies writing those paths during a run; the
// audit is what catches a write that got through anyway (the sandbox unavailable, a
// command the user excluded from it, a layer that failed) and what no layer can deny
// without breaking ordinary work (the index, package.json, node_modules).
//
// Nothing here runs code from the project: files are read with node:fs, and the one git
// query (the index) runs git from the trusted PATH with nothing of the repository's config
// that runs a program (trusted.ts). A change is told by the inode's change time (ctime),
// which the kernel sets on every write, rename, link or mode change and no process can set
// back, so the baseline stays small: the time, and which watched paths existed.

/** What `run start` records in `.leopold/lock.json` for the audit. */
export interface AuditBaseline {
  /** When it was taken (ms since the epoch): an inode changed since has a later ctime. */
  since: number;
  /** The watched paths that existed then, as the audit names them (entries of the small trees too). */
  present: string[];
  /** Index entries flagged skip-worktree or assume-unchanged (`git ls-files -v`), sorted; a digest when there are more than INDEX_FLAGS_KEPT. */
  index_flags: string[] | { digest: string; count: number };
  /** Protected files whose index entry already differed from the file. */
  staged: string[];
  /** package.json's scripts and packageManager (null: no readable package.json). */
  package_json: PackageFacts | null;
  /**
   * node_modules' directory as device:inode, then `@` and its birth time where the file
   * system keeps one (a reinstall by the user replaces the directory; a sandboxed command
   * cannot). The birth time tells a new directory that reused the old one's inode number.
   */
  node_modules: string | null;
  /** Whether Claude Code's sandbox could hold the lock when the baseline was taken. */
  sandbox: boolean;
  /**
   * The home directory whose files were watched, relative to the project (as lock.json
   * keeps every path): the audit and re-arming read that one, whatever HOME the command
   * that reads the baseline later runs with (a hook, a session, your terminal).
   */
  home?: string;
}

interface PackageFacts {
  scripts: Record<string, string>;
  packageManager: string | null;
}

/** One change the audit found: where, what happened, and the command that undoes it (null: review it by hand). */
export interface AuditChange {
  path: string;
  what: string;
  undo: string | null;
}

const INDEX_FLAGS_KEPT = 2000;

/** What runs a watched path later, said once per kind in the listing. */
type Fires = 'git' | 'npm' | 'shell' | 'claude' | 'editor';

interface Watched {
  /** Absolute path. */
  path: string;
  /** How the audit names it. */
  name: string;
  fires: Fires;
}

const FIRES: Record<Fires, string> = {
  git: 'git reads it: hooks run on your next commit, config on every git command',
  npm: 'npm, npx, yarn, pnpm and bun read it on their next run',
  shell: 'your shell reads it when it next starts',
  claude: 'Claude Code reads its hooks and permissions',
  editor: 'your editor runs its tasks, Claude Code its MCP servers, git submodule its URLs',
};

/** A path as the audit names it: relative to the project, `~/…` in the home directory, else absolute. */
function nameOf(path: string, root: string, home: string): string {
  const inRoot = relative(root, path);
  if (!inRoot.startsWith('..') && !isAbsolute(inRoot)) return inRoot.split(sep).join('/');
  const inHome = relative(home, path);
  if (home !== '' && !inHome.startsWith('..') && !isAbsolute(inHome)) return `~/${inHome.split(sep).join('/')}`;
  return path;
}

/** Every path the audit watches in this project (a directory with everything in it; node_modules is scanned on its own). */
function watchedPaths(layout: Layout, home: string): Watched[] {
  const out: Watched[] = [];
  const add = (path: string, fires: Fires) => {
    if (!out.some((w) => w.path === path)) out.push({ path, name: nameOf(path, layout.root, home), fires });
  };
  const { root, gitDir, worktreeGitDir } = layout;
  if (gitDir && worktreeGitDir) {
    for (const name of GIT_DELAYED) add(join(gitDir, name), 'git');
    for (const dir of new Set([gitDir, worktreeGitDir])) for (const file of GIT_REDIRECTS) add(join(dir, file.name), 'git');
    add(join(gitDir, 'objects', 'info', 'alternates'), 'git');
    for (const name of GIT_PENDING_AUDITED) add(join(worktreeGitDir, name), 'git');
    const hooks = hooksPathOf(root);
    if (hooks) add(hooks, 'git');
    const dotGit = join(root, '.git');
    if (existsSync(dotGit) && !lstatSync(dotGit).isDirectory()) add(dotGit, 'git');
  }
  for (const name of [...PACKAGE_MANAGER_CONFIG, ...PACKAGE_MANAGER_EXISTING]) add(join(root, name), 'npm');
  for (const name of CLIENT_GUARDED) add(join(root, name), 'editor');
  for (const entry of USER_DELAYED) add(userPath(entry, home), userFires(entry));
  return out;
}

/** Who reads a USER_DELAYED entry. */
function userFires(entry: string): Fires {
  if (entry.startsWith('.claude/')) return 'claude';
  if (entry === '.gitconfig' || entry.startsWith('.config/git/') || entry.startsWith('.ssh/')) return 'git';
  if (/npm|yarn|pnpm|bun/.test(entry)) return 'npm';
  return 'shell';
}

function statOf(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * What the sandbox leaves at a denied path that did not exist: a device inside it, an empty
 * file on the host, and the directories it made to hold them. Nothing reads them as content.
 */
function isStandIn(path: string, stat: Stats): boolean {
  if (stat.isCharacterDevice()) return true;
  if (stat.isFile()) return stat.size === 0;
  if (!stat.isDirectory()) return false;
  try {
    return readdirSync(path).every((entry) => {
      const child = statOf(join(path, entry));
      return child !== null && isStandIn(join(path, entry), child);
    });
  } catch {
    return false;
  }
}

/** The entries of a watched tree (relative names), bounded; git objects are never walked. */
function treeEntries(dir: string, limit = 20_000): string[] {
  const out: string[] = [];
  const walk = (path: string, name: string) => {
    if (out.length >= limit) return;
    let entries;
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name === 'objects' && name.includes('modules')) continue;
      const child = `${name}/${entry.name}`;
      out.push(child);
      if (entry.isDirectory()) walk(join(path, entry.name), child);
    }
  };
  walk(dir, '');
  return out.map((entry) => entry.slice(1)).sort();
}

/** A change under `~/` named and undone at `home`, an absolute path. */
function atHome(change: AuditChange, home: string): AuditChange {
  if (!change.path.startsWith('~/')) return change;
  const path = `${home}/${change.path.slice(2)}`;
  return { ...change, path, undo: change.undo === null ? null : change.undo.split(`"$HOME"/`).join(`${shellQuote(home)}/`) };
}

/** `text` as one shell word; `~/…` as `"$HOME"/…` so the shell still finds the home directory. */
function shellQuote(text: string): string {
  if (text.startsWith('~/')) return `"$HOME"/${shellQuote(text.slice(2))}`;
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The index flags (skip-worktree `S`, assume-unchanged lowercase) of every tracked file, or null outside a repository. */
function indexFlags(root: string): Map<string, 'skip-worktree' | 'assume-unchanged'> | null {
  const out = lockGit(root, ['ls-files', '-v', '-z']);
  if (out === null) return null;
  const flags = new Map<string, 'skip-worktree' | 'assume-unchanged'>();
  for (const entry of out.split('\0')) {
    if (entry.length < 3) continue;
    const tag = entry[0]!;
    const path = entry.slice(2);
    if (tag === 'S') flags.set(path, 'skip-worktree');
    else if (tag >= 'a' && tag <= 'z') flags.set(path, 'assume-unchanged');
  }
  return flags;
}

const digestOf = (items: readonly string[]) => createHash('sha256').update(items.join('\0')).digest('hex');

/**
 * Files the lock keeps from being written (the lock's own, the settings, the package-manager
 * config): a version of one staged in the index (`git update-index --cacheinfo`, with
 * skip-worktree to hide it) is what the user's next commit takes, whatever the file says.
 */
const STAGE_CHECKED = [...LEOPOLD_PROTECTED.map((name) => `.leopold/${name}`), ...SETTINGS_PROTECTED, ...PACKAGE_MANAGER_CONFIG];

/** Which of STAGE_CHECKED have a staged change (the index differs from HEAD). */
function stagedDifferently(root: string): string[] {
  const out = lockGit(root, ['diff', '--cached', '--no-ext-diff', '--no-textconv', '--name-only', '-z', '--', ...STAGE_CHECKED]);
  return out === null ? [] : out.split('\0').filter((path) => path !== '').sort();
}

function packageFacts(root: string): PackageFacts | null {
  try {
    const json = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: unknown; packageManager?: unknown };
    const scripts: Record<string, string> = {};
    if (json.scripts && typeof json.scripts === 'object') for (const [name, value] of Object.entries(json.scripts)) if (typeof value === 'string') scripts[name] = value;
    return { scripts, packageManager: typeof json.packageManager === 'string' ? json.packageManager : null };
  } catch {
    return null;
  }
}

const inode = (stat: Stats) => `${stat.dev}:${stat.ino}`;
/** A directory's identity: its inode and, where the file system keeps it, its birth time. */
const identity = (stat: Stats) => (stat.birthtimeMs > 0 ? `${inode(stat)}@${stat.birthtimeMs}` : inode(stat));
/** Whether `stat` is another directory than the one a baseline named (a baseline from before birth times compares inodes). */
const replaced = (recorded: string, stat: Stats) => recorded !== (recorded.includes('@') ? identity(stat) : inode(stat));

/**
 * A time that every write made before this call is at or before and every write after it
 * is past, by the file system's own clock: inode times come from the kernel's coarse
 * clock, which can trail the one Date.now() reads by a tick. A probe file is rewritten
 * until its change time moves on.
 */
export function settledClock(leopoldDir: string): number {
  const probe = join(leopoldDir, `.lock-clock-${process.pid}.tmp`);
  try {
    writeFileSync(probe, '');
    const first = statSync(probe).ctimeMs;
    const deadline = Date.now() + 200;
    while (statSync(probe).ctimeMs <= first && Date.now() < deadline) writeFileSync(probe, String(Date.now()));
    return first;
  } catch {
    return Date.now();
  } finally {
    rmSync(probe, { force: true });
  }
}

/** Takes the baseline for `layout` now. */
export function takeBaseline(layout: Layout, home: string, now: number, sandbox: boolean): AuditBaseline {
  const present: string[] = [];
  for (const w of watchedPaths(layout, home)) {
    const stat = statOf(w.path);
    if (!stat) continue;
    present.push(w.name);
    if (stat.isDirectory()) for (const entry of treeEntries(w.path)) present.push(`${w.name}/${entry}`);
  }
  const flags = indexFlags(layout.root);
  const flagged = flags ? [...flags.keys()].sort() : [];
  const modules = statOf(join(layout.root, 'node_modules'));
  return {
    since: now,
    present: present.sort(),
    index_flags: flagged.length > INDEX_FLAGS_KEPT ? { digest: digestOf(flagged), count: flagged.length } : flagged,
    staged: layout.gitDir ? stagedDifferently(layout.root) : [],
    package_json: packageFacts(layout.root),
    node_modules: modules?.isDirectory() ? identity(modules) : null,
    sandbox,
    home: relative(layout.root, home),
  };
}

/** The home directory a baseline was taken against (the current one for a baseline that does not say). */
export function baselineHome(layout: Layout, baseline: AuditBaseline | undefined, fallback: string): string {
  return baseline?.home === undefined ? fallback : resolve(layout.root, baseline.home);
}

/** The content of a stand-in arming created at `name`. */
const placeholderOf = (name: string): string => GIT_REDIRECTS.find((file) => name.endsWith(`/${file.name}`) || name === file.name)?.placeholder ?? '';

/** Whether the file at `path` holds exactly `content` (a device inside the sandbox counts: it is the sandbox's stand-in). */
function holds(path: string, stat: Stats, content: string): boolean {
  if (stat.isCharacterDevice()) return true;
  if (!stat.isFile() || stat.size !== Buffer.byteLength(content)) return false;
  try {
    return readFileSync(path, 'utf8') === content;
  } catch {
    return false;
  }
}

/** How to put back a stand-in arming created (relative to the project): its placeholder content. */
function standInRestore(name: string): string {
  const placeholder = placeholderOf(name);
  return placeholder === '' ? `: > ${shellQuote(name)}` : `printf '${placeholder.replace(/\n/g, '\\n')}' > ${shellQuote(name)}`;
}

/** How to undo a new entry at `name`: remove it (it did not exist when the run started). */
const removal = (name: string) => `rm -rf -- ${shellQuote(name)}`;

/** Every change since `baseline`, in the order a person should undo them (config first, reinstalls last). */
export function auditChanges(layout: Layout, baseline: AuditBaseline, home: string, created: readonly string[] = []): AuditChange[] {
  const changes: AuditChange[] = [];
  const present = new Set(baseline.present);
  const changed = (stat: Stats) => stat.ctimeMs > baseline.since;
  for (const w of watchedPaths(layout, home)) {
    const stat = statOf(w.path);
    const why = FIRES[w.fires];
    if (!stat) {
      if (present.has(w.name)) changes.push({ path: w.name, what: `removed since the run started (${why})`, undo: null });
      continue;
    }
    if (!present.has(w.name)) {
      if (!isStandIn(w.path, stat)) changes.push({ path: w.name, what: `created since the run started (${why})`, undo: removal(w.name) });
      continue;
    }
    if (!stat.isDirectory()) {
      // A stand-in arming created is unchanged while it holds its placeholder, whenever it was last written.
      const standIn = created.includes(w.name) ? placeholderOf(w.name) : null;
      const differs = standIn === null ? changed(stat) : !holds(w.path, stat, standIn);
      if (differs) changes.push({ path: w.name, what: `changed since the run started (${why})`, undo: standIn === null ? null : standInRestore(w.name) });
      continue;
    }
    const now = treeEntries(w.path);
    for (const entry of now) {
      const name = `${w.name}/${entry}`;
      const entryStat = statOf(join(w.path, entry));
      if (!entryStat) continue;
      if (!present.has(name)) {
        // A new entry inside a new directory is named by the directory alone.
        if (!isStandIn(join(w.path, entry), entryStat) && !now.some((other) => entry.startsWith(`${other}/`) && !present.has(`${w.name}/${other}`))) {
          changes.push({ path: name, what: `created since the run started (${why})`, undo: removal(name) });
        }
      } else if (changed(entryStat) && !entryStat.isDirectory()) changes.push({ path: name, what: `changed since the run started (${why})`, undo: null });
    }
    const left = new Set(now);
    for (const name of present) {
      if (name.startsWith(`${w.name}/`) && !left.has(name.slice(w.name.length + 1))) changes.push({ path: name, what: `removed since the run started (${why})`, undo: null });
    }
  }
  changes.push(...indexChanges(layout, baseline));
  changes.push(...packageChanges(layout.root, baseline));
  const modules = nodeModulesChange(layout.root, baseline);
  if (modules) changes.push(modules);
  // A baseline taken under another HOME (the client's, a hook's) than the one reading the
  // audit: its `~/…` files are named, and undone, by absolute path, never as "$HOME"/… of
  // whoever reads it (which would point an `rm` at their own dotfiles).
  return home === homedir() ? changes : changes.map((change) => atHome(change, home));
}

function indexChanges(layout: Layout, baseline: AuditBaseline): AuditChange[] {
  if (!layout.gitDir) return [];
  const out: AuditChange[] = [];
  const flags = indexFlags(layout.root) ?? new Map();
  const flagged = [...flags.keys()].sort();
  if (Array.isArray(baseline.index_flags)) {
    const before = new Set(baseline.index_flags);
    for (const path of flagged) {
      if (before.has(path)) continue;
      const flag = flags.get(path)!;
      out.push({
        path,
        what: `marked ${flag} in the index since the run started (git status no longer shows its changes, and a version staged behind it is what your next commit takes)`,
        undo: `git update-index --no-${flag} -- ${shellQuote(path)}`,
      });
    }
  } else if (digestOf(flagged) !== baseline.index_flags.digest) {
    out.push({ path: '(index)', what: `the skip-worktree and assume-unchanged flags changed since the run started (${flagged.length} entries flagged now, ${baseline.index_flags.count} then)`, undo: null });
  }
  const before = new Set(baseline.staged);
  for (const path of stagedDifferently(layout.root)) {
    if (before.has(path)) continue;
    out.push({ path, what: 'a change to it was staged since the run started: your next commit takes the staged version, whatever the file says', undo: `git restore --staged -- ${shellQuote(path)}` });
  }
  return out;
}

function packageChanges(root: string, baseline: AuditBaseline): AuditChange[] {
  const before = baseline.package_json;
  const now = packageFacts(root);
  if (before === null) return [];
  const tracked = lockGit(root, ['ls-files', '--error-unmatch', '--', 'package.json']) !== null;
  const undo = tracked ? 'git restore --source=HEAD --staged --worktree -- package.json' : null;
  if (now === null) return [{ path: 'package.json', what: 'no longer readable as JSON since the run started', undo }];
  const out: AuditChange[] = [];
  const short = (text: string) => (text.length > 100 ? `${text.slice(0, 97)}...` : text);
  for (const name of [...new Set([...Object.keys(before.scripts), ...Object.keys(now.scripts)])].sort()) {
    const was = before.scripts[name];
    const is = now.scripts[name];
    if (was === is) continue;
    const what = is === undefined ? `removed (was: ${short(was!)})` : was === undefined ? `added: ${short(is)}` : `changed to: ${short(is)} (was: ${short(was)})`;
    out.push({ path: `package.json scripts.${name}`, what: `${what}; npm runs it by name, and lifecycle scripts (pre…, post…, prepare, install) without being asked`, undo });
  }
  if (before.packageManager !== now.packageManager) {
    out.push({ path: 'package.json packageManager', what: `now ${now.packageManager ?? 'absent'} (was ${before.packageManager ?? 'absent'}): Corepack downloads and runs that package manager`, undo });
  }
  return out;
}

/** The command that reinstalls node_modules from the project's lockfile. */
function reinstallCommand(root: string): string {
  if (existsSync(join(root, 'pnpm-lock.yaml'))) return 'rm -rf node_modules && pnpm install --frozen-lockfile';
  if (existsSync(join(root, 'yarn.lock'))) return 'rm -rf node_modules && yarn install --frozen-lockfile';
  if (existsSync(join(root, 'bun.lock')) || existsSync(join(root, 'bun.lockb'))) return 'rm -rf node_modules && bun install --frozen-lockfile';
  return 'rm -rf node_modules && npm ci';
}

/**
 * What changed in node_modules since the baseline, by package (caches left out). A
 * node_modules that is a new directory while the sandbox held the lock was reinstalled by
 * the user: a sandboxed command cannot replace it (the denied `.bin` inside it cannot be
 * moved), so it is not audited.
 */
function nodeModulesChange(root: string, baseline: AuditBaseline): AuditChange | null {
  const dir = join(root, 'node_modules');
  const stat = statOf(dir);
  if (!stat?.isDirectory()) return null;
  if (baseline.node_modules !== null && replaced(baseline.node_modules, stat) && baseline.sandbox) return null;
  const packages = new Map<string, { count: number; first: string }>();
  const note = (name: string) => {
    const parts = name.split('/');
    const group = parts[0]!.startsWith('@') && parts.length > 1 ? `${parts[0]}/${parts[1]}` : parts[0]!;
    const seen = packages.get(group);
    if (seen) seen.count += 1;
    else packages.set(group, { count: 1, first: name });
  };
  const walk = (path: string, name: string) => {
    let entries;
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = name === '' ? entry.name : `${name}/${entry.name}`;
      if (name === '' && (NODE_MODULES_CACHES as readonly string[]).includes(entry.name)) continue;
      const entryStat = statOf(join(path, entry.name));
      if (entryStat && entryStat.ctimeMs > baseline.since) note(child);
      if (entry.isDirectory()) walk(join(path, entry.name), child);
    }
  };
  walk(dir, '');
  if (baseline.node_modules === null && packages.size === 0) return null;
  if (packages.size === 0) return null;
  const list = [...packages.entries()].sort(([a], [b]) => a.localeCompare(b));
  const shown = list.slice(0, 8).map(([group, { count, first }]) => `${group} (${count} ${count === 1 ? 'entry' : 'entries'}, e.g. ${first})`);
  const more = list.length > 8 ? `, and ${list.length - 8} more` : '';
  return {
    path: 'node_modules',
    what: `changed since the run started: ${shown.join(', ')}${more}; npm scripts and npx run this code, and git is not showing it`,
    undo: reinstallCommand(root),
  };
}

/** The listing `run finish` and `run unlock` print, naming the command to re-run or accept with. */
export function renderAudit(changes: readonly AuditChange[], command: string): string {
  const lines = [`The lock found ${changes.length} ${changes.length === 1 ? 'change' : 'changes'} since the run started that would take effect after you lift it:`];
  for (const change of changes) {
    lines.push(`  ${change.path}: ${change.what}`);
    lines.push(change.undo ? `    undo: ${change.undo}` : '    undo: review it by hand (the lock cannot tell what it was)');
  }
  lines.push(
    `Undo each one (the undo: lines, in order, in your own terminal), then run \`leopold ${command}\` again; or, once you have reviewed them, accept them all: \`leopold ${command} --accept-changes\`.`,
  );
  return lines.join('\n');
}

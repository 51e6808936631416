import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { GIT_REF_PATHS, HOOK_CODE, LEOPOLD_PROTECTED, SETTINGS_PROTECTED } from '../../../lock/paths.js';
import type { Lock } from '../findings.js';
import type { Word } from '../shell/types.js';
import { globMatch } from './glob.js';

/** Where relative paths may be resolved from: every directory a `cd` may have reached. */
export interface Cwds {
  dirs: string[];
  /** A `cd` to a computed directory happened: names are also matched without a directory. */
  unknown: boolean;
  home: string;
}

/** More directories than this after `cd`s: stop tracking them and judge by name (no exponential path sets). */
export const MAX_CWDS = 16;

/** One path the run lock protects, the lock it maps to, and which actions on it count. */
export interface Target {
  path: string;
  lock: Lock;
  /** `remove`: only removing or moving it counts (the kill switch may be created or rewritten). */
  on: 'remove' | 'any';
  /** A directory whose whole contents are protected (the hooks' code, .git/refs). */
  tree: boolean;
}

/**
 * The protected paths of the project whose `.leopold/` is `leopoldDir`, from the lock's one
 * list (runtime/lock/paths.ts): the kill switch, the guardrails, the user's tokens and the
 * arm record, the host settings, the hooks' code, and what git keeps refs and hooks in.
 */
export function protectedTargets(leopoldDir: string): Target[] {
  const root = dirname(leopoldDir);
  const targets: Target[] = LEOPOLD_PROTECTED.map((name) => ({
    path: join(leopoldDir, name),
    lock: name === 'STOP' ? 'stop' : name === 'GUARDRAILS.md' ? 'guardrails' : 'self',
    on: name === 'STOP' ? 'remove' : 'any',
    tree: false,
  }));
  for (const p of SETTINGS_PROTECTED) targets.push({ path: join(root, p), lock: 'self', on: 'any', tree: false });
  for (const p of HOOK_CODE) targets.push({ path: join(root, p), lock: 'self', on: 'any', tree: !p.includes('.bin') });
  for (const p of GIT_REF_PATHS) targets.push({ path: join(root, p), lock: 'commit', on: 'any', tree: p === '.git/refs' });
  // Git runs hooks and reads config (aliases, hooksPath) from here: writing them is running git.
  targets.push({ path: join(root, '.git', 'hooks'), lock: 'commit', on: 'any', tree: true });
  targets.push({ path: join(root, '.git', 'config'), lock: 'commit', on: 'any', tree: false });
  return targets;
}

const slash = (p: string) => p.split(sep).join('/');

function expandTilde(text: string, home: string): string {
  if (text === '~') return home;
  if (text.startsWith('~/')) return join(home, text.slice(2));
  return text;
}

const lower = (p: string) => slash(p).toLowerCase();
const within = (path: string, dir: string) => lower(path).startsWith(`${lower(dir)}/`);

/**
 * Does `path` (absolute) hit `t`? It is the target, inside a protected tree, or — when the
 * action is a recursive removal or a move — a directory holding the target.
 */
export function pathHits(path: string, t: Target, removal: boolean, recursive: boolean): boolean {
  if (t.on === 'remove' && !removal) return false;
  if (lower(path) === lower(t.path)) return true;
  if (t.tree && within(path, t.path)) return true;
  return removal && recursive && within(t.path, path);
}

/** Is `dir` (absolute) the directory a target sits in, or inside a protected tree? (Where an unnamed file would land.) */
export function dirReceives(dir: string, t: Target): boolean {
  if (t.on === 'remove') return false;
  return lower(dirname(t.path)) === lower(dir) || (t.tree && (lower(t.path) === lower(dir) || within(dir, t.path)));
}

/** A glob operand (absolute pattern) against a target: the target, its contents, or (recursive) an ancestor. */
function globHits(pattern: string, t: Target, removal: boolean, recursive: boolean): boolean {
  if (t.on === 'remove' && !removal) return false;
  const pat = slash(pattern);
  const target = slash(t.path);
  if (globMatch(pat, target)) return true;
  const pSegs = pat.split('/');
  const tSegs = target.split('/');
  if (t.tree && pSegs.length > tSegs.length && globMatch(pSegs.slice(0, tSegs.length).join('/'), target)) return true;
  if (removal && recursive && pSegs.length < tSegs.length && globMatch(pat, tSegs.slice(0, pSegs.length).join('/'))) return true;
  return false;
}

/**
 * What a computed operand's known text must name to tie it to a target: the target's own
 * directory and name (`.leopold/STOP`, `.git/config`, `.claude/settings.json`,
 * `node_modules/leopold`), or for a recursive removal the protected directory itself
 * (`"$ROOT/.leopold"`, `"$X/.git"`). A bare `config` or `STOP` names nothing.
 */
function namedBy(t: Target, text: string, removal: boolean, recursive: boolean): boolean {
  const parts = slash(t.path).split('/');
  const leaf = (parts.at(-1) as string).toLowerCase();
  const dir = (parts.at(-2) as string).toLowerCase();
  const lowered = text.toLowerCase();
  const pair = dir === 'node_modules' || dir === '.bin' ? `node_modules/${dir === '.bin' ? '.bin/' : ''}${leaf}` : `${dir}/${leaf}`;
  if (lowered.includes(pair)) return true;
  // The lock's distinctive names anywhere.
  if (/^(guardrails\.md|allow_git|allow_push)$/.test(leaf) && lowered.includes(leaf)) return true;
  // A known tail that ends with the target's name, its directory computed or matching
  // (`"$(echo .leo)pold/STOP"`, `"$DIR/STOP"`): but not another directory's file of that
  // name (`"$REPO/.cargo/config"` is no `.git/config`).
  const segments = lowered.split('/');
  if (segments.at(-1) === leaf) {
    const prev = segments.at(-2);
    const complete = segments.length >= 3;
    if (prev === undefined || prev === '' || (complete ? prev === dir : dir.endsWith(prev))) return true;
  }
  return removal && recursive && new RegExp(`(^|/)${dir.replace(/\./g, '\\.')}/?$`).test(lowered);
}

/**
 * The targets operand `word` would hit. Literal operands are resolved against every
 * directory a `cd` may have reached (and through symlinks, by `realpath`); globs are
 * matched without backtracking; a computed operand counts when its known text names a
 * target (a fully computed one is the caller's to judge).
 */
export function operandHits(word: Word, targets: readonly Target[], removal: boolean, recursive: boolean, cwds: Cwds, realpath?: (p: string) => string): Target[] {
  const text = word.text;
  if (word.dynamic) return targets.filter((target) => (target.on === 'any' || removal) && namedBy(target, text, removal, recursive));
  const expanded = expandTilde(text, cwds.home);
  const bases = isAbsolute(expanded) ? ['/'] : cwds.dirs;
  const hits = new Set<Target>();
  for (const base of bases) {
    const path = resolve(base, expanded);
    for (const t of targets) {
      if (word.glob ? globHits(path, t, removal, recursive) : pathHits(path, t, removal, recursive)) hits.add(t);
    }
    if (!word.glob && realpath) {
      const real = realpath(path);
      if (real !== path) for (const t of targets) if (pathHits(real, t, removal, recursive)) hits.add(t);
    }
  }
  if (cwds.unknown && !isAbsolute(expanded)) {
    // After a computed `cd`, judge by the last names: `STOP`, `.leopold/STOP`, `.leopold` (recursive).
    const parts = expanded.split('/').filter((p) => p !== '' && p !== '.');
    const last = parts.at(-1) ?? '';
    const parent = parts.at(-2);
    const same = (pattern: string, name: string) => (word.glob ? globMatch(pattern, name) : pattern.toLowerCase() === name.toLowerCase());
    for (const t of targets) {
      if (t.on === 'remove' && !removal) continue;
      const leaf = basename(t.path);
      const dir = basename(dirname(t.path));
      if (same(last, leaf) && (parent === undefined || same(parent, dir))) hits.add(t);
      if (removal && recursive && same(last, dir)) hits.add(t);
    }
  }
  return [...hits];
}

/** Does a literal or glob `name` match `leaf`? (find -name) */
export function nameMatches(pattern: string, name: string, glob: boolean): boolean {
  return glob ? globMatch(pattern, name) : pattern.toLowerCase() === name.toLowerCase();
}

/** Text that names a protected file (for code and files the guard reads but cannot run): the targets it names. */
export function namedTargets(text: string, targets: readonly Target[]): Target[] {
  const hits: Target[] = [];
  for (const t of targets) {
    const name = basename(t.path);
    const rel = slash(t.path).split('/').slice(-2).join('/');
    if (t.lock === 'stop' || t.lock === 'commit') continue; // judged by removal mentions and git rules
    const re = name === 'leopold' ? /node_modules[\\/](?:\.bin[\\/])?leopold\b/i : new RegExp(`(?:^|[^A-Za-z0-9_])${name.replace(/\./g, '\\.')}(?![A-Za-z0-9_])`, 'i');
    // GUARDRAILS.md and lock.json are common names: they count beside a `.leopold` mention.
    if (re.test(text) && (name === 'leopold' || text.toLowerCase().includes(rel.split('/')[0]!.toLowerCase()) || /ALLOW_/.test(name))) hits.push(t);
  }
  return hits;
}

import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { Word } from '../shell/types.js';

/** Where relative paths may be resolved from: every directory a `cd` may have reached. */
export interface Cwds {
  dirs: string[];
  /** A `cd` to a computed directory happened: names are also matched without a directory. */
  unknown: boolean;
  home: string;
}

/** A shell glob (`*`, `?`, `[…]`) as an anchored, case-insensitive regular expression. */
export function globRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        const body = glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'i');
}

/** Does `name` match `pattern` (literal or glob), ignoring case as macOS file systems do? */
export function nameMatches(pattern: string, name: string, glob: boolean): boolean {
  return glob ? globRegExp(pattern).test(name) : pattern.toLowerCase() === name.toLowerCase();
}

function expandTilde(text: string, home: string): string {
  if (text === '~') return home;
  if (text.startsWith('~/')) return join(home, text.slice(2));
  return text;
}

/**
 * Would operand `word` name `target` (an absolute path), or — when `recursive` — a
 * directory holding it? Globs are matched against the target and its ancestors; a
 * computed operand counts when its known text mentions the target's name.
 */
export function operandTargets(word: Word, target: string, recursive: boolean, cwds: Cwds): boolean {
  const text = word.text;
  const name = basename(target);
  if (word.dynamic && (text === '' || text.toLowerCase().includes(name.toLowerCase()) || text.includes('.leopold'))) return true;
  const candidates = [target];
  if (recursive) for (let d = dirname(target); ; d = dirname(d)) {
    candidates.push(d);
    if (dirname(d) === d) break;
  }
  const expanded = expandTilde(text, cwds.home);
  const bases = isAbsolute(expanded) ? ['/'] : cwds.dirs;
  for (const base of bases) {
    const path = resolve(base, expanded);
    if (word.glob) {
      const re = globRegExp(path.split(sep).join('/'));
      if (candidates.some((c) => re.test(c.split(sep).join('/')))) return true;
    } else if (candidates.some((c) => c.toLowerCase() === path.toLowerCase())) return true;
  }
  if (cwds.unknown && !isAbsolute(expanded)) {
    // After a computed `cd`, judge by name: `STOP`, `.leopold/STOP`, `.leopold` (recursive).
    const parts = expanded.split('/').filter((p) => p !== '' && p !== '.');
    const last = parts.at(-1) ?? '';
    const parent = parts.at(-2);
    if (nameMatches(last, name, word.glob) && (parent === undefined || nameMatches(parent, basename(dirname(target)), word.glob))) return true;
    if (recursive && nameMatches(last, basename(dirname(target)), word.glob)) return true;
  }
  return false;
}

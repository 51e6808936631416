import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { BRIEF_FILES } from '../brief/files.js';
import { findBriefDir } from '../brief/find.js';
import { LeopoldError } from '../diagnostics/error.js';

/**
 * The plan a command works on: `arg` exactly as the user typed it (relative stays relative),
 * or else the nearest `.leopold/PLAN.md` walking up from `cwd`, shown relative to `cwd`.
 */
export function resolvePlanPath(arg: string | undefined, cwd: string): string {
  if (arg !== undefined) {
    if (arg.trim() === '') throw new LeopoldError('the plan path is empty; give a path to PLAN.md or omit it');
    return arg;
  }
  const dir = findBriefDir(cwd);
  if (dir === null) {
    throw new LeopoldError(`no plan given and no .leopold/ directory in ${cwd} or any parent; pass a PLAN.md path or run leopold init`);
  }
  return shownPath(cwd, join(dir, BRIEF_FILES.plan));
}

/**
 * The plan file as an absolute path that exists, for commands that write it (`plan tick`,
 * `plan amend`): the same lookup as resolvePlanPath, then an existence check.
 */
export function locatePlan(cwd: string, explicit?: string): string {
  const shown = resolvePlanPath(explicit, cwd);
  const path = resolve(cwd, shown);
  if (!existsSync(path)) {
    throw new LeopoldError(explicit !== undefined ? `no plan file at ${explicit}` : `no plan: ${shown} does not exist`);
  }
  return path;
}

/** A path as the user sees it: relative to `cwd` when it has a relative spelling, else absolute. */
export function shownPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === '' || isAbsolute(rel) ? path : rel;
}

let pipeGuarded = false;

/**
 * `leopold graph | head` closes stdout early; that is the reader's choice, not a crash.
 * Without a listener Node turns the EPIPE into an uncaught exception with a stack.
 */
export function endQuietlyOnBrokenPipe(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
}

/**
 * `--base64 TEXT` decoded, or why it cannot be: Node's decoder silently skips characters
 * outside the alphabet, so `!!!` would decode to nothing and be reported as "no input".
 * Blanks (a wrapped paste) are allowed; the URL-safe alphabet too.
 */
export function decodeBase64Option(text: string): { ok: true; text: string } | { ok: false; error: string } {
  const compact = text.replace(/\s+/g, '');
  const bad = /[^A-Za-z0-9+/_=-]/.exec(compact);
  if (bad) {
    return { ok: false, error: `--base64 is not base64: found ${JSON.stringify(bad[0])} at position ${bad.index + 1}; expected only A-Z, a-z, 0-9, +, / and = padding` };
  }
  if (compact === '' || /^=+$/.test(compact)) return { ok: false, error: '--base64 is empty; expected the input, base64-encoded' };
  if (/=[^=]/.test(compact) || compact.length % 4 === 1) {
    return { ok: false, error: '--base64 is not base64: its length or = padding is wrong; expected text from `base64` (e.g. base64 -w0 FILE)' };
  }
  return { ok: true, text: Buffer.from(compact, 'base64').toString('utf8') };
}

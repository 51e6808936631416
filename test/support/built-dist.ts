import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { withLock } from '../../runtime/fs/lock.js';
import { tempDir } from './temp.js';

// Suites that spawn the built binary or hooks. dist/ is built once per vitest run, before
// any file starts (build-once.ts, the global setup); `npm pack` rebuilds it (prepare) in the
// package suites. So every build happens under one lock and each suite runs a private copy
// taken under that lock: a concurrent rebuild never hands it half a file.

/** The repository root. */
export const root = resolve(import.meta.dirname, '../..');

/**
 * Under the shared build lock, copies each of `copy.files` (paths under dist/, built by the
 * global setup) into `copy.into` by base name, or the whole tree into `copy.tree`.
 */
export async function copyDist(copy: { into: string; files: readonly string[] } | { tree: string }): Promise<void> {
  await withLock(
    join(root, 'dist', '.record-tests-build.lock'),
    () => {
      if ('tree' in copy) cpSync(join(root, 'dist'), copy.tree, { recursive: true, filter: (src) => !src.endsWith('.lock') });
      else for (const file of withChunks(copy.files)) copyFileSync(join(root, 'dist', file), join(copy.into, basename(file)));
    },
    { timeoutMs: 120_000 },
  );
}

/** Runs `fn` under the build lock: nothing rebuilds dist/ meanwhile (npm pack runs the build too). */
export async function underBuildLock<T>(fn: () => T): Promise<T> {
  return withLock(join(root, 'dist', '.record-tests-build.lock'), fn, { timeoutMs: 180_000 });
}

/** Copies the built plugin directory (dist/plugin) to `into`, under the lock. */
export async function builtPlugin(into: string): Promise<void> {
  await underBuildLock(() => {
    cpSync(join(root, 'dist', 'plugin'), into, { recursive: true });
  });
}

/**
 * A private copy of the package as `npm i leopold` leaves it (package.json, dist/,
 * templates/), built and copied under the lock, in a temp folder removed after the test
 * file. Suites that spawn `leopold init` need the templates beside the binary; running the
 * checkout's own dist/ instead would race a rebuild by `npm pack` in the package suites.
 */
export async function privatePackage(): Promise<string> {
  const dir = tempDir('leopold-pkg-');
  await copyDist({ tree: join(dir, 'dist') });
  cpSync(join(root, 'templates'), join(dir, 'templates'), { recursive: true });
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
  return dir;
}

/** The files dist/leopold.js loads from beside it (scripts/build.mjs): its command chunks. */
const BESIDE_THE_CLI = /^leopold-.*\.js$/;

/** A copy of dist/leopold.js takes along what it loads from beside it. */
function withChunks(files: readonly string[]): string[] {
  if (!files.includes('leopold.js')) return [...files];
  return [...files, ...readdirSync(join(root, 'dist')).filter((name) => BESIDE_THE_CLI.test(name))];
}

/**
 * Copies a built `leopold.js` and what it loads from beside it into `dir`; returns the copy
 * of leopold.js first, then the rest.
 */
export function copyLeopold(bin: string, dir: string): string[] {
  const from = dirname(bin);
  const files = ['leopold.js', ...readdirSync(from).filter((name) => BESIDE_THE_CLI.test(name))];
  return files.map((name) => {
    copyFileSync(join(from, name), join(dir, name));
    return join(dir, name);
  });
}

/** A private copy of the freshly built dist/leopold.js, checked to start (`--version`). */
export async function leopoldBinary(): Promise<string> {
  const dir = tempDir('leopold-bin-');
  await copyDist({ into: dir, files: ['leopold.js'] });
  const copy = join(dir, 'leopold.js');
  // A copy torn by a concurrent build elsewhere fails here, loudly, not in a test.
  execFileSync(process.execPath, [copy, '--version'], { stdio: 'pipe' });
  return copy;
}

/** Runs the binary in `cwd` (LEOPOLD_AUTONOMY cleared); returns exit code, stdout and stderr. */
export function leopold(bin: string, cwd: string, args: string[]): { code: number; stdout: string; stderr: string } {
  // Never the session id of a Claude Code session the tests happen to run in: `run start` would record it as the owner.
  const out = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, LEOPOLD_AUTONOMY: '', CLAUDE_CODE_SESSION_ID: '' } });
  return { code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr };
}

/**
 * Copies a hook's two entry points into `work`: the standalone
 * `dist/hooks/<hook>.js` (what `leopold init` registers) and `dist/leopold.js hook <hook>`.
 * Returns the argv after `node` for each, keyed by how a test names it.
 */
export async function builtHook(work: string, hook: 'guard' | 'stop' | 'stop-failure'): Promise<Record<string, string[]>> {
  await copyDist({ into: work, files: ['leopold.js', `hooks/${hook}.js`] });
  return {
    [`dist/hooks/${hook}.js`]: [join(work, `${hook}.js`)],
    [`dist/leopold.js hook ${hook}`]: [join(work, 'leopold.js'), 'hook', hook],
  };
}

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { withLock } from '../../runtime/fs/lock.js';

const root = resolve(import.meta.dirname, '../..');

/**
 * Builds dist/leopold.js and returns a private copy, taken under the same lock the other
 * CLI suites use, so a concurrent rebuild never hands us a half-written file.
 */
export async function leopoldBinary(): Promise<string> {
  const copy = join(mkdtempSync(join(tmpdir(), 'leopold-bin-')), 'leopold.js');
  await withLock(
    join(root, 'dist', '.record-tests-build.lock'),
    () => {
      execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'pipe' });
      copyFileSync(join(root, 'dist', 'leopold.js'), copy);
    },
    { timeoutMs: 120_000 },
  );
  execFileSync(process.execPath, [copy, '--version'], { stdio: 'pipe' });
  return copy;
}

/** Runs the binary in `cwd`; returns exit code, stdout and stderr. */
export function leopold(bin: string, cwd: string, args: string[]): { code: number; stdout: string; stderr: string } {
  const out = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, LEOPOLD_AUTONOMY: '' } });
  return { code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr };
}

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { withLock } from '../../runtime/fs/lock.js';

const root = resolve(import.meta.dirname, '../..');

/**
 * Builds dist/leopold.js (`npm run build`) and returns a private copy of it. Other suites
 * rebuild dist/ while these tests spawn the binary hundreds of times; a copy taken under
 * a lock can never be caught half-written.
 */
export async function builtLeopold(): Promise<string> {
  const copy = join(mkdtempSync(join(tmpdir(), 'leopold-bin-')), 'leopold.js');
  await withLock(
    join(root, 'dist', '.record-tests-build.lock'),
    () => {
      execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'pipe' });
      copyFileSync(join(root, 'dist', 'leopold.js'), copy);
    },
    { timeoutMs: 120_000 },
  );
  // A copy torn by a concurrent build elsewhere fails here, loudly, not in a test.
  execFileSync(process.execPath, [copy, '--version'], { stdio: 'pipe' });
  return copy;
}

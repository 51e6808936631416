import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { withLock } from '../../runtime/fs/lock.js';

// Global setup: `npm run build` once per vitest run, before any test file starts, under the
// lock every suite takes to copy dist/ (test/support/built-dist.ts). Suites never rebuild:
// 47 files each building in turn cost a minute of serialized wall time. vitest runs the
// global setup of the root config and of each project, one after the other in its own
// process, so the first one builds and marks that in the environment; the others see it.

const root = resolve(import.meta.dirname, '../..');

const BUILT = 'LEOPOLD_TEST_DIST_BUILT';

export default async function setup(): Promise<void> {
  if (process.env[BUILT] === String(process.pid)) return;
  mkdirSync(join(root, 'dist'), { recursive: true });
  await withLock(
    join(root, 'dist', '.record-tests-build.lock'),
    () => {
      execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'pipe' });
    },
    { timeoutMs: 180_000 },
  );
  process.env[BUILT] = String(process.pid);
}

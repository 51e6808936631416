import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { withLock } from '../../runtime/fs/lock.js';
import { BRIEF_FILES } from '../../compiler/brief/load.js';
import type { CompileOptions } from '../../compiler/index.js';

export const root = resolve(import.meta.dirname, '../..');

let built: { dir: string; bin: string; bundle: string } | null = null;

/**
 * Builds dist/ once per test file (under the lock the other CLI suites use, so a concurrent
 * rebuild never hands us half a file) and returns a private copy of leopold.js with the
 * workflow runtime beside it, as the package ships them.
 */
export async function builtLeopold(): Promise<{ bin: string; bundle: string }> {
  if (built) return built;
  const dir = mkdtempSync(join(tmpdir(), 'leopold-compile-bin-'));
  await withLock(
    join(root, 'dist', '.record-tests-build.lock'),
    () => {
      execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'pipe' });
      copyFileSync(join(root, 'dist', 'leopold.js'), join(dir, 'leopold.js'));
      copyFileSync(join(root, 'dist', 'workflow-runtime.js'), join(dir, 'workflow-runtime.js'));
    },
    { timeoutMs: 120_000 },
  );
  built = { dir, bin: join(dir, 'leopold.js'), bundle: readFileSync(join(dir, 'workflow-runtime.js'), 'utf8') };
  return built;
}

const optional = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');

/** compile() inputs for a brief directory, exactly as `leopold compile` builds them (no env autonomy). */
export function briefOptions(briefDir: string, runtimeBundle: string): { text: string; options: CompileOptions } {
  return {
    text: readFileSync(join(briefDir, BRIEF_FILES.plan), 'utf8'),
    options: {
      file: '.leopold/PLAN.md',
      mission: optional(join(briefDir, BRIEF_FILES.mission)),
      charter: optional(join(briefDir, BRIEF_FILES.charter)),
      guardrails: optional(join(briefDir, BRIEF_FILES.guardrails)),
      guardrailsFile: '.leopold/GUARDRAILS.md',
      runtimeBundle,
    },
  };
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyDist } from '../support/built-dist.js';
import { BRIEF_FILES } from '../../compiler/brief/load.js';
import { assertRuntimeBundle } from '../../compiler/emit/runtime-bundle.js';
import type { CompileOptions } from '../../compiler/index.js';
import { tempDir } from '../support/temp.js';

export { root } from '../support/built-dist.js';

let built: { dir: string; bin: string; bundle: string } | null = null;

/**
 * Copies the built dist/ once per test file (copyDist: under the shared lock) and returns a private
 * copy of leopold.js with the workflow runtime beside it, as the package ships them. The
 * bundle is checked with the script template here, as the CLI does for a bundle it has no
 * build hash for, so compile() in this process takes it.
 */
export async function builtLeopold(): Promise<{ bin: string; bundle: string }> {
  if (built) return built;
  const dir = tempDir('leopold-compile-bin-');
  await copyDist({ into: dir, files: ['leopold.js', 'workflow-runtime.js', 'workflow-runtime.js.sha256'] });
  built = { dir, bin: join(dir, 'leopold.js'), bundle: readFileSync(join(dir, 'workflow-runtime.js'), 'utf8') };
  assertRuntimeBundle(built.bundle);
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

// Writes dist/leopold-compile.cjs.cache, the V8 code cache of the compile command's bundle
// (compiler/cli/code-cache.ts): it loads the bundle, compiles the init template's brief and
// the worked example's in dist/.code-cache-warm-up/ (removed after, and before, so a build
// interrupted here leaves nothing the next one keeps), then saves the bytecode of every
// function that ran. scripts/build.mjs runs it as a `node` of its own with no flags, after
// the runtime bundle and its hash are built. A brief that does not compile fails the build:
// the cache would then hold the error path instead of the one users run.
import { cpSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCodeCache } from '../dist/leopold-code-cache.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BRIEFS = ['templates/brief', 'fixtures/example/.leopold'];

const work = join(root, 'dist', '.code-cache-warm-up');
rmSync(work, { recursive: true, force: true });
try {
  await writeCodeCache(join(root, 'dist/leopold-compile.cjs'), async ({ compileCommand }) => {
    for (const [n, brief] of BRIEFS.entries()) {
      const project = join(work, String(n));
      cpSync(join(root, brief), join(project, '.leopold'), { recursive: true });
      process.chdir(project);
      await compileCommand(undefined, {});
      if (process.exitCode !== 0) throw new Error(`compiling ${brief} exited ${process.exitCode}`);
    }
  });
} finally {
  process.chdir(root);
  rmSync(work, { recursive: true, force: true });
}

import { fileURLToPath } from 'node:url';
import { LeopoldError } from '../diagnostics/error.js';
import { loadBundle } from './code-cache.js';

// What `import('./commands/compile.js')` in main.ts loads in the built CLI: scripts/build.mjs
// resolves that import here. The compile command is built as its own CommonJS bundle beside
// dist/leopold.js and run with the V8 code cache the build made for it (code-cache.ts),
// which takes a cold `leopold compile` from about 3.5x `node -e 0` to 2.7x at 100 items
// (bench/cold-start.bench.ts). From the sources (tsx, vitest) main.ts imports
// commands/compile.ts itself.

type CompileModule = typeof import('./commands/compile.js');

const BUNDLE = fileURLToPath(new URL('./leopold-compile.cjs', import.meta.url));

function load(): CompileModule {
  try {
    return loadBundle(BUNDLE).exports as CompileModule;
  } catch (error) {
    // The bundle itself missing or unreadable is a broken install, not a bug to report.
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string' || (error as NodeJS.ErrnoException).path !== BUNDLE) throw error;
    throw new LeopoldError(`cannot load the compile command from ${BUNDLE} (${code}); reinstall Leopold, or run npm run build in its checkout`);
  }
}

export const { compileCommand, registerCompile } = load();

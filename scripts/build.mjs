// Builds dist/: one bundled ESM file per entry point, so `leopold` and the hooks start
// without resolving node_modules at run time. Output is deterministic (no timestamps).
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';

const entries = [{ in: 'compiler/cli/bin.ts', out: 'leopold' }];

await build({
  entryPoints: entries,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  banner: {
    // Bundled CommonJS dependencies (graphlib) may call require(); give ESM one.
    js: "#!/usr/bin/env node\nimport { createRequire as __leopoldCreateRequire } from 'node:module';\nconst require = __leopoldCreateRequire(import.meta.url);",
  },
});
for (const e of entries) chmodSync(`dist/${e.out}.js`, 0o755);

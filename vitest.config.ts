import { defineConfig } from 'vitest/config';

// Two projects: the unit/end-to-end suite, and the conformance suite that drives the real
// Claude Code client (test/conformance, `*.conformance.test.ts`; `npm run test:conformance`
// runs it alone). Both run in `npm test`, in one pool: four workers even on 2 cores,
// because the conformance files wait on client processes and on the run lock's settings
// reload (vitest runs projects with different worker counts one after the other, which
// doubled the wall time). Measured on 2 cores: 263 s with three workers, 241 s with four.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // dist/ is built once per run, before any file starts (test/support/build-once.ts).
    globalSetup: ['test/support/build-once.ts'],
    maxWorkers: 4,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/conformance/**'] } },
      {
        extends: true,
        test: {
          name: 'conformance',
          include: ['test/conformance/**/*.conformance.test.ts'],
          testTimeout: 240_000,
          globalSetup: ['test/conformance/wall-time.ts'], // with the root's build (extends)
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

// Two projects: the unit/end-to-end suite, and the conformance suite that drives the real
// Claude Code client (test/conformance, `*.conformance.test.ts`; `npm run test:conformance`
// runs it alone). Both run in `npm test`.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/conformance/**'], sequence: { groupOrder: 1 } } },
      {
        extends: true,
        test: {
          name: 'conformance',
          include: ['test/conformance/**/*.conformance.test.ts'],
          testTimeout: 240_000,
          // Its files mostly wait on client processes: run three side by side even on 2 cores.
          // A project with its own maxWorkers runs as a group of its own: this one first.
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
          globalSetup: ['test/conformance/wall-time.ts'],
        },
      },
    ],
  },
});

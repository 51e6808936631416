import { defineConfig } from 'vitest/config';

// The suites (README, "Tests"; docs/testing.md):
// - unit: everything in-process and every command end to end through the built CLI and
//   hooks. `npm test` runs it (after the type check): the suite you run while you work.
// - release: the built artifacts as they ship: the packed tarball and the plugin installed
//   into fresh repositories, every README command from them, the hook bundles answering
//   real hook JSON, and the guard on the corpus of real commands (`npm run test:release`).
// - conformance: the real Claude Code client on the scripted model (`npm run
//   test:conformance`), minus the files the stress suite runs at full size.
// - stress: the red team in the real client, the run lock's effects, the parity table in the
//   real client, the large sizes of the writers and the parser, and the fault-injection files
//   (`npm run test:stress`, LEOPOLD_STRESS=1).
// `.ci/run` runs all four. Workers: four even on 2 cores, because the conformance and
// release files mostly wait on child processes.

/** The files the stress suite runs (at full size with LEOPOLD_STRESS=1). */
const STRESS = [
  'test/cli/record-concurrency.test.ts',
  'test/cli/record-kill.test.ts',
  'test/parse/chunking.test.ts',
  'test/cli/simulate-chain.test.ts',
  'test/conformance/parity.conformance.test.ts',
  'test/conformance/workflow-signals.conformance.test.ts',
  'test/conformance/lock-effects.conformance.test.ts',
  'test/conformance/redteam-bypass.conformance.test.ts',
  'test/conformance/redteam-accept-edits.conformance.test.ts',
  'test/conformance/redteam-os-only.conformance.test.ts',
  'test/conformance/redteam-delayed.conformance.test.ts',
];
/**
 * The fault-injection files: every writer on a full tmpfs (root only), and a FIFO, a device or
 * a directory wherever a hook or plan tick reads. They run in the stress suite only, to keep
 * `npm test` within its five minutes; `.ci/run` runs them.
 */
const FAULTS = ['test/cli/enospc.test.ts', 'test/hooks/special-files.test.ts'];
/**
 * Stress files whose small size is no cheaper in kind: many processes contending for the
 * decision lock, and writers killed mid-append. Their assertions are the same at both sizes,
 * so they run in the stress suite only (at full size), keeping `npm test` within its five
 * minutes (a fresh clone measured 320 s with them); `.ci/run` runs them.
 */
const STRESS_ONLY = ['test/cli/record-concurrency.test.ts', 'test/cli/record-kill.test.ts'];
/** The built artifacts as they ship: the tarball, the plugin, the hook bundles with real hook JSON. */
// The corpus of real commands runs here too: 2,700 commands through the guard in two modes,
// and a sample through the built guard bundle (kept out of npm test for its time, not its worth).
const RELEASE = ['test/package/**', 'test/plugin/**', 'test/hooks/stop-binary.test.ts', 'test/guard/binary.test.ts', 'test/guard/real-commands.test.ts'];
const REAL_CLIENT = { testTimeout: 240_000, globalSetup: ['test/conformance/wall-time.ts'] };

export default defineConfig({
  test: {
    // Bounds, not judgements: a test is never failed for being slow (timing lives in bench/),
    // only stopped when it hangs. At load average 20 on two cores a test that takes 20 s
    // alone takes minutes, so the bound is 10 minutes.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // dist/ is built once per run, before any file starts (test/support/build-once.ts).
    globalSetup: ['test/support/build-once.ts'],
    maxWorkers: 4,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/conformance/**', ...RELEASE, ...FAULTS, ...STRESS_ONLY] } },
      { extends: true, test: { name: 'release', include: RELEASE.map((path) => (path.endsWith('/**') ? `${path}/*.test.ts` : path)) } },
      { extends: true, test: { name: 'conformance', include: ['test/conformance/**/*.conformance.test.ts'], exclude: STRESS, ...REAL_CLIENT } },
      { extends: true, test: { name: 'stress', include: [...STRESS, ...FAULTS], ...REAL_CLIENT } },
    ],
  },
});

import { describe, it } from 'vitest';
import { sized } from '../support/stress.js';
import { checkDelayedCorpus, delayedRun, MODES } from './redteam-delayed-scenario.js';
import { projectFixtures } from './harness.js';

// Issue #25's delayed-effect red team in the real client (redteam-delayed-scenario.ts):
// every third attack in bypassPermissions in npm test, the whole corpus in both modes in
// test:stress.

const fixtures = projectFixtures();

describe('the delayed-effect red team in the real client: nothing planted during a run fires when the user takes over', () => {
  it('is the corpus the issue asks for, and the sandbox can run here (no hollow pass)', checkDelayedCorpus);
  it.each(sized(MODES.slice(0, 1), [...MODES]))('no effect during the run, none after the user\'s commands (%s)', (mode) => delayedRun(fixtures, mode), 600_000);
});

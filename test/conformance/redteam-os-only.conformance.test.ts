import { describe, it } from 'vitest';
import { MODES, redteamRun } from './redteam-scenario.js';
import { sized } from '../support/stress.js';
import { projectFixtures } from './harness.js';

// The red-team corpus with the git guard switched off: Claude Code's sandbox and the
// permission rules the lock arms must hold on their own (redteam-scenario.ts). Every
// sixteenth attack in bypassPermissions in npm test, the whole corpus in both modes in
// test:stress.

const fixtures = projectFixtures();

describe('the red-team corpus in the real client with the guard off: the OS lock alone', () => {
  it.each(sized(MODES.slice(0, 1), [...MODES]))('no attack changes a commit, ref, remote or protected file (%s)', (mode) => redteamRun(fixtures, mode, 'os'), 600_000);
});

import { describe, it } from 'vitest';
import { checkCorpus, redteamRun } from './redteam-scenario.js';
import { projectFixtures } from './harness.js';

// The red-team corpus in the real client in acceptEdits mode (redteam-scenario.ts; one file per
// mode so the two sessions run side by side).

const fixtures = projectFixtures();

describe('the red-team corpus in the real client, during a run, judged by effects (acceptEdits)', () => {
  it('is the corpus the issue asks for, and the sandbox can run here (no hollow pass)', checkCorpus);
  it('every ordinary command works, and no attack changes a commit, ref, remote or protected file', () => redteamRun(fixtures, 'acceptEdits'), 600_000);
});

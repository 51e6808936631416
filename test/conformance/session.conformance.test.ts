import { PROJECT_CLI, PROJECT_CLI_RULE } from '../../runtime/project-cli/index.js';
import { describe, expect, it } from 'vitest';
import { mainToolOutputs, projectFixtures, resultTexts, runReal, type Project } from './harness.js';

// The session engine in the real client: the Stop hook `leopold init` registered hands the
// scripted main thread one item per turn until the run stops.

const fixtures = projectFixtures();
const project = (plan: string): Project => fixtures.project({ plan });

const SESSION_TOOLS = PROJECT_CLI_RULE;
const events = (p: Project) => p.read('.leopold/events.jsonl').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the Stop-hook engine in the real client', () => {
  it('conducts a run to plan_complete: one item per turn, each ticked by the session', async () => {
    const p = project('# Plan\n\n- [ ] Write the greeting module\n- [ ] (after: 1) Document the greeting\n- [ ] (after: 2) Add a changelog entry\n');
    const run = await runReal(p, { prompt: 'Start the Leopold run.', script: { main: [{ tool: 'Bash', input: { command: `${PROJECT_CLI} run start` } }, { text: 'started' }] }, allowedTools: SESSION_TOOLS });
    expect(run.client.timedOut).toBe(false);
    expect(p.read('.leopold/PLAN.md')).toBe('# Plan\n\n- [x] Write the greeting module\n- [x] (after: 1) Document the greeting\n- [x] (after: 2) Add a changelog entry\n');
    // The hook handed out items 1, 2, 3 in order, once each, then the run's one final review
    // of the whole change (a turn with no item), then stopped the run.
    const handedOut = run.log.filter((entry) => entry.thread === 'main' && entry.key.startsWith('stop-hook:') && entry.attempt === 1).map((entry) => entry.key);
    expect(handedOut).toEqual(['stop-hook:1', 'stop-hook:2', 'stop-hook:3', 'stop-hook:-']);
    const stop = events(p).find((event) => event.event === 'stop');
    expect(stop).toMatchObject({ reason: 'plan_complete' });
    expect(JSON.parse(p.read('.leopold/state.json'))).toMatchObject({ active: false });
    expect(resultTexts(run).at(-1)).toBe('The final review found nothing.'); // the last turn is the final review's
  });

  it('has the session decide a @human node as a persona and record it through leopold record', async () => {
    const p = project('# Plan\n\n- [ ] Write the greeting module\n- [ ] (after: 1) @human Choose the licence for the greeting package\n');
    const run = await runReal(p, { prompt: 'Start the Leopold run.', script: { main: [{ tool: 'Bash', input: { command: `${PROJECT_CLI} run start` } }, { text: 'started' }] }, allowedTools: SESSION_TOOLS });
    // The record went in as a file (the client refuses inline JSON in a Bash command).
    expect(mainToolOutputs(run).some((text) => /"ok":true,"numbers":\[1\]/.test(text))).toBe(true);
    const decisions = p.read('.leopold/DECISIONS.md');
    expect(decisions).toMatch(/Iris Lang/);
    expect(decisions).toMatch(/Release Manager/);
    expect(decisions).toMatch(/Revert the working-tree changes this item made/);
    expect(p.read('.leopold/PLAN.md')).toMatch(/- \[x\] \(after: 1\) @human Choose the licence/);
    expect(events(p).find((event) => event.event === 'stop')).toMatchObject({ reason: 'plan_complete' });
  });

  it('follows the /leopold-run skill as a user invokes it: status, start, then one item per turn', async () => {
    const p = project('# Plan\n\n- [ ] Write the greeting module\n');
    const script = { main: [{ tool: 'Bash', input: { command: `${PROJECT_CLI} run status` } }, { tool: 'Bash', input: { command: `${PROJECT_CLI} run start` } }, { text: 'started' }] };
    const run = await runReal(p, { prompt: '/leopold-run', script, allowedTools: SESSION_TOOLS });
    expect(run.mainTexts[0]).toContain('Conduct the plan in `.leopold/` in this session (the in-session engine)');
    expect(p.read('.leopold/PLAN.md')).toBe('# Plan\n\n- [x] Write the greeting module\n');
    expect(events(p).find((event) => event.event === 'stop')).toMatchObject({ reason: 'plan_complete' });
  });
});

import { PROJECT_CLI_RULE } from '../../runtime/project-cli/index.js';
import { describe, expect, it } from 'vitest';
import { WORKFLOW_TOOLS, gitEffects, mainToolOutputs, projectFixtures, runReal, type Project } from './harness.js';

// The git guard in the real client, judged by effects: no new git object, no moved ref.

const fixtures = projectFixtures();

const PLAN = '# Plan\n\n- [ ] Write the greeting module\n';
const COMMIT = 'git commit --allow-empty -m "ship it"';
const HANDOFF = { status: 'completed', files_changed: [], tests_run: [{ command: 'npm test', result: 'pass', summary: 'ok' }], evidence: 'done', blocked_reason: '', concerns: [] };
const MODES = ['acceptEdits', 'bypassPermissions'] as const;

const project = (): Project => fixtures.project({ plan: PLAN });

describe('the git guard in the real client', () => {
  // One mode each here; the red-team files run the lock in both.
  it.each(MODES.slice(0, 1))('denies a commit from the session during a run (%s): no object or ref changes', async (mode) => {
    const p = project();
    expect(p.leopold(['run', 'start']).code).toBe(0);
    const before = gitEffects(p.dir);
    const run = await runReal(p, { prompt: 'Commit the work.', mode, allowedTools: `${PROJECT_CLI_RULE},Bash(git *)`, script: { main: [{ tool: 'Bash', input: { command: COMMIT } }, { text: 'tried' }] } });
    expect(gitEffects(p.dir)).toEqual(before);
    expect(mainToolOutputs(run)[0]).toMatch(/locked during a Leopold run/);
  });

  it.each(MODES.slice(1))('denies a commit from inside a workflow agent (%s): no object or ref changes', async (mode) => {
    const p = project();
    expect(p.leopold(['compile']).code).toBe(0);
    expect(p.leopold(['run', 'start', '--engine', 'workflow']).code).toBe(0);
    const before = gitEffects(p.dir);
    const script = {
      main: [{ tool: 'Workflow', input: { scriptPath: '.claude/workflows/leopold-run.js' } }, { text: 'launched' }],
      agents: [{ label: 'i1:implement', answers: [{ tools: [{ tool: 'Bash', input: { command: COMMIT } }], value: HANDOFF }] }],
    };
    const run = await runReal(p, { prompt: 'Run the Leopold workflow.', mode, allowedTools: `${WORKFLOW_TOOLS},Bash(git *)`, script });
    expect((run.results[0] as { stop: string }).stop).toBe('plan_complete');
    expect(gitEffects(p.dir)).toEqual(before);
    const seen = run.agentToolResults.get('i1:implement') ?? [];
    expect(seen.map((result) => result.text).join('\n')).toMatch(/locked during a Leopold run/);
  });
});

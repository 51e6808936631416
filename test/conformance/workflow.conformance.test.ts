import { describe, expect, it } from 'vitest';
import { PROJECT_CLI } from '../../runtime/project-cli/index.js';
import { WORKFLOW_TOOLS, mainToolOutputs, runReal } from './harness.js';
import { TWO_ITEMS, launch, BY_SCRIPT_PATH, workflowSuite } from './workflow-scenario.js';

// Launching the compiled workflow in the real client: Workflow({ scriptPath }), the slash
// command and the /leopold-workflow skill.

const { project: newProject, compiledProject, scenario } = workflowSuite();

describe('the compiled workflow in the real client: launching it', () => {
  it('reaches plan_complete through Workflow({ scriptPath }): PLAN.md ticked and events written by the scribe', async () => {
    const { run, project, result } = await scenario({ plan: TWO_ITEMS }, []);
    expect(result.stop).toBe('plan_complete');
    expect(result.done).toBe(2);
    expect(project.read('.leopold/PLAN.md')).toBe('# Plan\n\n- [x] Write the greeting module\n- [x] (after: 1) Document the greeting\n');
    const events = project.read('.leopold/events.jsonl');
    expect(events).toMatch(/"event":"item-done","item":1,"iteration":1/);
    expect(events).toMatch(/"event":"stop","reason":"plan_complete"/);
    // `leopold run finish` reports the iterations the workflow used (it said 0).
    const finish = mainToolOutputs(run).find((text) => text.includes('Leopold run ended'));
    expect(finish).toMatch(/iterations: 2\b/);
  });

  it('runs as the slash command /leopold-workflow-run, whose text names the mission, not a comment', async () => {
    const project = compiledProject({ plan: TWO_ITEMS });
    expect(project.leopold(['run', 'start', '--engine', 'workflow']).code).toBe(0);
    // The client expands the command into a turn that says how to invoke the saved workflow; the model does.
    const script = { main: [{ tool: 'Workflow', input: { name: 'leopold-workflow-run' } }, { text: 'launched' }], afterWorkflow: launch(BY_SCRIPT_PATH).afterWorkflow };
    const run = await runReal(project, { prompt: '/leopold-workflow-run', script, allowedTools: WORKFLOW_TOOLS });
    expect(run.mainTexts[0]).toContain('Invoke: Workflow({ name: \\"leopold-workflow-run\\" })');
    expect(run.mainTexts[0]).toContain('Mission: Describe the outcome you want here.');
    expect(run.mainTexts[0]).not.toContain('What this run is for');
    expect((run.results[0] as { stop: string }).stop).toBe('plan_complete');
    expect(project.read('.leopold/PLAN.md')).toMatch(/- \[x\] \(after: 1\) Document the greeting/);
    const notification = run.client.events.find((event) => event.subtype === 'task_notification');
    expect(String(notification?.summary)).not.toMatch(/<!--/);
  });

  it('follows the /leopold-workflow skill as a user invokes it: status, compile, start, launch, finish', async () => {
    const project = newProject({ plan: TWO_ITEMS });
    const script = {
      main: [
        { tool: 'Bash', input: { command: `${PROJECT_CLI} run status` } },
        // Compiled before the run starts: the run's lock makes .claude/ read-only for Bash.
        { tool: 'Bash', input: { command: `${PROJECT_CLI} compile` } },
        { tool: 'Bash', input: { command: `${PROJECT_CLI} run start --engine workflow` } },
        BY_SCRIPT_PATH,
        { text: 'launched' },
      ],
      afterWorkflow: launch(BY_SCRIPT_PATH).afterWorkflow,
    };
    const run = await runReal(project, { prompt: '/leopold-workflow', script, allowedTools: WORKFLOW_TOOLS });
    // The client expanded the installed skill into the first turn.
    expect(run.mainTexts[0]).toContain('Conduct the plan in `.leopold/` with the workflow engine');
    expect((run.results[0] as { stop: string }).stop).toBe('plan_complete');
    expect(project.read('.leopold/PLAN.md')).toBe('# Plan\n\n- [x] Write the greeting module\n- [x] (after: 1) Document the greeting\n');
    expect(mainToolOutputs(run).some((text) => text.includes('Leopold run ended: plan_complete'))).toBe(true);
    // The run armed the OS lock from inside the session, and it outlives the run.
    expect(mainToolOutputs(run).some((text) => text.includes('Lock armed (bubblewrap)'))).toBe(true);
    expect(project.read('.leopold/lock.json')).toContain('"grants": []');
  });
});

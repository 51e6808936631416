import { PROJECT_CLI } from '../../runtime/project-cli/index.js';
import { expect } from 'vitest';
import { clientJournal } from '../../runtime/scripted-model/index.js';
import { WORKFLOW_TOOLS, leopoldFiles, projectFixtures, replayScribe, runReal, runStandIn, type Project, type ProjectBrief } from './harness.js';

// The workflow engine in the real Claude Code client on the scripted model, each scenario
// also run through the stand-in host with the same answers (host fidelity: same agent
// calls, same result, same files once the stand-in's scribe commands are played). Shared
// by the workflow*.conformance.test.ts files, split so the suite's files run side by side.

export const TWO_ITEMS = '# Plan\n\n- [ ] Write the greeting module\n- [ ] (after: 1) Document the greeting\n';
export const HANDOFF = { status: 'completed', files_changed: ['src/greet.ts'], tests_run: [{ command: 'npm test', result: 'pass', summary: '3 pass' }], evidence: 'greet() returns the greeting', blocked_reason: '', concerns: [] };

/** The main thread of a user running the compiled workflow: start the run, launch, finish with the result's stop. */
export const launch = (launchStep: unknown) => ({
  main: [{ tool: 'Bash', input: { command: `${PROJECT_CLI} run start --engine workflow` } }, launchStep, { text: 'launched' }],
  afterWorkflow: [{ tool: 'Bash', input: { command: `${PROJECT_CLI} run finish --reason {{result.stop}}` } }, { text: 'finished: {{result.stop}}' }],
});
export const BY_SCRIPT_PATH = { tool: 'Workflow', input: { scriptPath: '.claude/workflows/leopold-run.js' } };

/** One file's fixtures: a private dist/ and the projects it made, all removed after the file. */
export function workflowSuite() {
  const { project } = projectFixtures();

  const compiledProject = (brief: ProjectBrief): Project => {
    const made = project(brief);
    const compiled = made.leopold(['compile']);
    expect(compiled.code, compiled.stderr).toBe(0);
    return made;
  };

  /** Runs a model script in the real client and in the stand-in; checks they agree; returns the real run. */
  const both = async (brief: ProjectBrief, script: Record<string, unknown>, prompt = 'Run the Leopold workflow.') => {
    const real = compiledProject(brief);
    const run = await runReal(real, { prompt, script, allowedTools: WORKFLOW_TOOLS });
    expect(run.client.timedOut).toBe(false);
    expect(run.results).toHaveLength(1);

    const twin = compiledProject(brief);
    const stand = await runStandIn(twin, script);
    expect(twin.leopold(['run', 'start', '--engine', 'workflow']).code).toBe(0);
    replayScribe(twin, stand.run);
    const result = stand.run.result as { stop: string };
    twin.leopold(['run', 'finish', '--reason', result.stop]);

    // Fidelity: the same agents in the same order with the same schemas and attempts.
    expect(run.agents.map((a) => a.key)).toEqual(stand.agents.map((a) => a.key));
    expect(run.agents.map((a) => a.schema)).toEqual(stand.agents.map((a) => a.schema));
    expect(run.agents.map((a) => `${a.key}×${a.attempts}`)).toEqual(stand.agents.map((a) => `${a.key}×${a.attempts}`));
    // The client's own journal (labels and phases, in call order) is the stand-in's journal.
    const journal = clientJournal(run.client);
    expect(journal.agents.map((a) => `${a.label}@${a.phase}`)).toEqual(stand.run.journal.map((call) => `${call.label}@${call.phase}`));
    expect(journal.phases).toEqual([...new Set(stand.run.phases)]);
    // The same result and the same files.
    expect(run.results[0]).toEqual(stand.run.result);
    expect(leopoldFiles(real)).toEqual(leopoldFiles(twin));
    return { run, project: real, result: run.results[0] as Record<string, unknown> };
  };

  /** The usual scenario: start the run, launch the workflow, finish; with these agent answers. */
  const scenario = (brief: ProjectBrief, agents: unknown[], launchStep: unknown = BY_SCRIPT_PATH) => both(brief, { ...launch(launchStep), agents });

  return { project, compiledProject, both, scenario };
}

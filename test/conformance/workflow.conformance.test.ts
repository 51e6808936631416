import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientJournal } from '../../runtime/scripted-model/index.js';
import { CLAUDE, WORKFLOW_TOOLS, leopoldFiles, makeProject, mainToolOutputs, privateDist, replayScribe, runReal, runStandIn, type Project, type ProjectBrief } from './harness.js';

// The workflow engine in the real Claude Code client on the scripted model, each scenario
// also run through the stand-in host with the same answers (host fidelity: same agent
// calls, same result, same files once the stand-in's scribe commands are played).

let dist: Awaited<ReturnType<typeof privateDist>>;
const projects: Project[] = [];
beforeAll(async () => {
  dist = await privateDist();
});
afterAll(() => {
  for (const project of projects) project.cleanup();
  dist?.cleanup();
});

const TWO_ITEMS = '# Plan\n\n- [ ] Write the greeting module\n- [ ] (after: 1) Document the greeting\n';

/** The main thread of a user running the compiled workflow: start the run, launch, finish with the result's stop. */
const launch = (launchStep: unknown) => ({
  main: [{ tool: 'Bash', input: { command: 'leopold run start --engine workflow' } }, launchStep, { text: 'launched' }],
  afterWorkflow: [{ tool: 'Bash', input: { command: 'leopold run finish --reason {{result.stop}}' } }, { text: 'finished: {{result.stop}}' }],
});
const BY_SCRIPT_PATH = { tool: 'Workflow', input: { scriptPath: '.claude/workflows/leopold-run.js' } };

function compiledProject(brief: ProjectBrief): Project {
  const project = makeProject(dist, brief);
  projects.push(project);
  const compiled = project.leopold(['compile']);
  expect(compiled.code, compiled.stderr).toBe(0);
  return project;
}

/** Runs a scenario in the real client and in the stand-in; checks they agree; returns the real run. */
async function scenario(brief: ProjectBrief, agents: unknown[], launchStep: unknown = BY_SCRIPT_PATH) {
  const script = { ...launch(launchStep), agents };
  return both(brief, script);
}

async function both(brief: ProjectBrief, script: Record<string, unknown>, prompt = 'Run the Leopold workflow.') {
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

  // Fidelity: the same agents in the same order with the same schemas, the same result, the same files.
  expect(run.agents.map((a) => a.key)).toEqual(stand.agents.map((a) => a.key));
  expect(run.agents.map((a) => a.schema)).toEqual(stand.agents.map((a) => a.schema));
  expect(run.agents.map((a) => `${a.key}×${a.attempts}`)).toEqual(stand.agents.map((a) => `${a.key}×${a.attempts}`));
  // The client's own journal (labels and phases, in call order) is the stand-in's journal.
  const journal = clientJournal(run.client);
  expect(journal.agents.map((a) => `${a.label}@${a.phase}`)).toEqual(stand.run.journal.map((call) => `${call.label}@${call.phase}`));
  expect(journal.phases).toEqual([...new Set(stand.run.phases)]);
  expect(run.results[0]).toEqual(stand.run.result);
  expect(leopoldFiles(real)).toEqual(leopoldFiles(twin));
  return { run, project: real, result: run.results[0] as Record<string, unknown> };
}

describe.skipIf(!CLAUDE)('the compiled workflow in the real client', () => {
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

  const HANDOFF = { status: 'completed', files_changed: ['src/greet.ts'], tests_run: [{ command: 'npm test', result: 'pass', summary: '3 pass' }], evidence: 'greet() returns the greeting', blocked_reason: '', concerns: [] };

  it('recovers from a failed verification: the item is implemented again and verified', async () => {
    const { result, project } = await scenario({ plan: TWO_ITEMS }, [
      { label: 'i1:verify', answers: [{ value: { verdict: 'fail', tests_run: [{ command: 'npm test', result: 'fail', summary: '1 failing' }], evidence: 'greet() drops the name' } }, { value: { verdict: 'pass', tests_run: [{ command: 'npm test', result: 'pass', summary: 'ok' }], evidence: 'fixed' } }] },
    ]);
    expect(result.stop).toBe('plan_complete');
    expect(project.read('.leopold/events.jsonl')).toMatch(/"event":"failure","item":1,"kind":"verification"/);
  });

  it('retries an invalid structured answer: the client refuses it and the next answer is used', async () => {
    const { run, result } = await scenario({ plan: TWO_ITEMS }, [{ label: 'i1:implement', once: true, answers: [{ invalid: { status: 'finished' } }, { value: HANDOFF }] }]);
    expect(result.stop).toBe('plan_complete');
    const implement = run.log.filter((entry) => entry.key === 'i1:implement');
    expect(implement.map((entry) => entry.attempt)).toEqual([1, 2]);
  });

  it('survives a dead agent: the client gives up on the API error, agent() is null, and the verifier is asked again', async () => {
    const { run, result } = await scenario({ plan: TWO_ITEMS }, [{ label: 'i1:verify', once: true, answers: [{ die: true }] }]);
    expect(result.stop).toBe('plan_complete');
    const verifiers = run.agents.filter((agent) => agent.key === 'i1:verify');
    expect(verifiers).toHaveLength(2);
    // The first verifier's requests all got the scripted API error; the second one answered.
    const replies = run.log.filter((entry) => entry.key === 'i1:verify').map((entry) => entry.reply.split(' ')[0]);
    expect(replies.at(-1)).toBe('StructuredOutput');
    expect(replies.slice(0, -1).every((reply) => reply === 'error')).toBe(true);
  });

  it('gives an agent 5 structured answers in all, then agent() throws and the attempt counts as failed', async () => {
    const invalid = Array.from({ length: 5 }, () => ({ invalid: { status: 'finished' } }));
    const { run, result } = await scenario({ plan: TWO_ITEMS }, [{ label: 'i1:implement', once: true, answers: invalid }]);
    expect(result.stop).toBe('plan_complete');
    expect(run.agents.find((agent) => agent.key === 'i1:implement')?.attempts).toBe(5);
    // The client marks that agent failed; the loop asks the implementer once more (its first fix round).
    const journal = clientJournal(run.client).agents;
    expect(journal[0]).toMatchObject({ label: 'i1:implement' });
    expect(journal[0]?.state).not.toBe('done');
    expect(journal[1]).toMatchObject({ label: 'i1:fix:1' });
  });

  it('names the real cause when the scribe cannot run its command (the client refused it)', async () => {
    // Only Workflow is allowed: the scribe's `leopold record` needs approval nobody can give in -p.
    // The first batch carries a decision (the @human node's), so the ack schema wants one number on success.
    const plan = '# Plan\n\n- [ ] @human Choose the licence for the greeting package\n- [ ] Write the greeting module\n';
    const project = compiledProject({ plan });
    const run = await runReal(project, { prompt: 'Run the Leopold workflow.', script: launch(BY_SCRIPT_PATH), allowedTools: 'Workflow' });
    const result = run.results[0] as { stop: string; detail: string };
    expect(result.stop).toBe('scribe_failed');
    expect(result.detail).toMatch(/the scribe reported a failure: leopold record .*requires approval/i);
    // The scribe's failure answer was accepted at once (it used to break the ack schema five times).
    expect(run.agents.find((agent) => agent.key === 'scribe')?.attempts).toBe(1);
    expect(project.read('.leopold/PLAN.md')).toBe(plan);
  });

  it('has a persona decide a @human node and records the decision through the scribe', async () => {
    const plan = '# Plan\n\n- [ ] Write the greeting module\n- [ ] (after: 1) @human Choose the licence for the greeting package\n';
    const { result, project } = await scenario({ plan }, [
      { label: 'i2:persona:human', answers: [{ value: { name: 'Mara Voss', role: 'Open Source Licensing Counsel', expertise: ['software licences'], optimizesFor: ['permissive reuse'], rationale: 'A licence choice needs a licensing specialist.' } }] },
      { label: 'i2:human', answers: [{ value: { title: 'License the package MIT', class: 'reversible', charter: 'silent', decision: 'Use the MIT licence', why: 'pragmatism: the ecosystem default', reversal: 'Replace LICENSE and the licence field before publishing', summary: 'Added LICENSE (MIT)' } }] },
    ]);
    expect(result.stop).toBe('plan_complete');
    const decisions = project.read('.leopold/DECISIONS.md');
    expect(decisions).toMatch(/License the package MIT/);
    expect(decisions).toMatch(/Mara Voss/);
    expect(decisions).toMatch(/Open Source Licensing Counsel/);
    expect(decisions).toMatch(/Replace LICENSE and the licence field before publishing/);
    expect((result.decisions as unknown[]).length).toBe(1);
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

  it('follows the /leopold-workflow skill as a user invokes it: start, compile, launch, finish', async () => {
    const project = makeProject(dist, { plan: TWO_ITEMS });
    projects.push(project);
    const script = {
      main: [
        { tool: 'Bash', input: { command: 'leopold run start --engine workflow' } },
        { tool: 'Bash', input: { command: 'leopold compile' } },
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
  });
});

import { describe, expect, it } from 'vitest';
import { runReal } from './harness.js';
import { launch, BY_SCRIPT_PATH, workflowSuite } from './workflow-scenario.js';

// Decisions and their trail in the real client: a persona at a @human node, and a scribe
// whose command the client refuses.

const { compiledProject, scenario } = workflowSuite();

describe('the compiled workflow in the real client: decisions and the scribe', () => {
  it('names the real cause when the scribe cannot run its command (the client refused it)', async () => {
    // Only Workflow is allowed: the scribe's `leopold record` needs approval nobody can give in -p.
    // The first batch carries a decision (the @human node's), so the ack schema wants one number on success.
    const plan = '# Plan\n\n- [ ] @human Choose the licence for the greeting package\n- [ ] Write the greeting module\n';
    const project = compiledProject({ plan });
    const run = await runReal(project, { prompt: 'Run the Leopold workflow.', script: launch(BY_SCRIPT_PATH), allowedTools: 'Workflow' });
    const result = run.results[0] as { stop: string; detail: string };
    expect(result.stop).toBe('scribe_failed');
    expect(result.detail).toMatch(/the scribe reported a failure: node_modules\/\.bin\/leopold record .*requires approval/i);
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
});

import { describe, expect, it } from 'vitest';
import { checkWorkflowScript } from '../../compiler/emit/check/index.js';
import { runWorkflowScript, type AnswerScript, type HostRun } from '../../runtime/host/index.js';
import { initialModel, type RunModel } from '../../runtime/run/index.js';
import { DEFAULT_GUARDRAILS } from '../../runtime/guardrails/defaults.js';
import { worstCaseAgents } from '../../runtime/workflow/agent-budget.js';
import { continuationOf, indexesOf, rangesOf, resumeFrom } from '../../runtime/workflow/continuation.js';
import type { WorkflowResult } from '../../runtime/workflow/index.js';
import type { EmbeddedNode, EmbeddedPlan } from '../../runtime/workflow/plan.js';
import { decision, eventsOf, finding, handoff, persona, review, scribeBatches, scriptOf, verdict, type Simulated } from './harness.js';

// Runs that continue (docs/workflow.md): a launch ends at run_budget before an item could be
// cut off by the host's agent cap, and the next launch of the same script continues it with
// the result's `continue` as args.continue.

/** Launches the script until it stops for something other than run_budget; one answer script per launch. */
async function chain(script: string, args: Record<string, unknown>, answers: (launch: number) => AnswerScript = () => []): Promise<HostRun[]> {
  const runs: HostRun[] = [];
  let launchArgs: Record<string, unknown> = args;
  for (let launch = 1; launch <= 50; launch++) {
    const run = await runWorkflowScript(script, { staticCheck: checkWorkflowScript, answers: answers(launch), args: launchArgs });
    if (!run.ok) throw new Error(`launch ${launch} failed: ${run.error?.message}`);
    runs.push(run);
    const result = run.result as WorkflowResult;
    if (result.stop !== 'run_budget') return runs;
    expect(result.continue).toBeDefined();
    launchArgs = { ...args, continue: result.continue };
  }
  throw new Error('the chain did not end in 50 launches');
}

const simulated = (run: HostRun): Simulated => ({ run, result: run.result as WorkflowResult, labels: run.journal.map((c) => c.label ?? '?'), scribe: scribeBatches(run) });
const checklist = (n: number) => `# Plan\n\n${Array.from({ length: n }, (_, i) => `- [ ] Step ${i + 1}`).join('\n')}\n`;

describe('runs that continue', () => {
  it('ends each launch at an item boundary with run_budget and continues until plan_complete, no item dispatched twice', async () => {
    const script = await scriptOf(checklist(12));
    // 30 agents a launch: one item costs 4 on the happy path, its worst case 24 (the stop's scribe set aside).
    const runs = await chain(script, { maxAgents: 30 });
    const results = runs.map((run) => run.result as WorkflowResult);
    expect(results.map((r) => r.stop)).toEqual([...Array(runs.length - 1).fill('run_budget'), 'plan_complete']);
    expect(runs.length).toBeGreaterThan(3);
    for (const run of runs) expect(run.stats.agents).toBeLessThanOrEqual(30);
    const implementers = runs.flatMap((run) => run.journal.map((c) => c.label)).filter((l) => l?.endsWith(':implement'));
    expect(implementers).toEqual(Array.from({ length: 12 }, (_, i) => `i${i + 1}:implement`));
    const ticks = runs.flatMap((run) => scribeBatches(run).flatMap((b) => b.ticks));
    expect(ticks).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(results.reduce((n, r) => n + r.done, 0)).toBe(12);
    // Every launch records its stop; a continuing one says so, and its iterations count on.
    const events = runs.flatMap((run) => eventsOf(simulated(run)));
    const starts = events.filter((e) => e.event === 'workflow-start');
    expect(starts[0]).not.toHaveProperty('continued');
    expect(starts.slice(1).map((e) => e.continued)).toEqual(Array.from({ length: runs.length - 1 }, (_, i) => i + 2));
    expect(events.filter((e) => e.event === 'turn').map((e) => e.iteration)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const stops = events.filter((e) => e.event === 'stop');
    expect(stops.map((e) => e.reason)).toEqual(results.map((r) => r.stop));
    expect(stops[0]).toMatchObject({ continue: results[0]!.continue });
  });

  it('a continuing launch inherits the failure streak, the failures, the evidence for the next attempt and the decision numbers', async () => {
    const plan = '# Plan\n\n- [ ] Decide the licence\n  needs-confirm\n- [ ] B\n- [ ] C\n';
    const script = await scriptOf(plan);
    const answers = (launch: number): AnswerScript =>
      launch === 1
        ? [
            { label: 'i1:implement', answers: [handoff.blocked('needs-confirm: which licence?'), handoff.noTests] },
            { label: 'i1:persona:escalation', answers: [persona('Open Source Licensing Counsel')] },
            { label: 'i1:escalation', answers: [decision()] },
          ]
        : [];
    // 20 agents: the first dispatch always runs; after it no item's worst case (24) fits.
    const runs = await chain(script, { maxAgents: 20 }, answers);
    const first = runs[0]!.result as WorkflowResult;
    expect(first.stop).toBe('run_budget');
    expect(first.continue).toMatchObject({ launch: 2, model: { iteration: 1, failures: { partial: 1 }, consecutive_failures: { kind: 'partial', count: 1 } }, lastDecision: 1 });
    expect(first.continue!.model.evidence['1']).toContain('ran no test');
    const second = runs[1]!;
    const retry = second.journal.find((c) => c.label === 'i1:implement')!;
    expect(retry.prompt).toContain('ran no test');
    // The next decision the scribe numbers is D2, never D1 again.
    const ack = second.journal.find((c) => c.label === 'scribe')!;
    expect(JSON.stringify(ack.options.schema)).toContain('"minimum":2');
    const events = runs.flatMap((run) => eventsOf(simulated(run)));
    expect(events.filter((e) => e.event === 'failure')).toHaveLength(1);
    expect((runs.at(-1)!.result as WorkflowResult).stop).toBe('plan_complete');
  });

  it('refuses a continuation of another compile of the plan: the launch fails rather than redo or skip work', async () => {
    const a = await scriptOf(checklist(3));
    const first = await runWorkflowScript(a, { staticCheck: checkWorkflowScript, args: { maxAgents: 10 } });
    const carry = (first.result as WorkflowResult).continue;
    expect(carry).toBeDefined();
    const b = await scriptOf(checklist(4));
    const run = await runWorkflowScript(b, { staticCheck: checkWorkflowScript, args: { continue: carry } });
    expect(run.ok).toBe(false);
    expect(run.error?.message).toContain('belongs to another compile of PLAN.md');
  });

  it('the continuation carries the run model whole, and reads back to the same model', () => {
    const node = (index: number, done = false): EmbeddedNode => ({
      id: `i${index}`, index, text: `Item ${index}`, kind: 'work', label: null, command: null, deps: [], needs: [], emits: [], routes: [],
      scenarios: [], writes: [], done, effort: 'medium', critical: false, sensitive: false,
    });
    const plan = { source: { plan: '.leopold/PLAN.md', sha256: 'a'.repeat(64) }, items: [1, 2, 3, 4, 5, 6].map((i) => node(i)), waves: [[1, 2, 3, 4, 5, 6]] } as unknown as EmbeddedPlan;
    const model: RunModel = {
      ...initialModel(),
      iteration: 9,
      failures: { verification: 2, partial: 1 },
      consecutive_failures: { kind: 'verification', count: 2 },
      no_progress: 1,
      last_done: 3,
      rescue_used: true,
      rescue_for: { kind: 'verification', failures: 2 },
      amendments_used: 2,
      routing: {
        statuses: { '1': 'ok', '2': 'ok', '3': 'pass', '5': 'fail', '7': 'ok' },
        signals: { '1': {}, '2': { migrated: 'true' }, '3': {}, '5': { exit: '1' }, '7': {} },
        channel: { migrated: 'true', exit: '1' },
        taken: [{ from: 2, route: 0, to: 4, when: 'migrated=true' }],
      },
      evidence: { '5': 'verification: red' },
    };
    const memory = new Map([[5, { evidence: ['attempt 1 (verification): red'] }], [1, { evidence: ['old'] }]]);
    const carry = continuationOf(plan, 1, model, [node(7)], memory, 4);
    expect(carry.model.routing.statuses).toEqual({ fail: '5', ok: '1-2,7', pass: '3' });
    expect(carry.model.routing.signals).toEqual({ '2': { migrated: 'true' }, '5': { exit: '1' } });
    expect(Object.keys(carry.memory)).toEqual(['5']);
    const back = resumeFrom(plan, JSON.parse(JSON.stringify(carry)));
    expect(back.model).toEqual(model);
    expect(back.launch).toBe(2);
    expect(back.lastDecision).toBe(4);
    expect(back.plan.items.filter((n) => n.done).map((n) => n.index)).toEqual([1, 2, 3, 7]);
    expect(back.plan.waves.at(-1)).toEqual([7]);
    expect(back.memory.get(5)).toEqual(memory.get(5));
  });

  it('writes item sets as ranges and reads them back', () => {
    expect(rangesOf([5, 1, 2, 3, 9, 10])).toBe('1-3,5,9-10');
    expect(indexesOf('1-3,5,9-10')).toEqual([1, 2, 3, 5, 9, 10]);
    expect(indexesOf('')).toEqual([]);
    expect(() => indexesOf('3-1')).toThrow(/not an item range/);
  });
});

// The review round cap the compiled plan runs under (GUARDRAILS' default).
const ROUNDS = DEFAULT_GUARDRAILS.maxReviewRounds;

describe('the worst case an item can take', () => {
  it('is never exceeded: escalations with silent personas, silent verifiers and reviewers (each null looked into), every review round blocked, the last re-asked panel silent', async () => {
    const plan = '# Plan\n\n- [ ] Fix the login token check in the production database migration\n  @scenario a card is stored encrypted\n';
    const script = await scriptOf(plan);
    const blocking = review([finding('P0', true)]);
    const die = { die: true as const };
    const answers: AnswerScript = [
      { label: 'i1:implement', answers: [handoff.blocked('needs-confirm: which table?'), handoff.blocked('ambiguous: which key?'), handoff.completed] },
      // No persona for either fork: each null costs a scribe call, and the default worker decides.
      { label: '/^i1:persona/', answers: [die, die] },
      { label: 'i1:escalation', answers: [decision()] },
      // Every round (the first and each of the cap's fix rounds): a silent judge first, then a pass.
      { label: 'i1:verify', answers: Array.from({ length: ROUNDS + 1 }, () => [die, verdict.pass]).flat() },
      // Every round a silent panel, then a block; in the last round the re-asked panel is silent again.
      ...['correctness', 'security', 'works'].map((who) => ({ label: `i1:review:${who}`, answers: [...Array.from({ length: ROUNDS }, () => [die, blocking]).flat(), die, die] })),
    ];
    // One iteration: the run stops after this one dispatch (iteration_budget), with the stop's own scribe call.
    const run = await runWorkflowScript(script, { staticCheck: checkWorkflowScript, answers, args: { maxIterations: 1 } });
    expect(run.ok).toBe(true);
    expect(run.result as WorkflowResult).toMatchObject({ stop: 'iteration_budget' });
    // Each null above cost one scribe call; the attempt failed at the silent re-asked panel, whose checks wrote its record.
    expect(run.journal.filter((call) => call.label === 'scribe')).toHaveLength(2 * 2 + 2 * (ROUNDS + 1) + 3 + 1);
    const node = { kind: 'work', sensitive: true, critical: true } as EmbeddedNode;
    expect(run.stats.agents - 1).toBe(worstCaseAgents(node, ROUNDS, false));
  });
});

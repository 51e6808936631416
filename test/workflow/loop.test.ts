import { describe, expect, it } from 'vitest';
import { apiErrorDetail } from '../../runtime/api-error/index.js';
import { renderDecision } from '../../runtime/decisions/render.js';
import type { DecisionInput } from '../../runtime/decisions/schema.js';
import { decision, decisionsOf, eventsOf, finding, handoff, persona, review, simulate, ticksOf, verdict } from './harness.js';

const PLAIN = '# Plan\n\n- [x] Set up\n- [ ] Count words {#count}\n- [ ] (after: #count) Add --json\n';
const item2 = ['i2:implement', 'i2:verify', 'i2:review:correctness', 'scribe'];
const item3 = ['i3:implement', 'i3:verify', 'i3:review:correctness', 'scribe'];

describe('the wave loop (plain checklist)', () => {
  it('implements, verifies and reviews each item, ticks it through the scribe, and completes', async () => {
    const s = await simulate(PLAIN);
    expect(s.labels).toEqual([...item2, ...item3, 'final:review', 'scribe']);
    expect(s.run.phases).toEqual(['Wave 1', 'Wave 2']);
    expect(ticksOf(s)).toEqual([2, 3]);
    expect(eventsOf(s).map((e) => e.event).filter((name) => name !== 'run')).toEqual(['workflow-start', 'turn', 'verified', 'item-done', 'turn', 'verified', 'item-done', 'final-review', 'stop']);
    // Done means verified: each receipt (the verifier's passing commands) goes to the scribe before the tick.
    expect(eventsOf(s).filter((e) => e.event === 'verified').map((e) => e.item)).toEqual([2, 3]);
    // The verifier and the reviewers run as the read-only agent; the implementer does not.
    const agentTypes = Object.fromEntries(s.run.journal.map((call) => [call.label, call.options.agentType]));
    expect(agentTypes).toMatchObject({ 'i2:implement': undefined, 'i2:verify': 'leopold-readonly', 'i2:review:correctness': 'leopold-readonly', scribe: undefined });
    expect(eventsOf(s).filter((e) => e.event === 'turn')).toEqual([
      { event: 'turn', item: 2, iteration: 1 },
      { event: 'turn', item: 3, iteration: 2 },
    ]);
    expect(eventsOf(s).at(-1)).toMatchObject({ event: 'stop', reason: 'plan_complete', done: 2, total: 2 });
    expect(s.result).toEqual({
      stop: 'plan_complete',
      detail: 'every item is done',
      done: 2,
      total: 2,
      incomplete: [],
      decisions: [],
      decidedForYou: '',
      stranded: [],
      routedAround: [],
      outcomes: [
        { item: 2, label: 'DONE', concerns: [] },
        { item: 3, label: 'DONE', concerns: [] },
      ],
      followUps: [],
    });
    const implement = s.run.journal[0]!;
    expect(implement.prompt).toContain('Count words.'); // mission
    expect(implement.prompt).toContain('- Never add a runtime dependency.'); // lifted rule
    expect(implement.prompt).toContain('only an irreversible fork the charter is ambiguous about stops to ask'.replace(/^o/, 'O'));
    expect(implement.prompt).toContain('edit .leopold/GUARDRAILS.md'); // forbidden actions
    expect(implement.options.schema).toMatchObject({ type: 'object', required: expect.arrayContaining(['status', 'tests_run', 'blocked_reason']) });
  });

  it('adds the security and does-it-work reviewers by risk, in parallel, scenarios first', async () => {
    const s = await simulate('- [ ] Fix the login token check in the production database migration\n  @scenario a card is stored encrypted\n');
    expect(s.labels.filter((l) => l.includes(':review:'))).toEqual(['i1:review:correctness', 'i1:review:security', 'i1:review:works']);
    const prompt = s.run.journal.find((c) => c.label === 'i1:review:security')!.prompt;
    expect(prompt).toContain('Acceptance scenarios (check these first)');
    expect(s.run.stats.maxConcurrency).toBe(3);
  });

  it('a handoff whose only test command is a build is partial, not tested', async () => {
    const build = { value: { ...handoff.completed.value, tests_run: [{ command: 'npm run build', result: 'pass', summary: 'built' }] } };
    const s = await simulate('- [ ] A\n', { answers: [{ label: 'i1:implement', answers: [build, handoff.completed], once: false }] });
    expect(s.labels.slice(0, 2)).toEqual(['i1:implement', 'i1:implement']);
    expect(eventsOf(s).find((e) => e.event === 'failure')).toMatchObject({ kind: 'partial', evidence: expect.stringContaining('a build alone is partial') });
  });

  it('a handoff with no test run is partial: a failure, never an acceptance', async () => {
    const s = await simulate('- [ ] A\n', { answers: [{ label: 'i1:implement', answers: [handoff.noTests, handoff.completed], once: false }] });
    expect(s.labels).toEqual(['i1:implement', 'i1:implement', 'i1:verify', 'i1:review:correctness', 'scribe', 'final:review', 'scribe']);
    expect(eventsOf(s).find((e) => e.event === 'failure')).toMatchObject({ kind: 'partial' });
    expect(s.result.stop).toBe('plan_complete');
  });
});

describe('the routed loop', () => {
  const ROUTED = [
    '- [ ] Build it {#build}',
    '- [ ] @gate Review it {#review}',
    '  @on fail -> #fix',
    '  @on pass -> #ship',
    '- [ ] Fix what review found {#fix}',
    '- [ ] Ship it {#ship}',
    '',
  ].join('\n');

  it('takes the fail branch of a gate: the fix runs, the pass target is routed around', async () => {
    const s = await simulate(ROUTED, { answers: [{ label: 'i2:gate', answers: [{ value: { verdict: 'fail', reasons: 'no tests' } }] }] });
    expect(s.labels).toEqual(['i1:implement', 'i1:verify', 'i1:review:correctness', 'scribe', 'i2:gate', 'scribe', 'i3:implement', 'i3:verify', 'i3:review:correctness', 'scribe', 'scribe']);
    expect(eventsOf(s).filter((e) => e.event === 'route')).toEqual([{ event: 'route', from: 2, to: 3, when: 'fail' }]);
    expect(eventsOf(s).find((e) => e.event === 'gate')).toMatchObject({ item: 2, verdict: 'fail' });
    expect(ticksOf(s)).toEqual([1, 3]);
    expect(s.result).toMatchObject({ stop: 'routed_complete', done: 2, total: 4, incomplete: [2, 4], routedAround: [4], stranded: [] });
  });

  it('a @tool reports its exit, which routes (exit!=0 -> fix)', async () => {
    const plan = '- [ ] @tool `npm test` {#t}\n  @on exit!=0 -> #fix\n  @on exit=0 -> #done\n- [ ] Fix {#fix}\n- [ ] Done {#done}\n';
    const s = await simulate(plan, { answers: [{ label: 'i1:tool', answers: [{ value: { exit: 2, output: 'boom' } }] }] });
    expect(s.labels.slice(0, 3)).toEqual(['i1:tool', 'scribe', 'i2:implement']);
    expect(s.run.journal[0]!.prompt).toContain('    npm test');
    expect(eventsOf(s).find((e) => e.event === 'tool')).toMatchObject({ exit: 2, command: 'npm test' });
    expect(s.result).toMatchObject({ stop: 'routed_complete', routedAround: [3], incomplete: [1, 3] });
  });
});

describe('@human nodes', () => {
  const HUMAN = '- [ ] Build\n- [ ] (after: 1) @human Choose the licence\n- [ ] (after: 2) Publish the notes\n';

  it('under full: a persona decides and works; the entry names the Persona and the Reversal', async () => {
    const s = await simulate(HUMAN, { answers: [{ label: 'i2:persona:human', answers: [persona('Open Source Licensing Counsel')] }, { label: 'i2:human', answers: [decision()] }] });
    expect(s.labels).toEqual([
      'i1:implement', 'i1:verify', 'i1:review:correctness', 'scribe',
      'i2:persona:human', 'i2:human', 'scribe', 'scribe',
      'i3:implement', 'i3:verify', 'i3:review:correctness', 'scribe', 'final:review', 'scribe',
    ]);
    const [entry] = decisionsOf(s) as DecisionInput[];
    expect(entry).toMatchObject({ fork: 'human', item: 2, persona: { name: 'Ada Park', role: 'Open Source Licensing Counsel' }, reversal: 'Replace LICENSE and the licence field.' });
    const text = renderDecision(entry!, 1, new Date(0));
    expect(text).toContain('Persona:     Ada Park — Open Source Licensing Counsel (release management)');
    expect(text).toContain('Reversal:    Replace LICENSE and the licence field.');
    expect(s.result.decisions).toMatchObject([{ n: 1, fork: 'human', item: 2, persona: 'Ada Park — Open Source Licensing Counsel' }]);
    expect(s.result.decidedForYou).toContain('  1. [human] Ada Park — Open Source Licensing Counsel (D1): MIT');
    expect(s.result.stop).toBe('plan_complete');
  });

  it('under ask: stops awaiting_human at the node and nothing after it runs', async () => {
    const s = await simulate(HUMAN, { compile: { autonomyFlag: 'ask' } });
    expect(s.labels).toEqual(['i1:implement', 'i1:verify', 'i1:review:correctness', 'scribe', 'scribe']);
    expect(s.result).toMatchObject({ stop: 'awaiting_human', done: 1, incomplete: [2, 3], decisions: [] });
    expect(s.result.detail).toContain('item 2 ("Choose the licence")');
    expect(eventsOf(s).at(-1)).toMatchObject({ event: 'stop', reason: 'awaiting_human' });
    // args can set the posture too
    const viaArgs = await simulate(HUMAN, { args: { autonomy: 'ask' } });
    expect(viaArgs.result.stop).toBe('awaiting_human');
  });

  it('a generic role ("an assistant") falls back to the default worker, and the entry says no role could be synthesized', async () => {
    const s = await simulate(HUMAN, { answers: [{ label: 'i2:persona:human', answers: [persona('an assistant')] }, { label: 'i2:human', answers: [decision()] }] });
    const human = s.run.journal.find((c) => c.label === 'i2:human')!;
    expect(human.prompt).toContain('No role could be synthesized for this decision');
    expect(human.prompt).not.toContain('Ada Park');
    const [entry] = decisionsOf(s) as DecisionInput[];
    expect(entry!.persona).toBeNull();
    expect(renderDecision(entry!, 1, new Date(0))).toContain('Persona:     none: no role could be synthesized');
    expect(s.result.decisions[0]).toMatchObject({ persona: null, reasons: ['no persona'] });
    expect(s.run.logs.join('\n')).toContain('"an assistant" is generic');
  });

  it('an irreversible decision on a silent charter is not the persona\'s to make: escalation', async () => {
    const s = await simulate(HUMAN, { answers: [{ label: 'i2:human', answers: [decision({ class: 'irreversible', charter: 'silent' })] }] });
    expect(s.result.stop).toBe('escalation');
    expect(s.labels.at(-1)).toBe('scribe');
    expect(s.labels).not.toContain('i3:implement');
  });
});

describe('escalations', () => {
  it('a needs-confirm block is settled by a persona and handed back to the worker', async () => {
    const s = await simulate('- [ ] Word the help text\n', {
      answers: [
        { label: 'i1:implement', answers: [handoff.blocked('needs-confirm: include refunded invoices?'), handoff.completed] },
        { label: 'i1:persona:escalation', answers: [persona('Billing Operations Lead')] },
        { label: 'i1:escalation', answers: [decision({ title: 'Include refunded invoices', decision: 'Include them with a status column' })] },
      ],
    });
    expect(s.labels).toEqual(['i1:implement', 'i1:persona:escalation', 'i1:escalation', 'scribe', 'i1:implement', 'i1:verify', 'i1:review:correctness', 'scribe', 'final:review', 'scribe']);
    expect(s.run.journal[4]!.prompt).toContain('The fork you escalated was settled');
    expect(s.run.journal[4]!.prompt).toContain('Include them with a status column');
    expect(decisionsOf(s)).toMatchObject([{ fork: 'escalation', item: 1, persona: { role: 'Billing Operations Lead' } }]);
    expect(s.result).toMatchObject({ stop: 'plan_complete', done: 1 });
    expect(s.result.decidedForYou).toContain('  1. [escalation] Ada Park — Billing Operations Lead (D1): Include them with a status column');
  });
});

describe('failures and the rescue', () => {
  const fails = (n: number) => Array.from({ length: n }, () => verdict.fail('2 failing'));

  it('three failures, the one rescue, then success', async () => {
    const s = await simulate('- [ ] Parse dates\n', {
      answers: [
        { label: 'i1:verify', answers: [...fails(3), verdict.pass] },
        { label: 'i1:persona:repeated-failure', answers: [persona('Date and Time Library Maintainer')] },
        { label: 'i1:rescue', answers: [{ value: { approach: 'Use Temporal-style plain dates, no Date parsing' } }] },
      ],
    });
    const attempt = ['i1:implement', 'i1:verify'];
    expect(s.labels).toEqual([
      ...attempt, ...attempt, ...attempt,
      'i1:persona:repeated-failure', 'i1:rescue', 'scribe',
      ...attempt, 'i1:review:correctness', 'scribe', 'final:review', 'scribe',
    ]);
    expect(s.run.journal[9]!.prompt).toContain('Take this genuinely different approach (the rescue)');
    expect(s.run.journal[9]!.prompt).toContain('You are Ada Park, Date and Time Library Maintainer');
    expect(eventsOf(s).filter((e) => e.event === 'failure').map((e) => e.streak)).toEqual([1, 2, 3]);
    expect(eventsOf(s).find((e) => e.event === 'rescue')).toMatchObject({ kind: 'verification', failures: 3, rescue_used: true });
    expect(decisionsOf(s)).toMatchObject([{ fork: 'repeated-failure', decision: 'Use Temporal-style plain dates, no Date parsing' }]);
    expect(s.result).toMatchObject({ stop: 'plan_complete', done: 1 });
  });

  it('three failures, the rescue, then a failure again: repeated_failure', async () => {
    const s = await simulate('- [ ] Parse dates\n- [ ] Format dates\n', {
      answers: [
        { label: 'i1:verify', answers: fails(4) },
        { label: 'i1:rescue', answers: [{ value: { approach: 'another way' } }] },
      ],
    });
    expect(s.labels.filter((l) => l === 'i1:implement')).toHaveLength(4);
    expect(s.labels).not.toContain('i2:implement');
    expect(s.result).toMatchObject({ stop: 'repeated_failure', done: 0, incomplete: [1, 2] });
    expect(s.result.detail).toContain('4 consecutive verification failures (the one rescue is used)');
    expect(eventsOf(s).at(-1)).toMatchObject({ event: 'stop', reason: 'repeated_failure' });
  });

  it('a dead implementer charges a round and is asked again, once the scribe has said no API error explains it', async () => {
    const s = await simulate('- [ ] A\n', { answers: [{ label: 'i1:implement', answers: [{ die: true }] }] });
    expect(s.labels).toEqual(['i1:implement', 'scribe', 'i1:fix:1', 'i1:verify', 'i1:review:correctness', 'scribe', 'final:review', 'scribe']);
    expect(s.scribe[0]!.record?.events).toContainEqual({ event: 'no-answer', item: 1, agents: ['i1:implement'] });
    expect(s.result.stop).toBe('plan_complete');
  });

  it('a dead reviewer is re-asked once, then blocks acceptance (never a pass); each silence is looked into', async () => {
    const s = await simulate('- [ ] A\n', { answers: [{ label: 'i1:review:correctness', answers: [{ die: true }, { die: true }, review()] }] });
    expect(s.labels).toEqual([
      'i1:implement', 'i1:verify', 'i1:review:correctness', 'scribe', 'i1:review:correctness', 'scribe',
      'i1:implement', 'i1:verify', 'i1:review:correctness', 'scribe', 'final:review', 'scribe',
    ]);
    expect(eventsOf(s).find((e) => e.event === 'failure')).toMatchObject({ kind: 'review' });
    expect(String(eventsOf(s).find((e) => e.event === 'failure')!.evidence)).toContain('a silent reviewer blocks acceptance');
    expect(s.result).toMatchObject({ stop: 'plan_complete', done: 1 });
  });
});

describe('an agent that dies on an API error (the scribe reports it)', () => {
  const ack = { value: { ok: true, numbers: [] } };
  const failed = (error: string, retryable: boolean) => ({ value: { ok: true, numbers: [], api_error: { error, retryable } } });

  it.each([
    ['server_error', true, 'A retry can help'],
    ['authentication_failed', false, 'A retry alone will not help'],
  ])('%s: the check after the null reports it, the dispatch ends there and the run stops api_error, naming it', async (error, retryable, help) => {
    const s = await simulate('- [ ] A\n- [ ] B\n', { answers: [{ label: 'i1:implement', answers: [{ die: true }] }, { label: 'scribe', answers: [failed(error, retryable)] }] });
    // No fix round, no other item, no final review: the run model stops at the next step.
    expect(s.labels).toEqual(['i1:implement', 'scribe', 'scribe']);
    expect(s.result).toMatchObject({ stop: 'api_error', done: 0, incomplete: [1, 2] });
    expect(s.result.detail).toBe(apiErrorDetail(error, 'an agent'));
    expect(s.result.detail).toMatch(new RegExp(`^an agent died on an API error: ${error}: .*${help}\\.$`));
    expect(eventsOf(s).at(-1)).toMatchObject({ event: 'stop', reason: 'api_error', detail: s.result.detail, error, retryable, iteration: 1, done: 0, total: 2 });
    // The attempt was cut short, not failed: no failure is charged to the item.
    expect(eventsOf(s).filter((e) => e.event === 'failure')).toEqual([]);
  });

  it('reported by a later ack (the hook landed after the check): the run stops api_error at the next step, before the final review', async () => {
    const s = await simulate('- [ ] A\n- [ ] B\n', { answers: [{ label: 'i1:implement', answers: [{ die: true }] }, { label: 'scribe', answers: [ack, failed('rate_limit', true)] }] });
    expect(s.labels).toEqual(['i1:implement', 'scribe', 'i1:fix:1', 'i1:verify', 'i1:review:correctness', 'scribe', 'scribe']);
    expect(s.result).toMatchObject({ stop: 'api_error', done: 1, incomplete: [2] });
    expect(s.result.detail).toMatch(/^an agent died on an API error: rate_limit: /);
  });

  it('a reviewer panel that dies is looked into once, after all have answered', async () => {
    const s = await simulate('- [ ] Fix the login token check\n  @scenario a token is checked\n', {
      answers: [{ label: '/^i1:review:/', answers: [{ die: true }] }, { label: 'scribe', answers: [failed('overloaded', true)] }],
    });
    // One check for the three silent reviewers (in label order), no re-ask: the API error ends the dispatch.
    expect(s.labels).toEqual(['i1:implement', 'i1:verify', 'i1:review:correctness', 'i1:review:security', 'i1:review:works', 'scribe', 'scribe']);
    expect(s.scribe[0]!.record!.events!.at(-1)).toEqual({ event: 'no-answer', item: 1, agents: ['i1:review:correctness', 'i1:review:security', 'i1:review:works'] });
    expect(s.result.stop).toBe('api_error');
  });

  it('a scribe that dies recording the api_error stop leaves the stop api_error, saying the event went unrecorded', async () => {
    const s = await simulate('- [ ] A\n', { answers: [{ label: 'i1:implement', answers: [{ die: true }] }, { label: 'scribe', answers: [failed('server_error', true), { die: true }] }] });
    expect(s.result.stop).toBe('api_error');
    expect(s.result.detail).toContain('the stop event went unrecorded: the scribe gave no answer');
  });

  it('a scribe that dies on the check itself stops the run scribe_failed (leopold run finish then ends it api_error from state.json)', async () => {
    const s = await simulate('- [ ] A\n', { answers: [{ label: 'i1:implement', answers: [{ die: true }] }, { label: 'scribe', answers: [{ die: true }] }] });
    expect(s.labels).toEqual(['i1:implement', 'scribe']);
    expect(s.result.stop).toBe('scribe_failed');
  });
});

describe('review rounds', () => {
  it('blocks twice, then clears (only blocking findings open a fix round)', async () => {
    const s = await simulate('- [ ] A\n', {
      answers: [{ label: 'i1:review:correctness', answers: [review([finding('P0', false)]), review([finding('P1', true), finding('P2', true)]), review([finding('P1', false, 'old bug')])] }],
    });
    expect(s.labels).toEqual([
      'i1:implement', 'i1:verify', 'i1:review:correctness',
      'i1:fix:1', 'i1:verify', 'i1:review:correctness',
      'i1:fix:2', 'i1:verify', 'i1:review:correctness',
      'scribe', 'final:review', 'scribe',
    ]);
    expect(s.run.journal[3]!.prompt).toContain('Fix round 1: fix these blocking review findings');
    expect(s.run.journal[3]!.prompt).toContain('P0 defect src/a.ts:3: off by one');
    // The P2 and the pre-existing P1 are follow-ups, recorded once when the item closes.
    expect(eventsOf(s).filter((e) => e.event === 'follow-ups')).toEqual([
      { event: 'follow-ups', item: 1, findings: [finding('P2', true), finding('P1', false, 'old bug')] },
    ]);
    expect(s.result).toMatchObject({ stop: 'plan_complete', done: 1 });
  });

  it.each(['hardening', 'refactor', 'docs', 'test-gap'])('an introduced P1 %s opens no fix round: a follow-up recorded at close', async (type) => {
    const s = await simulate('- [ ] A\n', { answers: [{ label: 'i1:review:correctness', answers: [review([{ ...finding('P1', true), type }])] }] });
    expect(s.labels).toEqual(['i1:implement', 'i1:verify', 'i1:review:correctness', 'scribe', 'final:review', 'scribe']);
    expect(eventsOf(s).find((e) => e.event === 'follow-ups')).toMatchObject({ item: 1, findings: [{ severity: 'P1', type }] });
    expect(s.result).toMatchObject({ stop: 'plan_complete', done: 1 });
  });

  it('an introduced P1 defect does open a fix round', async () => {
    const s = await simulate('- [ ] A\n', { answers: [{ label: 'i1:review:correctness', answers: [review([finding('P1', true)]), review()] }] });
    expect(s.labels.slice(0, 4)).toEqual(['i1:implement', 'i1:verify', 'i1:review:correctness', 'i1:fix:1']);
  });

  it('past maxReviewRounds, a ruling per open finding is recorded and the item is left open', async () => {
    const s = await simulate('- [ ] A\n- [ ] (after: 1) B\n', {
      answers: [{ label: 'i1:review:correctness', answers: [review([finding('P0', true), finding('P0', false, 'leak')])] }],
      compile: { guardrails: 'max_review_rounds: 1\n' },
    });
    expect(s.labels.filter((l) => l.startsWith('i1:'))).toEqual(['i1:implement', 'i1:verify', 'i1:review:correctness', 'i1:fix:1', 'i1:verify', 'i1:review:correctness']);
    expect(decisionsOf(s).map((d) => d.title)).toEqual(['Ruling: P0 defect in src/a.ts:3 left open', 'Ruling: P0 defect in src/a.ts:3 left open']);
    expect(s.result).toMatchObject({ stop: 'routed_complete', done: 0, incomplete: [1, 2], stranded: [2] });
  });
});

describe('stop conditions', () => {
  it('iteration_budget: args.maxIterations lowers the limit', async () => {
    const s = await simulate(PLAIN, { args: { maxIterations: 1 } });
    expect(s.labels).toEqual([...item2, 'scribe']);
    expect(s.result).toMatchObject({ stop: 'iteration_budget', done: 1, incomplete: [3] });
  });

  it('budget_exceeded: the host budget runs out mid-run', async () => {
    const s = await simulate(PLAIN, { budgetTotal: 5_000 });
    expect(s.labels).toEqual([...item2, 'i3:implement']);
    expect(s.result).toMatchObject({ stop: 'budget_exceeded', done: 1, incomplete: [3] });
  });

  it('scribe_failed: a failed ack stops the run with the reason and the unrecorded commands', async () => {
    const s = await simulate(PLAIN, { answers: [{ label: 'scribe', answers: [{ value: { ok: false, numbers: [], error: 'leopold: no .leopold/ found' } }] }] });
    expect(s.labels).toEqual(item2);
    expect(s.result.stop).toBe('scribe_failed');
    expect(s.result.detail).toContain('the scribe reported a failure: leopold: no .leopold/ found');
    expect(s.result.detail).toContain('leopold plan tick 2 --json');
  });

  it('scribe_failed: an ack with the wrong number of decision numbers is refused by its schema', async () => {
    const human = '- [ ] @human Choose\n';
    const s = await simulate(human, { answers: [{ label: 'i1:human', answers: [decision()] }, { label: 'scribe', answers: [{ value: { ok: true, numbers: [] } }] }] });
    expect(s.result.stop).toBe('scribe_failed');
    expect(s.run.journal.find((c) => c.label === 'scribe')!.status).toBe('threw');
  });
});

describe('an empty answer is never a made-up decision', () => {
  const HUMAN = '- [ ] @human Approve the production cutover\n- [ ] (after: 1) Publish the notes\n';

  it.each([
    ['no decision', { decision: '  ' }],
    ['no why', { why: '' }],
    ['the default-shaped answer', { title: '', decision: '', why: '', reversal: '' }],
  ])('@human under full with %s: escalation, nothing recorded, the item stays open', async (_label, over) => {
    const s = await simulate(HUMAN, { answers: [{ label: 'i1:persona:human', answers: [persona('Release Engineer')] }, { label: 'i1:human', answers: [decision(over)] }] });
    expect(s.result.stop).toBe('escalation');
    expect(s.result.detail).toMatch(/^item 1 \("Approve the production cutover"\): the answer at the human fork is unusable/);
    expect(decisionsOf(s)).toEqual([]);
    expect(s.result.decidedForYou).toBe('');
    expect(JSON.stringify(s.scribe)).not.toMatch(/Proceed with the item as written|bias to action/);
    expect(s.result.incomplete).toEqual([1, 2]);
  });

  it('an escalated fork answered with no decision stops the run with escalation', async () => {
    const s = await simulate('- [ ] Export the invoices\n', {
      answers: [
        { label: 'i1:implement', answers: [handoff.blocked('needs-confirm: refunded invoices?'), handoff.completed] },
        { label: 'i1:escalation', answers: [decision({ decision: '' })] },
      ],
    });
    expect(s.result.stop).toBe('escalation');
    expect(decisionsOf(s)).toEqual([]);
  });
});

describe('decision numbers', () => {
  const TWO = '- [ ] @human Choose the licence\n- [ ] (after: 1) @human Choose the name\n';
  const answers = [
    { label: 'i1:persona:human', answers: [persona('Open Source Licensing Counsel')] },
    { label: 'i1:human', answers: [decision()] },
    { label: 'i2:persona:human', answers: [persona('Brand Naming Lead')] },
    { label: 'i2:human', answers: [decision({ title: 'Call it tally', decision: 'tally' })] },
  ];

  it('the stand-in scribe numbers on D1, D2 (not D1 for every decision), and the ack schema asks for numbers beyond the last', async () => {
    const s = await simulate(TWO, { answers });
    expect(s.result.decisions.map((d) => d.n).sort()).toEqual([1, 2]);
    expect(s.result.decidedForYou).toMatch(/\(D1\)[\s\S]*\(D2\)/);
    const acks = s.run.journal.filter((c) => c.label === 'scribe').map((c) => (c.options as { schema: { properties: { numbers: { items: { minimum: number } } } } }).schema.properties.numbers.items.minimum);
    expect(acks[0]).toBe(1);
    expect(acks.at(-1)).toBe(3);
  });

  it('scribe_failed: an ack that reuses a number the run already got', async () => {
    const s = await simulate(TWO, { answers: [...answers, { label: 'scribe', answers: [{ value: { ok: true, numbers: [1] } }, { value: { ok: true, numbers: [] } }, { value: { ok: true, numbers: [1] } }] }] });
    expect(s.result.stop).toBe('scribe_failed');
    expect(s.result.decisions.map((d) => d.n)).toEqual([1]);
    expect(s.run.journal.filter((c) => c.label === 'scribe').at(-1)!.status).toBe('threw');
  });
});

describe('resume safety', () => {
  it('the same plan and answers give the same agent calls every run', async () => {
    const plan = '- [ ] Fix the login token check in production\n- [ ] @gate Check {#g}\n  @on fail -> 4\n  @on pass -> 5\n- [ ] @human Decide\n- [ ] Fix\n- [ ] Ship\n';
    const answers = [{ label: 'i1:verify', answers: [verdict.fail('x'), verdict.pass] }];
    const a = await simulate(plan, { answers });
    const b = await simulate(plan, { answers });
    const calls = (s: typeof a) => s.run.journal.map((c) => [c.label, c.prompt, JSON.stringify(c.options)]);
    expect(calls(b)).toEqual(calls(a));
    expect(b.result).toEqual(a.result);
  });
});

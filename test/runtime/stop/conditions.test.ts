import { describe, expect, it } from 'vitest';
import { DEFAULT_STOP_LIMITS, gatedBy, stopCondition, STOP_REASONS, type StopFacts, type StopInput } from '../../../runtime/run/index.js';
import { parsePlan } from '../../../runtime/plan/parse/index.js';
import { startedState, type RunState } from '../../../runtime/state/index.js';
import { reduce, type RunModel } from '../../../runtime/run/index.js';
// The run model's reducer (runtime/run) for the transitions these tests drive.
const failed = <S extends RunModel>(s: S, kind: string) => reduce(s, { type: 'failed', item: 1, kind }, []);
const succeeded = <S extends RunModel>(s: S) => reduce(s, { type: 'succeeded', item: 1 }, []);
const granted = <S extends RunModel>(s: S) => reduce(s, { type: 'rescue-granted', item: 1 }, []);
const dispatched = <S extends RunModel>(s: S, done: number) => reduce(s, { type: 'dispatched', item: 1, done }, []);


const base = (): RunState => startedState('session', new Date('2026-01-01T00:00:00Z'));
const input = (state: RunState, facts: StopFacts = {}, autonomy: 'full' | 'ask' = 'full'): StopInput => ({
  state,
  limits: DEFAULT_STOP_LIMITS,
  autonomy,
  facts,
});
const reason = (i: StopInput) => stopCondition(i)?.reason ?? null;

/** A state and facts where every condition holds at once. */
function everything(): StopInput {
  let state = base();
  for (let i = 0; i < 3; i += 1) state = failed(state, 'test');
  state = {
    ...state,
    iteration: 50,
    rescue_used: true,
    no_progress: 6,
    windows: 10,
    windows_without_progress: 2,
  };
  return input(
    state,
    {
      killSwitch: true,
      apiError: { error: 'server_error' },
      planComplete: true,
      routedComplete: true,
      invalidGraph: true,
      deadlock: true,
      halt: { reason: 'escalation', item: 2, detail: 'item 2: no usable decision' },
      nextIsHuman: true,
      budgetExceeded: true,
      transcriptBytes: 6 * 1024 * 1024,
      runBudget: { needed: 24, left: 10 },
    },
    'ask',
  );
}

describe('stopCondition', () => {
  it('nothing holds: keep going', () => {
    expect(stopCondition(input(base()))).toBeNull();
  });

  it('reports the conditions in order, peeling them off one at a time', () => {
    const order: string[] = [];
    const i = everything();
    const peel: Record<string, (x: StopInput) => void> = {
      kill_switch: (x) => (x.facts.killSwitch = false),
      api_error: (x) => (x.facts.apiError = null),
      iteration_budget: (x) => (x.state = { ...x.state, iteration: 0 }),
      budget_exceeded: (x) => (x.facts.budgetExceeded = false),
      repeated_failure: (x) => (x.state = { ...x.state, consecutive_failures: { kind: null, count: 0 } }),
      plan_complete: (x) => (x.facts.planComplete = false),
      routed_complete: (x) => (x.facts.routedComplete = false),
      invalid_graph: (x) => (x.facts.invalidGraph = false),
      deadlock: (x) => (x.facts.deadlock = false),
      escalation: (x) => (x.facts.halt = null),
      awaiting_human: (x) => (x.facts.nextIsHuman = false),
      no_progress: (x) => (x.state = { ...x.state, no_progress: 0 }),
      run_budget: (x) => (x.facts.runBudget = { needed: 24, left: 24 }),
      max_windows: (x) => (x.state = { ...x.state, windows: 0 }),
      no_progress_across_windows: (x) => (x.state = { ...x.state, windows_without_progress: 0 }),
      context_budget: (x) => (x.facts.transcriptBytes = 0),
    };
    for (let r = reason(i); r !== null; r = reason(i)) {
      order.push(r);
      peel[r]!(i);
    }
    expect(order).toEqual([
      'kill_switch',
      'api_error',
      'escalation',
      'plan_complete',
      'routed_complete',
      'invalid_graph',
      'deadlock',
      'iteration_budget',
      'budget_exceeded',
      'repeated_failure',
      'awaiting_human',
      'no_progress',
      'run_budget',
      'max_windows',
      'no_progress_across_windows',
      'context_budget',
    ]);
    // subagent_cap is a halt (the spawn past the cap is refused: subagentCap), asked where `escalation` is.
    expect([...order, 'subagent_cap'].sort()).toEqual([...STOP_REASONS].sort());
  });

  it('an API error an agent died on stops at once, retryable or not, and the detail names it and whether a retry helps', () => {
    expect(stopCondition(input(base(), { apiError: { error: 'rate_limit' } }))).toEqual({
      reason: 'api_error',
      detail: 'an agent died on an API error: rate_limit: the API rate-limited this session (HTTP 429); wait for the limit to reset. A retry can help.',
    });
    expect(stopCondition(input(base(), { apiError: { error: 'authentication_failed' } }))?.detail).toMatch(/^an agent died on an API error: authentication_failed: .*A retry alone will not help\.$/);
    // Before a halt and before plan_complete: when the agents die, that is why the run stopped.
    expect(reason(input(base(), { apiError: { error: 'server_error' }, planComplete: true, halt: { reason: 'escalation', item: 1, detail: 'x' } }))).toBe('api_error');
    expect(reason(input(base(), { apiError: null }))).toBeNull();
  });

  it('keeps the one order both engines stop in: kill switch, an API error, a halt, nothing left to do, then the budgets, @human under ask, no progress', () => {
    const order = ['kill_switch', 'api_error', 'escalation', 'plan_complete', 'iteration_budget', 'repeated_failure', 'awaiting_human', 'no_progress'];
    const i = everything();
    const seen: string[] = [];
    for (const r of order) {
      seen.push(reason(i)!);
      if (r === 'kill_switch') i.facts.killSwitch = false;
      if (r === 'api_error') i.facts.apiError = null;
      if (r === 'escalation') i.facts.halt = null;
      if (r === 'plan_complete') Object.assign(i.facts, { planComplete: false, routedComplete: false, invalidGraph: false, deadlock: false });
      if (r === 'iteration_budget') {
        i.state = { ...i.state, iteration: 0 };
        i.facts.budgetExceeded = false;
      }
      if (r === 'repeated_failure') i.state = { ...i.state, consecutive_failures: { kind: null, count: 0 } };
      if (r === 'awaiting_human') i.facts.nextIsHuman = false;
    }
    expect(seen).toEqual(order);
  });

  it('a run whose last item finished on its last iteration is plan_complete, not iteration_budget (a budget stops work that is left)', () => {
    const i = input({ ...base(), iteration: 3 }, { planComplete: true });
    i.limits = { ...i.limits, maxIterations: 3 };
    expect(reason(i)).toBe('plan_complete');
    expect(reason({ ...i, facts: {} })).toBe('iteration_budget');
  });

  it('limits: iteration budget at max_iterations, no progress at max_no_progress', () => {
    expect(reason(input({ ...base(), iteration: 49 }))).toBeNull();
    expect(reason(input({ ...base(), iteration: 50 }))).toBe('iteration_budget');
    expect(reason(input({ ...base(), no_progress: 5 }))).toBeNull();
    expect(reason(input({ ...base(), no_progress: 6 }))).toBe('no_progress');
  });

  it('failure ceiling waits for the one rescue (under full), not under ask', () => {
    let s = base();
    for (let i = 0; i < 3; i += 1) s = failed(s, 'test');
    expect(reason(input(s))).toBeNull(); // the rescue is due: not a stop
    expect(reason(input(s, {}, 'ask'))).toBe('repeated_failure');
    s = granted(s);
    expect(reason(input(s))).toBeNull(); // the rescued attempt runs
    s = failed(s, 'test');
    expect(stopCondition(input(s))).toMatchObject({ reason: 'repeated_failure', detail: expect.stringMatching(/4 consecutive test failures/) });
  });

  it('@human stops only under ask', () => {
    expect(reason(input(base(), { nextIsHuman: true }))).toBeNull();
    expect(reason(input(base(), { nextIsHuman: true }, 'ask'))).toBe('awaiting_human');
  });

  it('context budget: only past max_context_mb', () => {
    expect(reason(input(base(), { transcriptBytes: 5 * 1024 * 1024 }))).toBeNull();
    expect(reason(input(base(), { transcriptBytes: 5 * 1024 * 1024 + 1 }))).toBe('context_budget');
  });
});

describe('what only a person settles (GUARDRAILS.md `gated`, the needs-person event)', () => {
  const item = (text: string, anchor: string | null = null) => ({ text, anchor });

  it('a phrase names an item whose text holds it, in any case; {#anchor} names the item with that anchor', () => {
    const gated = ['Stripe billing', '{#release}'];
    expect(gatedBy(item('Wire the stripe BILLING webhook'), gated)).toBe('Stripe billing');
    expect(gatedBy(item('Cut the release', 'release'), gated)).toBe('{#release}');
    expect(gatedBy(item('Cut the release', 'ship'), gated)).toBeNull();
    expect(gatedBy(item('Write the README'), gated)).toBeNull();
    expect(gatedBy(item('Write the README'))).toBeNull();
  });

  it('a gated next item stops awaiting_human in either autonomy, after the budgets', () => {
    for (const autonomy of ['full', 'ask'] as const) {
      expect(stopCondition({ state: base(), limits: DEFAULT_STOP_LIMITS, autonomy, facts: { nextGated: 'billing' } })).toEqual({
        reason: 'awaiting_human',
        detail: 'the next item is gated by GUARDRAILS.md (gated: billing)',
      });
    }
    const spent = { ...base(), iteration: DEFAULT_STOP_LIMITS.maxIterations };
    expect(stopCondition({ state: spent, limits: DEFAULT_STOP_LIMITS, autonomy: 'full', facts: { nextGated: 'billing' } })?.reason).toBe('iteration_budget');
  });

  it('needs-person halts the run: gated work awaiting_human, the other reasons escalation, the first halt kept', () => {
    const items = parsePlan('- [ ] Count words\n', 'PLAN.md').items;
    const gated = reduce(base(), { type: 'needs-person', item: 1, reason: 'gated', question: 'rotates the production key' }, items);
    expect(gated.halt).toEqual({ reason: 'awaiting_human', item: 1, detail: 'item 1 ("Count words") needs a person (GUARDRAILS.md gates this work): rotates the production key' });
    for (const reason of ['premise', 'charter-contradiction', 'never-rule'] as const) {
      expect(reduce(base(), { type: 'needs-person', item: 1, reason, question: 'q' }, items).halt?.reason).toBe('escalation');
    }
    expect(reduce(gated, { type: 'needs-person', item: 1, reason: 'premise', question: 'q' }, items).halt).toEqual(gated.halt);
  });
});

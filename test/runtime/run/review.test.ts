import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../../runtime/plan/parse/index.js';
import { decideNext, handoffLabel, initialModel, itemOutcomes, outcomesText, reduceAll, reviewReport, type RunModel } from '../../../runtime/run/index.js';
import { DEFAULT_STOP_LIMITS } from '../../../runtime/run/index.js';
import { simulate, finding, review } from '../../workflow/harness.js';
import { finalReviewEvents } from '../../../runtime/hooks/stop/outcome.js';

// The SDD review loop's rules, once in the kernel (runtime/run/review.ts, decideNext).

describe('outcome labels: one mapping of the handoff', () => {
  it.each([
    [{ status: 'completed', concerns: [] }, 'DONE'],
    [{ status: 'completed', concerns: ['  '] }, 'DONE'],
    [{ status: 'completed', concerns: ['the cache is unbounded'] }, 'DONE_WITH_CONCERNS'],
    [{ status: 'partial', concerns: [] }, 'BLOCKED'],
    [{ status: 'blocked', blocked_reason: 'too-big: split it', concerns: [] }, 'BLOCKED'],
    [{ status: 'blocked', blocked_reason: 'needs-confirm: which format?', concerns: [] }, 'NEEDS_CONTEXT'],
    [{ status: 'blocked', blocked_reason: 'Ambiguous: two specs disagree', concerns: [] }, 'NEEDS_CONTEXT'],
  ])('%j is %s', (handoff, label) => {
    expect(handoffLabel(handoff)).toBe(label);
  });

  it("the journal's labels: concerns stay with the item until it is done; blocked, partial, escalation and needs-person show as such", () => {
    const events = [
      { event: 'outcome', item: 1, label: 'DONE_WITH_CONCERNS', concerns: ['slow on big files'] },
      { event: 'failure', item: 1, kind: 'verification' },
      { event: 'item-done', item: 1 },
      { event: 'item-done', item: 2 },
      { event: 'failure', item: 3, kind: 'partial' },
      { event: 'escalation', item: 4, question: 'which format?' },
      { event: 'needs-person', item: 5, reason: 'premise', question: 'is it still wanted?' },
      // concerns of an item never done do not make it done
      { event: 'outcome', item: 6, label: 'DONE_WITH_CONCERNS', concerns: ['x'] },
    ];
    expect(outcomesText(itemOutcomes(events))).toBe('1 DONE_WITH_CONCERNS (slow on big files), 2 DONE, 3 BLOCKED, 4 NEEDS_CONTEXT, 5 NEEDS_CONTEXT');
  });

  it("the report's follow-ups are the final review's non-blocking findings", () => {
    const report = reviewReport([{ event: 'final-review', findings: [finding('P0', true, 'broken'), finding('P1', false, 'old'), { ...finding('P2', true, 'typo'), type: 'docs' }] }]);
    expect(report.followUps).toEqual(['P1 defect src/a.ts:3: old (fix: use <=)', 'P2 docs src/a.ts:3: typo (fix: use <=)']);
  });
});

describe('the final review of the whole change: once per run, before plan_complete', () => {
  const items = parsePlan('- [x] One\n- [x] Two\n', 'PLAN.md').items;
  const step = (model: RunModel) => decideNext({ model, plan: { items, waves: [] }, limits: DEFAULT_STOP_LIMITS, autonomy: 'full' });
  const worked = { ...initialModel(), iteration: 2, routing: { statuses: { '1': 'ok', '2': 'ok' }, signals: {}, channel: {}, taken: [] } };

  it('a run that did work and has every item done is asked for it once, with the plan changes it has left', () => {
    const first = step({ ...worked, amendments_used: 1 });
    expect(first.effect).toEqual({ type: 'final-review', left: 2 });
    const after = reduceAll(worked, first.events, items);
    expect(after.final_reviews).toBe(1);
    expect(step(after).effect).toMatchObject({ type: 'stop', verdict: { reason: 'plan_complete' } });
  });

  it('a run that dispatched nothing is not reviewed (nothing changed)', () => {
    expect(step(initialModel()).effect).toMatchObject({ type: 'stop', verdict: { reason: 'plan_complete' } });
  });

  it('blocking findings nothing could fix stop the run with escalation, naming them', () => {
    const blocked = reduceAll({ ...worked, final_reviews: 1 }, [{ type: 'final-blocked', item: 2, detail: 'the final review found 1 blocking finding' }], items);
    expect(step(blocked).effect).toMatchObject({ type: 'stop', verdict: { reason: 'escalation', detail: 'the final review found 1 blocking finding' } });
  });
});

describe('the workflow: a blocking finding with the plan-change budget spent is a stop, not a silent pass', () => {
  it('three @feedback items spend the budget; the final review blocks; the run stops with escalation and the report keeps the follow-up', async () => {
    const plan = '- [ ] Count words\n- [ ] @feedback Ask for more\n';
    const adds = '```leopold-amend\nADD Add --json\nADD Add --csv\nADD Add --tsv\n```';
    const s = await simulate(plan, {
      answers: [
        { label: 'i2:feedback', answers: [{ value: { amendments: adds, summary: 'three more' } }] },
        { label: 'final:review', answers: [review([finding('P0', true, 'the items disagree'), { ...finding('P2', false, 'stale comment'), type: 'docs' }])] },
      ],
    });
    expect(s.result.stop).toBe('escalation');
    expect(s.result.detail).toMatch(/^the final review of the whole change found 1 blocking finding and no item could be added/);
    expect(s.result.detail).toContain('P0 defect src/a.ts:3: the items disagree');
    // Work items only (the @feedback node has no label); the three it added are done.
    expect(outcomesText(s.result.outcomes)).toBe('1 DONE, 3 DONE, 4 DONE, 5 DONE');
    expect(s.result.followUps).toEqual(['P2 docs src/a.ts:3: stale comment (fix: use <=)']);
  });

  it('a final reviewer that never answers stops the run: a silent reviewer never passes', async () => {
    const s = await simulate('- [ ] Count words\n', { answers: [{ label: 'final:review', answers: [{ die: true }, { die: true }] }] });
    expect(s.result.stop).toBe('escalation');
    expect(s.result.detail).toContain('gave no findings answer');
  });
});

describe("the session's final review, folded by the Stop hook", () => {
  const items = parsePlan('- [x] One\n- [x] Two\n', 'PLAN.md').items;
  const grown = parsePlan('- [x] One\n- [x] Two\n- [ ] Fix the final review\'s blocking findings: …\n', 'PLAN.md').items;
  const blocking = { event: 'final-review', findings: [finding('P0', true)] };

  it('no final-review event is a silent reviewer: escalation', () => {
    expect(finalReviewEvents(items, [], 2, 2)).toEqual([{ type: 'final-blocked', item: 2, detail: expect.stringContaining('gave no findings answer') }]);
  });

  it('only follow-ups: nothing stops the run', () => {
    expect(finalReviewEvents(items, [{ event: 'final-review', findings: [finding('P2', true)] }], 2, 2)).toEqual([]);
  });

  it('a blocking finding and the fix item added: the run goes on to it; none added: escalation naming the finding', () => {
    expect(finalReviewEvents(grown, [blocking], 2, 2)).toEqual([]);
    expect(finalReviewEvents(items, [blocking], 2, 2)).toEqual([{ type: 'final-blocked', item: 2, detail: expect.stringContaining('P0 defect src/a.ts:3: off by one') }]);
  });
});

import { describe, expect, it } from 'vitest';
import { BOUND_CODES, BOUNDS, judgeAmendments, parseAmendments, type AmendContext } from '../../../runtime/amend/index.js';
import { parsePlan } from '../../../runtime/plan/parse/index.js';

const PLAN = [
  '# Plan',
  '- [x] Set up the repo {#setup}',
  '- [ ] @gate review Check the design',
  '  @on fail -> 9',
  '  @on pass -> 4',
  '- [ ] @tool `npm test` {#tests}',
  '  @on exit!=0 -> 2',
  '- [ ] Ship it',
  '- [x] Old gate',
  '  @on fail -> 4',
  '',
].join('\n');
const ir = parsePlan(PLAN, 'PLAN.md');

function judge(lines: string[], context: AmendContext = 'repair', used = 0) {
  return judgeAmendments(parseAmendments(['```leopold-amend', ...lines, '```'].join('\n')), { ir, used, context });
}
const codeOf = (line: string, context: AmendContext = 'repair', used = 0) => {
  const { refused } = judge([line], context, used);
  return refused[0]?.code ?? 'accepted';
};

describe('judgeAmendments: every bound refuses with its code', () => {
  it('the bounds are the spec list, in order, one per file', () => {
    expect(BOUNDS.map((b) => b.code)).toEqual([...BOUND_CODES]);
  });

  it('accepts a well-formed ROUTE in a repair and ADDs anywhere', () => {
    expect(codeOf('ROUTE 2 fail -> 4')).toBe('accepted');
    expect(codeOf('ROUTE #tests exit != 0 -> #setup')).toBe('accepted');
    expect(codeOf('ADD (after: 3) Fix the flaky test', 'feedback')).toBe('accepted');
    expect(codeOf('ADD Write docs', 'runtime')).toBe('accepted');
  });

  it('add-budget: three changes per run, shared', () => {
    const { accepted, refused, used } = judge(['ADD one', 'ADD two', 'ADD three', 'ADD four']);
    expect(accepted).toHaveLength(3);
    expect(refused.map((r) => r.code)).toEqual(['add-budget']);
    expect(refused[0]!.detail).toMatch(/3 plan changes are spent/);
    expect(used).toBe(3);
    expect(codeOf('ADD one more', 'feedback', 3)).toBe('add-budget');
    expect(judge(['ADD a', 'ADD b'], 'feedback', 2).refused.map((r) => r.code)).toEqual(['add-budget']);
  });

  it('no-delete', () => {
    expect(codeOf('DELETE 4')).toBe('no-delete');
    expect(codeOf('REMOVE 2')).toBe('no-delete');
  });

  it('no-touch-done: routes of done items, edits of done items, any (un)tick', () => {
    expect(codeOf('ROUTE 5 fail -> 3')).toBe('no-touch-done');
    expect(codeOf('EDIT 1 new words')).toBe('no-touch-done');
    expect(codeOf('TICK 4')).toBe('no-touch-done');
    expect(codeOf('UNTICK #setup')).toBe('no-touch-done');
  });

  it('no-guardrails', () => {
    expect(codeOf('SET max_iterations 500')).toBe('no-guardrails');
    expect(codeOf('ADD Raise the limits in GUARDRAILS.md')).toBe('no-guardrails');
    expect(codeOf('GUARDRAILS autonomy: full')).toBe('no-guardrails');
  });

  it('add-only: existing text is never edited', () => {
    expect(codeOf('EDIT 4 Ship it carefully')).toBe('add-only');
    expect(codeOf('REWRITE 2 Check nothing')).toBe('add-only');
  });

  it('work-only: an ADD may not start with a kind marker', () => {
    expect(codeOf('ADD @gate Review again')).toBe('work-only');
    expect(codeOf('ADD (after: 2) @human Ask the owner')).toBe('work-only');
    expect(codeOf('ADD @node verify Check')).toBe('work-only');
  });

  it('malformed: empty, too long, bad (after:), target out of range, undeclared condition, unknown verb', () => {
    expect(codeOf('ADD')).toBe('malformed');
    expect(codeOf(`ADD ${'x'.repeat(301)}`)).toBe('malformed');
    expect(codeOf(`ADD ${'x'.repeat(300)}`)).toBe('accepted');
    expect(codeOf('ADD (after: 42) Something')).toBe('malformed');
    expect(codeOf('ADD (after: #nope) Something')).toBe('malformed');
    expect(codeOf('ADD (after: ) Something')).toBe('malformed');
    expect(codeOf('ROUTE 2 fail -> 42')).toBe('malformed');
    expect(codeOf('ROUTE 2 fail -> 0')).toBe('malformed');
    expect(codeOf('ROUTE 2 ok -> 4')).toBe('malformed'); // item 2 declares pass and fail, not ok
    expect(codeOf('ROUTE 77 fail -> 4')).toBe('malformed');
    expect(codeOf('ROUTE 2 fail')).toBe('malformed');
    expect(codeOf('FROB 2')).toBe('malformed');
  });

  it('malformed: a route re-pointed twice in one batch; a ROUTE may target an item added earlier in the batch', () => {
    const twice = judge(['ROUTE 2 fail -> 4', 'ROUTE 2 fail -> 3']);
    expect(twice.refused.map((r) => r.code)).toEqual(['malformed']);
    const added = judge(['ADD Fix what review found', 'ROUTE 2 fail -> 6']);
    expect(added.refused).toEqual([]);
    expect(codeOf('ROUTE 2 fail -> 6')).toBe('malformed');
  });

  it('repair-only: ROUTE is refused from a @feedback node', () => {
    expect(codeOf('ROUTE 2 fail -> 4', 'feedback')).toBe('repair-only');
    expect(codeOf('ROUTE 2 fail -> 4', 'runtime')).toBe('accepted');
  });

  it('every refusal carries the proposal, its code and a detail', () => {
    const { refused } = judge(['DELETE 4']);
    expect(refused[0]).toMatchObject({ code: 'no-delete', proposal: { verb: 'DELETE', raw: 'DELETE 4' } });
    expect(refused[0]!.detail.length).toBeGreaterThan(0);
  });

  it('bounds are judged in order: the first objection wins', () => {
    // Budget spent beats everything; a DELETE of guardrails is a deletion first.
    expect(codeOf('DELETE 4', 'repair', 3)).toBe('add-budget');
    expect(codeOf('DELETE GUARDRAILS.md')).toBe('no-delete');
    // A ROUTE from feedback that is also malformed is named malformed (malformed comes first).
    expect(codeOf('ROUTE 2 ok -> 4', 'feedback')).toBe('malformed');
  });
});

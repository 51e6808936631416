import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../../runtime/plan/parse/index.js';
import { apiErrorDetail } from '../../../runtime/api-error/index.js';
import { DEFAULT_STOP_LIMITS, decideNext, freezeWaves, initialModel, reduceAll, type NextInput } from '../../../runtime/run/index.js';

// decideNext, the one step both engines take, on the fact the workflow learns from its
// scribe's ack: an agent of the run died on an API error.

const stepOf = (plan: string, over: Partial<NextInput> = {}) => {
  const items = parsePlan(plan, 'PLAN.md').items;
  return decideNext({ model: initialModel(), plan: { items, waves: freezeWaves(items) }, limits: DEFAULT_STOP_LIMITS, autonomy: 'full', ...over });
};

describe('decideNext with an API error', () => {
  it('without one, the next item is dispatched', () => {
    expect(stepOf('- [ ] A\n- [ ] B\n').effect).toMatchObject({ type: 'dispatch', item: { index: 1 } });
    expect(stepOf('- [ ] A\n', { facts: { apiError: null } }).effect.type).toBe('dispatch');
  });

  it.each(['server_error', 'rate_limit', 'authentication_failed', 'billing_error'])('%s: the run stops api_error at once, dispatching nothing, retryable or not', (error) => {
    const step = stepOf('- [ ] A\n- [ ] B\n', { facts: { apiError: { error } } });
    expect(step.events).toEqual([]);
    expect(step.effect).toEqual({ type: 'stop', verdict: { reason: 'api_error', detail: apiErrorDetail(error, 'an agent') }, completion: null });
  });

  it('every item done after work: api_error comes before the final review and plan_complete', () => {
    const items = parsePlan('- [x] A\n', 'PLAN.md').items;
    const model = reduceAll(initialModel(), [{ type: 'dispatched', item: 1, done: 0 }, { type: 'succeeded', item: 1 }, { type: 'finished', outcome: { index: 1, status: 'ok' } }], items);
    const plain = decideNext({ model, plan: { items, waves: [] }, limits: DEFAULT_STOP_LIMITS, autonomy: 'full' });
    expect(plain.effect.type).toBe('final-review');
    const failed = decideNext({ model, plan: { items, waves: [] }, limits: DEFAULT_STOP_LIMITS, autonomy: 'full', facts: { apiError: { error: 'overloaded' } } });
    expect(failed.effect).toMatchObject({ type: 'stop', verdict: { reason: 'api_error' } });
  });

  it('the kill switch still comes first', () => {
    expect(stepOf('- [ ] A\n', { facts: { killSwitch: true, apiError: { error: 'server_error' } } }).effect).toMatchObject({ type: 'stop', verdict: { reason: 'kill_switch' } });
  });
});

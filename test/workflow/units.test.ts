import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Utf8 } from '../../runtime/workflow/base64.js';
import { blockingFindings, reviewersOf } from '../../runtime/workflow/work-item.js';
import { scribeCommands } from '../../runtime/workflow/context.js';
import { agentJsonSchemas } from '../../runtime/workflow/agent-schemas.js';

describe('base64Utf8', () => {
  it('matches Buffer for any string, lone surrogates included', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => base64Utf8(s) === Buffer.from(s, 'utf8').toString('base64')), { numRuns: 300 });
    expect(base64Utf8('')).toBe('');
    expect(base64Utf8('🎉 é')).toBe(Buffer.from('🎉 é').toString('base64'));
  });
});

describe('blocking findings', () => {
  const f = (severity: 'P0' | 'P1' | 'P2', introduced: boolean) => ({ severity, introduced, type: 'd', file: 'a', line: 1, problem: 'p', fix: 'f' });
  it('P0 always, P1 only when introduced, P2 never', () => {
    expect(blockingFindings([f('P0', false), f('P1', true), f('P1', false), f('P2', true)])).toEqual([f('P0', false), f('P1', true)]);
  });
  it('reviewers by risk', () => {
    const item = { id: 'i1', index: 1, text: '', scenarios: [], effort: 'low' as const, writes: [] };
    expect(reviewersOf({ ...item, critical: false, sensitive: false })).toEqual(['correctness']);
    expect(reviewersOf({ ...item, critical: true, sensitive: true })).toEqual(['correctness', 'security', 'works']);
  });
});

describe('scribe commands', () => {
  it('one record call with the base64 payload, then one tick per item', () => {
    const commands = scribeCommands({ decisions: [], events: [{ event: 'item-done', item: 2 }], ticks: [2, 5] });
    expect(commands).toEqual([
      `leopold record --base64 ${Buffer.from('{"events":[{"event":"item-done","item":2}]}').toString('base64')}`,
      'leopold plan tick 2 --json',
      'leopold plan tick 5 --json',
    ]);
  });
});

describe('agent schemas', () => {
  it('are generated from zod, draft-07 shaped, and embedded in the bundle as built', () => {
    const schemas = agentJsonSchemas();
    expect(Object.keys(schemas)).toEqual(['decision', 'feedback', 'handoff', 'judgement', 'persona', 'rescue', 'review', 'scribeAck', 'tool', 'verification']);
    for (const schema of Object.values(schemas)) {
      expect(schema).toMatchObject({ type: 'object' });
      expect(schema).not.toHaveProperty('$schema');
    }
    expect((schemas.review.properties as Record<string, { items: { properties: Record<string, unknown> } }>).findings!.items.properties).toHaveProperty('introduced');
  });
});

import { describe, expect, it } from 'vitest';
import { compileAgentSchema } from '../../runtime/host/schema.js';

// The stand-in host caches compiled validators by schema text (a script passes a fresh
// schema object to every agent() call). The cache must never hand one schema's validator
// to another.

const shape = (required: string[], extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: { status: { type: 'string', enum: ['completed', 'blocked'] }, note: { type: 'string' } },
  required,
  ...extra,
});

describe('compiled agent schemas', () => {
  it('give the same verdicts for an equal schema in a fresh object', () => {
    const first = compileAgentSchema(shape(['status']));
    const again = compileAgentSchema(structuredClone(shape(['status'])));
    for (const value of [{ status: 'completed' }, { status: 'done' }, { note: 'x' }, {}]) {
      expect(again.validate(value)).toBe(first.validate(value));
    }
    expect(again.validate({ status: 'done' })).toBe(false);
    expect(again.lastError()).toMatch(/status/);
  });

  it('keep schemas apart that differ anywhere, and ignore a shared $id', () => {
    const loose = compileAgentSchema(shape([], { $id: 'handoff' }));
    const strict = compileAgentSchema(shape(['status', 'note'], { $id: 'handoff' }));
    expect(loose.validate({})).toBe(true);
    expect(strict.validate({ status: 'completed' })).toBe(false);
    expect(compileAgentSchema(shape([], { $id: 'handoff' })).validate({})).toBe(true);
  });
});

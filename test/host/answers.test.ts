import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultAnswerFor, parseAnswerScript, type AnswerScript } from '../../runtime/host/index.js';
import { run } from './script.js';

describe('the answer script', () => {
  it('parses the documented shapes and refuses others with a one-line error', () => {
    const script = parseAnswerScript([
      { label: 'implement', answers: [{ value: { ok: true }, tokens: 10 }, { text: 'x' }, { skip: true }, { die: true }, { throw: 'stall' }, { invalid: 1 }] },
      { label: '/^review/i', answers: [{ value: 'r' }], once: true },
    ]);
    expect(script).toHaveLength(2);
    expect(() => parseAnswerScript([{ label: 'a', answers: [] }])).toThrow(/invalid answer script at 0\.answers/);
    expect(() => parseAnswerScript([{ label: 'a', answers: [{ skip: false }] }])).toThrow(/invalid answer script/);
    expect(() => parseAnswerScript([{ label: 'a', answers: [{ value: 1, extra: 2 }] }])).toThrow(/invalid answer script/);
    expect(() => parseAnswerScript({ label: 'a' })).toThrow(/invalid answer script at \(root\)/);
  });

  it('matches the label exactly or as /regex/, else the prompt first line; the first matching rule answers', async () => {
    const answers: AnswerScript = [
      { label: 'exact', answers: [{ text: 'by exact label' }] },
      { label: '/^rev/i', answers: [{ text: 'by regex' }] },
      { label: 'Plan the work', answers: [{ text: 'by first line' }] },
      { label: '/.*/', answers: [{ text: 'catch-all' }] },
    ];
    const outcome = await run(
      `return [await agent('p', { label: 'exact' }), await agent('p', { label: 'Review 1' }), await agent('Plan the work\\nmore'), await agent('p', { label: 'exactly' })];`,
      { answers },
    );
    expect(outcome.result).toEqual(['by exact label', 'by regex', 'by first line', 'catch-all']);
    expect(outcome.journal.map((call) => call.source)).toEqual([0, 1, 2, 3]);
  });

  it('consumes answers in order, repeats the last, and stops matching after the last with once', async () => {
    const answers: AnswerScript = [
      { label: 'rep', answers: [{ text: '1' }, { text: '2' }] },
      { label: 'one', answers: [{ text: 'only' }], once: true },
    ];
    const outcome = await run("const r = []; for (let i = 0; i < 3; i++) { r.push(await agent('x', { label: 'rep' }), await agent('y', { label: 'one' })); } return r;", { answers });
    expect(outcome.result).toEqual(['1', 'only', '2', 'ok', '2', 'ok']);
    expect(outcome.journal.map((call) => call.source)).toEqual([0, 1, 0, 'default', 0, 'default']);
  });

  it('returns non-string values as JSON text when the agent has no schema', async () => {
    const outcome = await run("return await agent('x', { label: 'v' });", { answers: [{ label: 'v', answers: [{ value: { a: 1 } }] }] });
    expect(outcome.result).toBe('{"a":1}');
  });
});

describe('default answers shaped from the schema', () => {
  it('fills required properties by type and leaves optional ones out', () => {
    expect(
      defaultAnswerFor({
        type: 'object',
        properties: {
          s: { type: 'string' }, n: { type: 'number' }, i: { type: 'integer', minimum: 3 }, x: { type: 'number', exclusiveMinimum: 0 },
          b: { type: 'boolean' }, a: { type: 'array', items: { type: 'string' } }, e: { enum: ['pass', 'fail'] }, c: { const: 'k' },
          o: { type: 'object', properties: { inner: { type: 'string', minLength: 2 } }, required: ['inner'] },
          u: { anyOf: [{ type: 'null' }, { type: 'string' }] }, nl: { type: ['string', 'null'] }, optional: { type: 'string' },
          r: { $ref: '#/$defs/thing' }, m: { type: 'array', minItems: 2, items: { type: 'integer' } },
        },
        required: ['s', 'n', 'i', 'x', 'b', 'a', 'e', 'c', 'o', 'u', 'nl', 'r', 'm'],
        $defs: { thing: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
      }),
    ).toEqual({ s: '', n: 0, i: 3, x: 1, b: true, a: [], e: 'pass', c: 'k', o: { inner: 'xx' }, u: null, nl: '', r: { id: 0 }, m: [0, 0] });
  });

  it('is what an unscripted agent with a schema answers, validated like any answer', async () => {
    const schema = "{ type: 'object', properties: { verdict: { enum: ['pass', 'fail'] }, findings: { type: 'array', items: {} } }, required: ['verdict', 'findings'] }";
    const outcome = await run(`return await agent('review', { schema: ${schema} });`);
    expect(outcome.result).toEqual({ verdict: 'pass', findings: [] });
    // A schema the default cannot satisfy fails its attempts: script that agent.
    const impossible = "{ type: 'object', properties: { s: { type: 'string', pattern: '^a' } }, required: ['s'] }";
    const failed = await run(`return await agent('x', { schema: ${impossible} });`);
    expect(failed.ok).toBe(false);
    expect(failed.error?.message).toMatch(/must match pattern/);
  });
});

describe('determinism', () => {
  const body = `
    phase('Work');
    const items = await pipeline(args.items, (item) => agent('implement ' + item, { label: 'implement' }), (prev, item) => agent('review ' + item, { label: 'review', schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }));
    const extra = await parallel(args.items.map((item, i) => async () => { await new Promise((r) => setTimeout(r, (i * 7919) % 3000)); return agent('late ' + item); }));
    phase('Close');
    await agent('summary');
    return { items, extra };`;
  const answers: AnswerScript = [
    { label: 'implement', answers: [{ text: 'done' }, { die: true }, { text: 'done again' }] },
    { label: 'review', answers: [{ invalid: 1 }, { value: { ok: false } }, { skip: true }, { value: { ok: true } }] },
    { label: '/^late/', answers: [{ text: 'l1' }, { throw: 'stall' }, { text: 'l3' }] },
  ];

  it('gives the same journal, logs, phases and result for the same script, args and answers', async () => {
    const args = { items: Array.from({ length: 30 }, (_, i) => `item-${i}`) };
    const first = await run(body, { args, answers });
    const second = await run(body, { args, answers });
    expect(first.ok).toBe(true);
    expect(second).toEqual(first);
    expect(first.journal.length).toBeGreaterThan(60);
  });

  it('holds for arbitrary item lists (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ maxLength: 8 }), { maxLength: 24 }), async (items) => {
        const first = await run(body, { args: { items }, answers });
        const second = await run(body, { args: { items }, answers });
        expect(second.journal).toEqual(first.journal);
        expect(second.result).toEqual(first.result);
      }),
      { numRuns: 15 },
    );
  });
});

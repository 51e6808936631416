import { describe, expect, it } from 'vitest';
import type { AnswerScript } from '../../runtime/host/index.js';
import { resultOf, run } from './script.js';

const SCHEMA = "{ type: 'object', properties: { ok: { type: 'boolean' }, note: { type: 'string' } }, required: ['ok'] }";

/** The error an awaited expression throws, as the script sees it. */
const caught = (expression: string) =>
  `try { await ${expression}; return 'resolved'; } catch (e) { return { isError: e instanceof Error, frozen: Object.isFrozen(e), keys: Object.keys(e), name: e.name, message: e.message }; }`;

describe('agent() (docs/host-contract.md)', () => {
  it('resolves to the final text without a schema ("ok" by default) and passes a non-string prompt as "[object]"', async () => {
    const outcome = await run("return [await agent('hi'), await agent({ task: 1 }), await agent(7)];");
    expect(outcome.result).toEqual(['ok', 'ok', 'ok']);
    expect(outcome.journal.map((call) => call.prompt)).toEqual(['hi', '[object]', '7']);
  });

  const invalidOptions: [string, RegExp][] = [
    ["{ effort: 'extreme' }", /effort must be one of low\|medium\|high\|xhigh\|max/],
    ["{ isolation: 'container' }", /isolation must be 'worktree'/],
    ['{ label: 3 }', /label must be a string/],
    ["{ label: '' }", /label must be a non-empty string/],
    ['{ model: false }', /model must be a string/],
    ['{ agentType: [] }', /agentType must be a string/],
    ['{ phase: {} }', /phase must be a string/],
    ["{ lable: 'typo' }", /unknown option "lable"/],
    ["'options'", /opts must be an object/],
    ['[1]', /opts must be an object/],
    ['{ label: () => 1 }', /opts.label must be JSON data/],
    ["{ schema: 'x' }", /schema must be an object/],
    ["{ schema: { type: 'array', items: {} } }", /type: 'object' at the root/],
    ["{ schema: { type: 'object' } }", /properties object at the root/],
    ["{ schema: { type: 'object', properties: { a: {} }, required: ['a', 'b'] } }", /required names "b", not in properties/],
    ["{ schema: { type: 'object', properties: { a: { type: 'nonsense' } } } }", /not a valid JSON Schema/],
  ];
  it.each(invalidOptions)('throws a TypeError on invalid options %s', async (options, message) => {
    const outcome = await run(caught(`agent('x', ${options})`));
    expect(outcome.result).toMatchObject({ isError: false, frozen: true, keys: ['name', 'message', 'stack'], name: 'TypeError' });
    expect((outcome.result as { message: string }).message).toMatch(message);
    expect(outcome.journal[0]).toMatchObject({ status: 'threw', source: null, attempts: 0, error: { name: 'TypeError' } });
  });

  it('accepts every documented option', async () => {
    const outcome = await run(
      `return await agent('x', { label: 'l', phase: 'p', schema: ${SCHEMA}, model: 'opus', effort: 'xhigh', isolation: 'worktree', agentType: 'reviewer' });`,
    );
    expect(outcome.result).toEqual({ ok: true });
    expect(outcome.journal[0]).toMatchObject({ label: 'l', phase: 'p', status: 'answered', answer: { ok: true } });
  });

  it('validates structured output and retries: 4 invalid then valid resolves; 5 invalid throws (as the real client)', async () => {
    const answers = (invalid: number): AnswerScript => [
      { label: 'check', answers: [...Array(invalid).fill({ invalid: 'garbage' }), { value: { ok: false, note: 'fine' } }] },
    ];
    const body = `return await agent('x', { label: 'check', schema: ${SCHEMA} });`;
    const four = await run(body, { answers: answers(4) });
    expect(four.result).toEqual({ ok: false, note: 'fine' });
    expect(four.journal[0]).toMatchObject({ attempts: 5, status: 'answered', tokens: 5000 });
    const five = await run(caught(`agent('x', { label: 'check', schema: ${SCHEMA} })`), { answers: answers(5) });
    expect(five.result).toMatchObject({ isError: false, frozen: true, name: 'Error' });
    expect((five.result as { message: string }).message).toMatch(/structured output failed the schema after 5 attempts/);
    expect(five.journal[0]).toMatchObject({ status: 'threw', attempts: 5 });
  });

  it('treats values failing the schema and unparsable text as failed attempts; parses JSON text', async () => {
    const answers: AnswerScript = [
      { label: 'a', answers: [{ value: { ok: 'yes' } }, { text: 'not json' }, { text: '{"ok":true}' }] },
      { label: 'b', answers: [{ value: { note: 'no ok' } }] },
    ];
    const outcome = await run(`return [await agent('x', { label: 'a', schema: ${SCHEMA} }), await agent('y', { label: 'b', schema: ${SCHEMA} }).catch((e) => e.message)];`, { answers });
    expect(outcome.result).toEqual([{ ok: true }, expect.stringMatching(/must have required property 'ok'/)]);
    expect(outcome.journal.map((call) => call.attempts)).toEqual([3, 5]);
  });

  it('does not enforce formats', async () => {
    const schema = "{ type: 'object', properties: { mail: { type: 'string', format: 'email' } }, required: ['mail'] }";
    const answers: AnswerScript = [{ label: 'm', answers: [{ value: { mail: 'not an email' } }] }];
    expect(await resultOf(`return await agent('x', { label: 'm', schema: ${schema} });`, { answers })).toEqual({ mail: 'not an email' });
  });

  it('resolves to null when the agent is skipped or dies; throws a plain error when it stalls', async () => {
    const answers: AnswerScript = [
      { label: 'skipped', answers: [{ skip: true }] },
      { label: 'dead', answers: [{ die: true }] },
      { label: 'stalled', answers: [{ throw: 'stall' }] },
    ];
    const outcome = await run(
      `return [await agent('a', { label: 'skipped', schema: ${SCHEMA} }), await agent('b', { label: 'dead' }), await (async () => { ${caught("agent('c', { label: 'stalled' })")} })()];`,
      { answers },
    );
    expect(outcome.result).toEqual([null, null, { isError: false, frozen: true, keys: ['name', 'message', 'stack'], name: 'Error', message: expect.stringMatching(/stalled/) }]);
    expect(outcome.journal.map((call) => call.status)).toEqual(['null', 'null', 'threw']);
    expect(outcome.journal.map((call) => call.tokens)).toEqual([0, 1000, 1000]);
  });

  it('runs at most 16 agents at once (40 in parallel)', async () => {
    const outcome = await run('return (await parallel(Array.from({ length: 40 }, (_, i) => () => agent(`task ${i}`)))).length;');
    expect(outcome.result).toBe(40);
    expect(outcome.stats.maxConcurrency).toBe(16);
    expect(outcome.stats.agents).toBe(40);
    // 40 agents, 16 at a time, one virtual second each: three waves.
    expect(outcome.stats.virtualMs).toBe(3000);
  });

  it('caps a run at 1,000 agents: the 1,001st call throws', async () => {
    const outcome = await run(`
      await parallel(Array.from({ length: 1000 }, (_, i) => () => agent('a' + i)));
      ${caught("agent('one too many')")}`);
    expect(outcome.result).toMatchObject({ isError: false, name: 'Error', message: 'agent(): the run reached the 1,000-agent cap' });
    expect(outcome.journal).toHaveLength(1001);
    expect(outcome.stats.agents).toBe(1000);
  });

  it('throws once the token budget is spent, and reports it through budget', async () => {
    const answers: AnswerScript = [{ label: '/^step/', answers: [{ text: 'done', tokens: 400 }] }];
    const outcome = await run(
      `const seen = [budget.total, budget.spent(), budget.remaining()];
       const results = [];
       for (let i = 0; i < 4; i++) {
         try { results.push(await agent('step ' + i)); } catch (e) { results.push(e.name + ': ' + e.message); }
         seen.push(budget.spent(), budget.remaining());
       }
       return { seen, results, frozen: Object.isFrozen(budget) };`,
      { answers, budgetTotal: 1000 },
    );
    expect(outcome.result).toEqual({
      seen: [1000, 0, 1000, 400, 600, 800, 200, 1200, 0, 1200, 0],
      results: ['done', 'done', 'done', 'Error: agent(): the token budget is spent (1200 of 1000 tokens)'],
      frozen: true,
    });
  });

  it('has an unlimited budget by default', async () => {
    expect(await resultOf('await agent("x"); return [budget.total, budget.spent(), budget.remaining() === Infinity];')).toEqual([null, 1000, true]);
  });

  it('fails agents still waiting for a slot once the budget is spent', async () => {
    const outcome = await run('return await parallel(Array.from({ length: 20 }, () => () => agent("x")));', { budgetTotal: 1 });
    expect(outcome.result).toEqual([...Array(16).fill('ok'), ...Array(4).fill(null)]);
    expect(outcome.journal.slice(16).every((call) => call.status === 'threw' && /budget/.test(call.error?.message ?? ''))).toBe(true);
  });

  it('records the phase from phase() or opts.phase', async () => {
    const outcome = await run("await agent('a'); phase('Build'); await agent('b'); await agent('c', { phase: 'Other' }); phase('Check'); await agent('d');");
    expect(outcome.phases).toEqual(['Build', 'Check']);
    expect(outcome.journal.map((call) => call.phase)).toEqual([null, 'Build', 'Other', 'Check']);
  });
});

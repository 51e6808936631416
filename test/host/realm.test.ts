import { describe, expect, it } from 'vitest';
import { runWorkflowScript } from '../../runtime/host/index.js';
import { resultOf, run, script } from './script.js';

describe('the sandbox realm (docs/host-contract.md)', () => {
  it('has exactly the documented globals besides the standard intrinsics', async () => {
    const present = ['agent', 'parallel', 'pipeline', 'workflow', 'phase', 'log', 'console', 'budget', 'args', 'setTimeout', 'clearTimeout'];
    const types = await resultOf(`return [${present.map((name) => `typeof ${name}`).join(', ')}];`, { args: {} });
    expect(types).toEqual(['function', 'function', 'function', 'function', 'function', 'function', 'object', 'object', 'object', 'function', 'function']);
    const consoleMethods = await resultOf("return ['log', 'info', 'debug', 'error', 'warn'].map((m) => typeof console[m]);");
    expect(consoleMethods).toEqual(Array(5).fill('function'));
  });

  const absent = [
    'require', 'process', 'fetch', 'URL', 'Buffer', 'TextEncoder', 'structuredClone', 'setInterval', 'btoa',
    'WebAssembly', 'WeakRef', 'Atomics', 'SharedArrayBuffer', 'queueMicrotask', 'module', 'exports', 'setImmediate', 'meta',
  ];
  it.each(absent)('has no %s', async (name) => {
    expect(await resultOf(`return typeof ${name};`)).toBe('undefined');
    expect(await resultOf(`return '${name}' in globalThis;`)).toBe(false);
  });

  it('makes the clock and randomness throw: Date.now(), Math.random(), new Date(), Date()', async () => {
    const probes = ['Date.now()', 'Math.random()', 'new Date()', 'Date()', 'Date(0)', 'new Date(0).constructor.now()', 'globalThis.Date.now()'];
    for (const probe of probes) {
      const outcome = await run(`return ${probe};`);
      expect(outcome.ok, probe).toBe(false);
      expect(outcome.error?.message, probe).toMatch(/is not available in a workflow \(runs must replay on resume\)/);
    }
  });

  it('keeps new Date(x), Date.parse, Date.UTC and subclasses working', async () => {
    const result = await resultOf(`
      class Day extends Date {}
      return [new Date(0).toISOString(), new Date('2024-05-01T00:00:00Z').getTime(), Date.parse('1970-01-02T00:00:00Z'),
        Date.UTC(2000, 0, 1), new Date(2000, 0, 1, 12) instanceof Date, new Day(5).getTime(), new Date(0).constructor === Date];`);
    expect(result).toEqual(['1970-01-01T00:00:00.000Z', 1714521600000, 86400000, 946684800000, true, 5, true]);
  });

  it('freezes built-in prototypes and JSON / Math / Reflect (strict-mode assignment throws)', async () => {
    const targets = [
      'Array.prototype.x = 1', 'Object.prototype.x = 1', 'Function.prototype.x = 1', 'String.prototype.x = 1',
      'Promise.prototype.then = null', 'Date.prototype.x = 1', 'Error.prototype.x = 1', 'Map.prototype.x = 1',
      'RegExp.prototype.x = 1', 'JSON.x = 1', 'Math.random = () => 4', 'Reflect.x = 1', 'Date.now = () => 0',
      'Object.getPrototypeOf(Uint8Array.prototype).x = 1', 'Object.getPrototypeOf([][Symbol.iterator]()).x = 1',
      'Object.getPrototypeOf(async () => {}).x = 1',
    ];
    for (const target of targets) {
      const outcome = await run(`${target};\nreturn 'assigned';`);
      expect(outcome.ok, target).toBe(false);
      expect(outcome.error?.name, target).toBe('TypeError');
    }
  });

  it('refuses eval and new Function, also through the host functions it exposes', async () => {
    const probes = ["eval('1')", "new Function('return 1')()", "agent.constructor('return process')()", "(async () => {}).constructor('return 1')()",
      "setTimeout.constructor('return 1')()", "budget.spent.constructor('return 1')()"];
    for (const probe of probes) {
      const outcome = await run(`return ${probe};`);
      expect(outcome.ok, probe).toBe(false);
      expect(outcome.error?.name, probe).toBe('EvalError');
    }
  });

  it('returns the top-level return value as the JSON-cloned result', async () => {
    expect(await resultOf('return 42;')).toBe(42);
    const cloned = await resultOf("return { d: new Date(0), u: undefined, f: () => 1, n: NaN, nested: [1, { a: 'b' }] };");
    expect(cloned).toEqual({ d: '1970-01-01T00:00:00.000Z', n: null, nested: [1, { a: 'b' }] });
    const none = await run('const x = 1;');
    expect(none.ok).toBe(true);
    expect('result' in none).toBe(false);
  });

  it('fails the run when the result cannot be JSON-cloned or holds an oversized array', async () => {
    const cyclic = await run('const a = {}; a.a = a; return a;');
    expect(cyclic.ok).toBe(false);
    expect(cyclic.error?.message).toMatch(/not JSON-cloneable/);
    expect((await run('return { list: Array(4096).fill(0) };')).ok).toBe(true);
    const big = await run('return { list: Array(4097).fill(0) };');
    expect(big.ok).toBe(false);
    expect(big.error).toEqual({ name: 'RangeError', message: 'result.list holds 4097 elements; arrays crossing the host boundary hold at most 4096' });
  });

  it('deep-copies args and refuses args with an oversized array', async () => {
    const args = { list: [1, 2], nested: { x: 'y' } };
    expect(await resultOf('args.list.push(3); args.nested.x = 1; return args;', { args })).toEqual({ list: [1, 2, 3], nested: { x: 1 } });
    expect(args).toEqual({ list: [1, 2], nested: { x: 'y' } });
    expect(await resultOf('return args;', { args: 'some text' })).toBe('some text');
    expect(await resultOf('return typeof args;')).toBe('undefined');
    const big = await run('return 1;', { args: { items: [Array(4097).fill(1)] } });
    expect(big.ok).toBe(false);
    expect(big.error?.message).toBe('args.items[0] holds 4097 elements; arrays crossing the host boundary hold at most 4096');
    expect(big.journal).toEqual([]);
  });

  it('marks the run failed with the thrown error, whatever was thrown', async () => {
    expect((await run("throw new TypeError('bad');")).error).toEqual({ name: 'TypeError', message: 'bad' });
    expect((await run("throw 'text';")).error).toEqual({ name: 'Error', message: 'text' });
    expect((await run("throw { name: 'Custom', message: 'm' };")).error).toEqual({ name: 'Custom', message: 'm' });
  });

  it('runs setTimeout on a virtual clock, honours clearTimeout and fails on a throwing callback', async () => {
    const order = await resultOf(`
      const seen = [];
      const cancelled = setTimeout(() => seen.push('never'), 10);
      clearTimeout(cancelled);
      await new Promise((resolve) => { setTimeout(() => seen.push('late'), 600000); setTimeout((x) => { seen.push(x); resolve(); }, 50, 'early'); });
      await new Promise((resolve) => setTimeout(resolve, 600000));
      return seen;`);
    expect(order).toEqual(['early', 'late']);
    const thrown = await run("setTimeout(() => { throw new Error('tick'); }, 5); await new Promise((r) => setTimeout(r, 10)); return 1;");
    expect(thrown.ok).toBe(false);
    expect(thrown.error).toEqual({ name: 'Error', message: 'uncaught in a setTimeout callback: tick' });
  });

  it('reports a workflow waiting on nothing instead of hanging', async () => {
    const outcome = await run('await new Promise(() => {}); return 1;');
    expect(outcome.ok).toBe(false);
    expect(outcome.error?.message).toMatch(/waits on nothing/);
  });

  it('stops a first synchronous slice that runs past the limit', async () => {
    const outcome = await runWorkflowScript(script('for (;;) {}'), { timeoutMs: 200 });
    expect(outcome.ok).toBe(false);
    expect(outcome.error?.message).toMatch(/timed out/);
  });

  it('logs an unhandled rejection of the script instead of crashing the process', async () => {
    const outcome = await run("Promise.reject(new Error('lost')); await new Promise((r) => setTimeout(r, 10)); return 1;");
    expect(outcome.ok).toBe(true);
    expect(outcome.logs).toContain('[host] unhandled rejection: Error: lost');
  });

  it('keeps the most recent 1,000 log lines and formats console arguments', async () => {
    const outcome = await run("for (let i = 0; i < 1005; i++) log('line ' + i); console.warn('w', { a: 1 }, [2]); console.error(new TypeError('e'));");
    expect(outcome.logs).toHaveLength(1000);
    expect(outcome.stats.logsDropped).toBe(7);
    expect(outcome.logs.slice(-3)).toEqual(['line 1004', 'w {"a":1} [2]', 'TypeError: e']);
  });

  it('refuses nested workflows with a plain error', async () => {
    const error = await resultOf('try { await workflow({}); } catch (e) { return [e instanceof Error, Object.isFrozen(e), e.name, e.message]; }');
    expect(error).toEqual([false, true, 'Error', 'workflow(): a workflow cannot start another workflow']);
  });

  it('gives every run a fresh realm', async () => {
    await run('globalThis.leak = 1; Array.leak = 2;');
    expect(await resultOf("return [typeof leak, typeof Array.leak];")).toEqual(['undefined', 'undefined']);
  });
});

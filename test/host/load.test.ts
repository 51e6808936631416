import { describe, expect, it } from 'vitest';
import { checkWorkflowScript } from '../../compiler/emit/check/index.js';
import { MAX_SCRIPT_BYTES, runWorkflowScript, type HostRun } from '../../runtime/host/index.js';
import { META, script } from './script.js';

const load = (source: string, withCheck = true): Promise<HostRun> =>
  runWorkflowScript(source, withCheck ? { staticCheck: checkWorkflowScript } : {});

async function refusal(source: string, withCheck = true): Promise<string> {
  const outcome = await load(source, withCheck);
  expect(outcome.ok).toBe(false);
  expect(outcome.error?.name).toBe('HostLoadError');
  expect(outcome.journal).toEqual([]);
  return outcome.violations?.[0]?.code ?? 'none';
}

describe('loader refusals (docs/host-contract.md), with and without the static check', () => {
  const cases: [string, string, string][] = [
    ['an ESC character', script("log('\u001b[1m');"), 'host-contract/escape-character'],
    ['a bare CR', `${META}\rreturn 1;\n`, 'host-contract/bare-carriage-return'],
    ['a syntax error', script('return (;'), 'host-contract/syntax'],
    ['no meta first', `const x = 1;\n${META}\n`, 'host-contract/meta-first'],
    ['an empty file', '', 'host-contract/meta-first'],
    ['meta with let', "export let meta = { name: 'a', description: 'b' };\n", 'host-contract/meta-first'],
    ['meta not an object', "export const meta = 'x';\n", 'host-contract/meta-first'],
    ['meta with an identifier', "const n = 'a';\nexport const meta = { name: n, description: 'b' };\n", 'host-contract/meta-first'],
    ['meta with an identifier value', "export const meta = { name: n, description: 'b' };\n", 'host-contract/meta-literal'],
    ['meta with a call', "export const meta = { name: String(1), description: 'b' };\n", 'host-contract/meta-literal'],
    ['meta with a spread', "export const meta = { ...{ name: 'a' }, description: 'b' };\n", 'host-contract/meta-literal'],
    ['meta with a computed key', "export const meta = { ['name']: 'a', description: 'b' };\n", 'host-contract/meta-literal'],
    ['meta with a method', "export const meta = { name: 'a', description: 'b', f() {} };\n", 'host-contract/meta-literal'],
    ['meta with ${} in a template', "export const meta = { name: `a${1}`, description: 'b' };\n", 'host-contract/meta-literal'],
    ['meta with a __proto__ key', "export const meta = { name: 'a', description: 'b', __proto__: null };\n", 'host-contract/meta-literal'],
    ['meta with a constructor key', "export const meta = { name: 'a', description: 'b', constructor: 1 };\n", 'host-contract/meta-literal'],
    ['meta without a name', "export const meta = { description: 'b' };\n", 'host-contract/meta-field'],
    ['meta with an empty description', "export const meta = { name: 'a', description: '  ' };\n", 'host-contract/meta-field'],
    ['meta with bad phases', "export const meta = { name: 'a', description: 'b', phases: [{ detail: 'x' }] };\n", 'host-contract/meta-field'],
    ['another export', script('export const x = 1;'), 'host-contract/export'],
    ['an import', `${META}\nimport fs from 'node:fs';\n`, 'host-contract/import'],
    ['a dynamic import', script("await import('node:fs');"), 'host-contract/dynamic-import'],
    ['import.meta', script('log(import.meta.url);'), 'host-contract/import'],
    ['a with statement', script('with ({}) {}'), 'host-contract/with'],
    ['a hashbang', `#!/usr/bin/env node\n${META}\n`, 'host-contract/syntax'],
  ];
  for (const [what, source, code] of cases) {
    it(`refuses ${what} (${code})`, async () => {
      expect(await refusal(source, true)).toBe(code);
    });
    it(`refuses ${what} without the static check`, async () => {
      // Without the check the runtime steps still refuse; `with` is then a strict-mode syntax error.
      const expected = code === 'host-contract/with' ? 'host-contract/syntax' : code;
      expect(await refusal(source, false)).toBe(expected);
    });
  }

  it('refuses a script over 524,288 bytes, counting raw bytes', async () => {
    const filler = `// ${'x'.repeat(MAX_SCRIPT_BYTES)}\n`;
    expect(await refusal(script(filler))).toBe('host-contract/size');
    expect(await refusal(script(filler), false)).toBe('host-contract/size');
    const exact = script('return 1;');
    const padded = exact + '/'.repeat(0) + `//${'y'.repeat(MAX_SCRIPT_BYTES - Buffer.byteLength(exact) - 3)}\n`;
    expect(Buffer.byteLength(padded)).toBe(MAX_SCRIPT_BYTES);
    expect((await load(padded)).ok).toBe(true);
  });

  it('refuses what only the static check sees: __wRg$ names and missing semicolons', async () => {
    expect(await refusal(script('const __wRg$x = 1;'))).toBe('host-contract/reserved-identifier');
    expect(await refusal(script('const a = 1\nreturn a;'))).toBe('host-contract/missing-semicolon');
    expect((await load(script('const a = 1\nreturn a;'), false)).ok).toBe(true);
  });

  it('does not refuse what the realm reproduces at run time (Date.now, absent globals, meta)', async () => {
    const outcome = await load(script("try { Date.now(); } catch (e) { return typeof process + ':' + e.message; }"));
    expect(outcome.ok).toBe(true);
    expect(outcome.result).toMatch(/^undefined:Date\.now\(\) is not available/);
    const meta = await load(script('return meta.name;'));
    expect(meta.ok).toBe(false);
    expect(meta.error).toEqual({ name: 'ReferenceError', message: 'meta is not defined' });
  });

  it('accepts comments before meta, CRLF line endings and a body declaring its own meta', async () => {
    const source = `// a workflow\r\n/* more */\r\n${META}\r\nconst meta = 2;\r\nreturn meta;\r\n`;
    const outcome = await load(source);
    expect(outcome.ok).toBe(true);
    expect(outcome.result).toBe(2);
    expect(outcome.meta).toEqual({ name: 'test', description: 'a test workflow' });
  });

  it('evaluates the meta literal without running it: templates, negatives, nested values, quoted keys', async () => {
    const source = "export const meta = { name: `n`, description: 'd', 'when-x': -1.5, phases: [{ title: 'P', model: 'm' }], n: null, t: true, a: [1, 'two'] };\nreturn 0;\n";
    const outcome = await load(source);
    expect(outcome.meta).toEqual({ name: 'n', description: 'd', 'when-x': -1.5, phases: [{ title: 'P', model: 'm' }], n: null, t: true, a: [1, 'two'] });
  });

  it('keeps line numbers: an error on line 3 of the file reports line 3', async () => {
    const outcome = await load(`${META}\n\nreturn new Error('x').stack;\n`);
    expect(outcome.result).toMatch(/workflow\.js:3:/);
  });
});

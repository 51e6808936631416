import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LeopoldError } from '../../compiler/diagnostics/diagnostic.js';
import {
  HOST_CONTRACT_CODES,
  HOST_SCRIPT_MAX_BYTES,
  assertWorkflowScript,
  checkWorkflowScript,
  type HostContractCode,
} from '../../compiler/emit/check/index.js';

const META = "export const meta = { name: 'leopold-workflow-run', description: 'Runs the plan.' };\n";
const withBody = (body: string) => `${META}${body}\n`;
const codesOf = (source: string) => checkWorkflowScript(source, 'w.js').map((v) => v.code);

type Failing = [name: string, source: string, code: HostContractCode];

const failing: Failing[] = [
  // §1 size and characters
  ['over 512 KiB', withBody(`const pad = '${'x'.repeat(HOST_SCRIPT_MAX_BYTES)}';`), 'host-contract/size'],
  ['a raw ESC in a string', withBody("log('\u001b[31mred');"), 'host-contract/escape-character'],
  ['a bare CR', withBody('const a = 1;\rconst b = 2;'), 'host-contract/bare-carriage-return'],
  // §1 parsing
  ['a syntax error', withBody('const = 1;'), 'host-contract/syntax'],
  ['a duplicate declaration in the body', withBody('let a = 1;\nlet a = 2;'), 'host-contract/syntax'],
  ['meta declared twice in the meta statement', "export const meta = { name: 'a', description: 'b' }, meta = 1;", 'host-contract/meta-first'],
  ['TypeScript', withBody('const a: number = 1;'), 'host-contract/syntax'],
  ['sloppy-mode octal', withBody('const a = 010;'), 'host-contract/syntax'],
  ['a hashbang', `#!/usr/bin/env node\n${META}`, 'host-contract/syntax'],
  ['with', withBody('with (obj) { a; }'), 'host-contract/with'],
  // §1 meta first
  ['an empty file', '', 'host-contract/meta-first'],
  ['only comments', '// nothing\n/* here */\n', 'host-contract/meta-first'],
  ['a statement before meta', `const x = 1;\n${META}`, 'host-contract/meta-first'],
  ['a use strict directive before meta', `'use strict';\n${META}`, 'host-contract/meta-first'],
  ['let meta', "export let meta = { name: 'a', description: 'b' };", 'host-contract/meta-first'],
  ['var meta', "export var meta = { name: 'a', description: 'b' };", 'host-contract/meta-first'],
  ['meta and another declarator', "export const meta = { name: 'a', description: 'b' }, x = 1;", 'host-contract/meta-first'],
  ['meta not an object', "export const meta = 'workflow';", 'host-contract/meta-first'],
  ['meta as an array', "export const meta = [{ name: 'a', description: 'b' }];", 'host-contract/meta-first'],
  ['export default first', "export default { name: 'a', description: 'b' };", 'host-contract/meta-first'],
  ['a function first', 'function meta() {}', 'host-contract/meta-first'],
  // §1 meta is a pure literal
  ['an identifier', "export const meta = { name: NAME, description: 'b' };", 'host-contract/meta-literal'],
  ['undefined', "export const meta = { name: 'a', description: 'b', title: undefined };", 'host-contract/meta-literal'],
  ['a call', "export const meta = { name: String('a'), description: 'b' };", 'host-contract/meta-literal'],
  ['a new', "export const meta = { name: 'a', description: 'b', x: new Set() };", 'host-contract/meta-literal'],
  ['a spread', "export const meta = { ...base, name: 'a', description: 'b' };", 'host-contract/meta-literal'],
  ['an array spread', "export const meta = { name: 'a', description: 'b', tags: [...t] };", 'host-contract/meta-literal'],
  ['a computed key', "export const meta = { ['name']: 'a', description: 'b' };", 'host-contract/meta-literal'],
  ['a method', "export const meta = { name: 'a', description: 'b', run() {} };", 'host-contract/meta-literal'],
  ['a getter', "export const meta = { get name() { return 'a'; }, description: 'b' };", 'host-contract/meta-literal'],
  ['a setter', "export const meta = { name: 'a', description: 'b', set x(v) {} };", 'host-contract/meta-literal'],
  ['a shorthand', "export const meta = { name, description: 'b' };", 'host-contract/meta-literal'],
  ['__proto__', "export const meta = { name: 'a', description: 'b', __proto__: null };", 'host-contract/meta-literal'],
  ["'__proto__' quoted", "export const meta = { name: 'a', description: 'b', '__proto__': {} };", 'host-contract/meta-literal'],
  ['constructor', "export const meta = { name: 'a', description: 'b', constructor: 1 };", 'host-contract/meta-literal'],
  ['nested prototype', "export const meta = { name: 'a', description: 'b', x: { prototype: 1 } };", 'host-contract/meta-literal'],
  ['a template with ${}', 'export const meta = { name: `run-${v}`, description: "b" };', 'host-contract/meta-literal'],
  ['a tagged template', "export const meta = { name: String.raw`a`, description: 'b' };", 'host-contract/meta-literal'],
  ['a regex', "export const meta = { name: 'a', description: 'b', match: /x/ };", 'host-contract/meta-literal'],
  ['a BigInt', "export const meta = { name: 'a', description: 'b', n: 1n };", 'host-contract/meta-literal'],
  ['an array hole', "export const meta = { name: 'a', description: 'b', xs: [1, , 2] };", 'host-contract/meta-literal'],
  ['a binary expression', "export const meta = { name: 'a' + 'b', description: 'b' };", 'host-contract/meta-literal'],
  ['an arrow function', "export const meta = { name: 'a', description: 'b', f: () => 1 };", 'host-contract/meta-literal'],
  ['negation of a string', "export const meta = { name: 'a', description: 'b', n: -'1' };", 'host-contract/meta-literal'],
  // §1 meta fields
  ['no name', "export const meta = { description: 'b' };", 'host-contract/meta-field'],
  ['no description', "export const meta = { name: 'a' };", 'host-contract/meta-field'],
  ['an empty name', "export const meta = { name: '', description: 'b' };", 'host-contract/meta-field'],
  ['a blank description', "export const meta = { name: 'a', description: '   ' };", 'host-contract/meta-field'],
  ['a numeric name', "export const meta = { name: 1, description: 'b' };", 'host-contract/meta-field'],
  ['phases not an array', "export const meta = { name: 'a', description: 'b', phases: 'x' };", 'host-contract/meta-field'],
  ['a phase without title', "export const meta = { name: 'a', description: 'b', phases: [{ detail: 'd' }] };", 'host-contract/meta-field'],
  ['a phase as a string', "export const meta = { name: 'a', description: 'b', phases: ['plan'] };", 'host-contract/meta-field'],
  ['a numeric phase model', "export const meta = { name: 'a', description: 'b', phases: [{ title: 't', model: 4 }] };", 'host-contract/meta-field'],
  ['whenToUse not a string', "export const meta = { name: 'a', description: 'b', whenToUse: ['x'] };", 'host-contract/meta-field'],
  ['title null', "export const meta = { name: 'a', description: 'b', title: null };", 'host-contract/meta-field'],
  // §1 no other export, no import
  ['a second export', withBody('export const other = 1;'), 'host-contract/export'],
  ['export default', withBody('export default 1;'), 'host-contract/export'],
  ['export a list', withBody('const a = 1;\nexport { a };'), 'host-contract/export'],
  ['export star', withBody("export * from './x.js';"), 'host-contract/export'],
  ['export a function', withBody('export function f() {}'), 'host-contract/export'],
  ['an import', withBody("import fs from 'node:fs';"), 'host-contract/import'],
  ['a bare import', withBody("import './side-effect.js';"), 'host-contract/import'],
  ['an import before meta', `import x from 'x';\n${META}`, 'host-contract/import'],
  ['import.meta', withBody('const u = import.meta.url;'), 'host-contract/import'],
  // §1 body refusals
  ['dynamic import', withBody("const m = await import('node:fs');"), 'host-contract/dynamic-import'],
  ['dynamic import in a function', withBody("async function f() { return import('x'); }"), 'host-contract/dynamic-import'],
  ['a __wRg$ variable', withBody('const __wRg$x = 1;'), 'host-contract/reserved-identifier'],
  ['a __wRg$ property', withBody('const a = obj.__wRg$state;'), 'host-contract/reserved-identifier'],
  ['a __wRg$ key', withBody('const a = { __wRg$k: 1 };'), 'host-contract/reserved-identifier'],
  ['a __wRg$ private name', withBody('class A { #__wRg$p = 1; }'), 'host-contract/reserved-identifier'],
  ['an escaped __wRg$', withBody('const \\u005f_wRg$x = 1;'), 'host-contract/reserved-identifier'],
  // §2 forbidden globals
  ['require', withBody("const fs = require('fs');"), 'host-contract/forbidden-global'],
  ['process.env', withBody('const home = process.env.HOME;'), 'host-contract/forbidden-global'],
  ['typeof process', withBody("const node = typeof process !== 'undefined';"), 'host-contract/forbidden-global'],
  ['fetch', withBody("await fetch('https://example.com');"), 'host-contract/forbidden-global'],
  ['eval', withBody("eval('1');"), 'host-contract/forbidden-global'],
  ['indirect eval', withBody("(0, eval)('1');"), 'host-contract/forbidden-global'],
  ['new Function', withBody("const f = new Function('return 1');"), 'host-contract/forbidden-global'],
  ['Function call', withBody("const f = Function('return 1');"), 'host-contract/forbidden-global'],
  ['Function alias', withBody('const F = Function;'), 'host-contract/forbidden-global'],
  ['globalThis.process', withBody('const p = globalThis.process;'), 'host-contract/forbidden-global'],
  ["globalThis['eval']", withBody("globalThis['eval']('1');"), 'host-contract/forbidden-global'],
  ['globalThis[`fetch`]', withBody('globalThis[`fetch`]("x");'), 'host-contract/forbidden-global'],
  ['globalThis?.require', withBody("globalThis?.require('x');"), 'host-contract/forbidden-global'],
  ['a shorthand property', withBody('const o = { process };'), 'host-contract/forbidden-global'],
  ['a default parameter', withBody('function f(x = require) { return x; }'), 'host-contract/forbidden-global'],
  ['a local named process', withBody('const process = 1;'), 'host-contract/forbidden-global'],
  ['a parameter named eval', withBody('function f(fetch) { return 1; }'), 'host-contract/forbidden-global'],
  ['assigning fetch', withBody('fetch = null;'), 'host-contract/forbidden-global'],
  ['a computed member with require', withBody('const r = obj[require];'), 'host-contract/forbidden-global'],
  // §2 absent globals and meta
  ['URL', withBody("const u = new URL('https://x');"), 'host-contract/absent-global'],
  ['Buffer.from', withBody("const b = Buffer.from('x');"), 'host-contract/absent-global'],
  ['structuredClone', withBody('const c = structuredClone(x);'), 'host-contract/absent-global'],
  ['setInterval', withBody('setInterval(tick, 10);'), 'host-contract/absent-global'],
  ['globalThis.TextEncoder', withBody('const e = new globalThis.TextEncoder();'), 'host-contract/absent-global'],
  ['queueMicrotask', withBody('queueMicrotask(f);'), 'host-contract/absent-global'],
  ['meta in the body', withBody('log(meta.name);'), 'host-contract/meta-in-body'],
  // §2 replay determinism
  ['Date.now()', withBody('const t = Date.now();'), 'host-contract/date-now'],
  ['Date.now passed along', withBody('const clock = Date.now;'), 'host-contract/date-now'],
  ["Date['now']", withBody("const t = Date['now']();"), 'host-contract/date-now'],
  ['globalThis.Date.now', withBody('const t = globalThis.Date.now();'), 'host-contract/date-now'],
  ['Math.random()', withBody('const r = Math.random();'), 'host-contract/math-random'],
  ['globalThis.Math.random', withBody('const r = globalThis.Math.random();'), 'host-contract/math-random'],
  ['new Date()', withBody('const d = new Date();'), 'host-contract/current-date'],
  ['new Date without parens', withBody('const d = new Date;'), 'host-contract/current-date'],
  ['Date()', withBody('const s = Date();'), 'host-contract/current-date'],
  ['Date(x) as a function', withBody('const s = Date(0);'), 'host-contract/current-date'],
  ['new globalThis.Date()', withBody('const d = new globalThis.Date();'), 'host-contract/current-date'],
  // §1 semicolons
  ['a missing semicolon', withBody('const a = 1\nconst b = 2;'), 'host-contract/missing-semicolon'],
  ['a missing semicolon at the end', withBody('log(1)'), 'host-contract/missing-semicolon'],
  ['a return without semicolon', withBody('return 1'), 'host-contract/missing-semicolon'],
  ['a missing semicolon before }', withBody('function f() { return 1 }'), 'host-contract/missing-semicolon'],
  ['a class field without semicolon', withBody('class A { x = 1\n y = 2; }'), 'host-contract/missing-semicolon'],
  ['meta without semicolon', "export const meta = { name: 'a', description: 'b' }\n", 'host-contract/missing-semicolon'],
  ['a semicolon-less throw', withBody("throw new Error('x')"), 'host-contract/missing-semicolon'],
];

describe('checkWorkflowScript: one failing snippet per rule', () => {
  it.each(failing)('%s', (_, source, code) => {
    const violations = checkWorkflowScript(source, 'w.js');
    expect(violations.map((v) => v.code)).toContain(code);
    for (const v of violations) {
      expect(v.severity).toBe('error');
      expect(v.file).toBe('w.js');
      expect(v.message).toMatch(/^found .*; expected /);
      expect(v.hint).toBe(HOST_CONTRACT_CODES[v.code as HostContractCode].hint);
    }
  });

  it('covers every code', () => {
    const covered = new Set(failing.map(([, , code]) => code));
    expect([...covered].sort()).toEqual(Object.keys(HOST_CONTRACT_CODES).sort());
  });
});

const passing: [name: string, source: string][] = [
  ['the minimal script', META],
  ['a realistic body', withBody("phase('Plan');\nconst result = await agent('Do it', { label: 'worker' });\nreturn result;")],
  ['top-level await and return', withBody('const x = await Promise.resolve(1);\nreturn x;')],
  ['comments before meta', `// leopold-run.js: generated\n/* do not edit */\n/** @license MIT */\n${META}`],
  ['CRLF line endings', META.replace('\n', '\r\n') + 'const a = 1;\r\nreturn a;\r\n'],
  [
    'meta with nested arrays, objects, templates and numbers',
    `export const meta = {
  name: \`leopold-workflow-run\`,
  description: 'Runs the plan.',
  whenToUse: "When a plan is compiled",
  title: \`Leopold\`,
  phases: [{ title: 'Plan', detail: \`multi
line\` }, { title: 'Work', model: 'opus' }],
  tags: [['a', 'b'], [], [1, -2, 3.5, true, false, null]],
  nested: { deep: { deeper: [{}] } },
  'quoted-key': 1,
  42: 'numeric key',
};
`,
  ],
  ['an unknown meta key', "export const meta = { name: 'a', description: 'b', version: 3 };\n"],
  ['obj.process', withBody('const p = obj.process;')],
  ['a property named require', withBody('const o = { require: 1, eval: 2, Function: 3 };\nconst r = o.require;')],
  ['a method named fetch', withBody('class C { fetch() { return 1; } static eval = 2; }')],
  ['a label named process', withBody('process: for (;;) { break process; }')],
  ['new Date(0)', withBody('const d = new Date(0);')],
  ['new Date(args.timestamp)', withBody('const d = new Date(args.timestamp);')],
  ['Date.parse(x)', withBody("const t = Date.parse('2020-01-01');")],
  ['Date.UTC', withBody('const t = Date.UTC(2020, 0, 1);')],
  ['a Date reference', withBody('const isDate = (x) => x instanceof Date;')],
  ['obj.now and obj.random', withBody('const a = clock.now(); const b = rng.random();')],
  ['Math.floor', withBody('const n = Math.floor(1.5);')],
  ['a string containing eval(', withBody('const s = "eval(x) and require(y) and process.exit()";')],
  ['a template containing Date.now()', withBody('const s = `Date.now() and Math.random()`;')],
  ['a comment containing import()', withBody("// import('x') and with (o) {}\nconst a = 1;")],
  ['a regex containing with', withBody('const re = /with (x)/;')],
  ['typeof URL feature test', withBody("const hasUrl = typeof URL !== 'undefined';")],
  ['a local named URL', withBody('function URL(x) { return x; }\nconst u = URL(1);')],
  ['a property named meta', withBody('const m = result.meta;')],
  ['a local named meta', withBody('function f() { const meta = 1; return meta; }')],
  ['a body-level meta of its own (a bundled library)', withBody('var meta = { kind: 1 };\nlog(meta.kind);')],
  ['a body-level let meta', withBody('let meta = 2;')],
  ['an identifier containing __wRg$ later', withBody('const my__wRg$ = 1;')],
  ['a string "__wRg$"', withBody("const s = '__wRg$';")],
  ['an exported-looking string', withBody("const s = 'export default 1; import x from \"y\"';")],
  ['semicolons everywhere, do-while', withBody('let i = 0;\ndo { i++; } while (i < 3)\nreturn i;')],
  ['blocks and declarations need none', withBody('function f() { return 1; }\nclass A {}\nif (x) { y(); }\nfor (const a of b) { c(a); }')],
  ['an ESC written as an escape', withBody("log('\\u001b[31m');")],
  ['a CR written as an escape', withBody("const s = 'a\\rb';")],
  ['exactly 512 KiB', ''],
];

// Pad the last case to exactly the limit.
const exactIndex = passing.findIndex(([name]) => name === 'exactly 512 KiB');
{
  const head = `${META}const pad = '`;
  const tail = "';\n";
  passing[exactIndex] = ['exactly 512 KiB', head + 'x'.repeat(HOST_SCRIPT_MAX_BYTES - head.length - tail.length) + tail];
}

describe('checkWorkflowScript: near misses pass', () => {
  it.each(passing)('%s', (_, source) => {
    expect(checkWorkflowScript(source, 'w.js')).toEqual([]);
  });

  it('the exact-limit case is exactly at the limit', () => {
    expect(Buffer.byteLength(passing[exactIndex]![1])).toBe(HOST_SCRIPT_MAX_BYTES);
  });
});

describe('violation positions and messages', () => {
  it('points at the offending node, 1-based, end exclusive', () => {
    const [v] = checkWorkflowScript(withBody('const home = process.env.HOME;'), 'w.js');
    expect(v).toMatchObject({ line: 2, column: 14, endLine: 2, endColumn: 21, message: expect.stringContaining('`process`') });
  });

  it('keeps lines true to the original under CRLF', () => {
    const source = `${META.replace('\n', '\r\n')}const a = 1;\r\nconst t = Date.now();\r\n`;
    const [v] = checkWorkflowScript(source, 'w.js');
    expect(v).toMatchObject({ code: 'host-contract/date-now', line: 3, column: 11 });
  });

  it('points at the meta field that is wrong', () => {
    const source = "export const meta = {\n  name: 'a',\n  description: 'b',\n  phases: [{ title: 't' }, { title: 7 }],\n};\n";
    const [v] = checkWorkflowScript(source, 'w.js');
    expect(v).toMatchObject({ code: 'host-contract/meta-field', line: 4, column: 37 });
    expect(v!.message).toBe('found a number at meta.phases[1].title; expected a string');
  });

  it('points a missing meta field at the meta object', () => {
    const [v] = checkWorkflowScript("export const meta = { name: 'a' };\n", 'w.js');
    expect(v).toMatchObject({ line: 1, column: 21 });
    expect(v!.message).toBe('found nothing at meta.description; expected a non-empty string');
  });

  it('names the path of a non-literal inside meta', () => {
    const [v] = checkWorkflowScript("export const meta = { name: 'a', description: 'b', phases: [{ title: T }] };\n", 'w.js');
    expect(v!.message).toMatch(/^found an identifier `T` at meta\.phases\[0\]\.title; expected a pure literal/);
  });

  it('reports the insertion point of a missing semicolon', () => {
    const [v] = checkWorkflowScript(withBody('const a = 1\nconst b = 2;'), 'w.js');
    expect(v).toMatchObject({ line: 2, column: 12, endLine: 2, endColumn: 12 });
  });

  it('counts repeated control characters in one violation', () => {
    const violations = checkWorkflowScript(withBody("log('\u001b a \u001b b');"), 'w.js');
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ line: 2, column: 6 });
    expect(violations[0]!.message).toContain('2 in the file');
  });

  it('names the size in bytes', () => {
    const [v] = checkWorkflowScript(withBody(`const pad = '${'é'.repeat(HOST_SCRIPT_MAX_BYTES / 2)}';`), 'w.js');
    expect(v!.code).toBe('host-contract/size');
    expect(v!.message).toMatch(/^found a script of [\d,]+ bytes \([\d.]+ KiB\); expected at most 524,288 bytes \(512 KiB\)$/);
  });

  it('reports every violation, sorted by position', () => {
    const source = "const x = 1;\nexport const meta = { name: 'a', description: 'b' };\nconst t = Date.now()\neval('1');\n";
    expect(codesOf(source)).toEqual([
      'host-contract/meta-first',
      'host-contract/export',
      'host-contract/date-now',
      'host-contract/missing-semicolon',
      'host-contract/forbidden-global',
    ]);
  });

  it('still checks size and characters when the script does not parse', () => {
    expect(codesOf(`${META}const = \u001b;`).sort()).toEqual(['host-contract/escape-character', 'host-contract/syntax']);
  });
});

describe('assertWorkflowScript', () => {
  it('returns quietly for a compliant script', () => {
    expect(() => assertWorkflowScript(META, 'w.js')).not.toThrow();
  });

  it('throws one LeopoldError listing every violation', () => {
    const source = withBody("const t = Date.now();\nrequire('fs');");
    let caught: unknown;
    try {
      assertWorkflowScript(source, '.claude/workflows/leopold-run.js');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LeopoldError);
    const error = caught as LeopoldError;
    expect(error).toMatchObject({ file: '.claude/workflows/leopold-run.js', line: 2, column: 11 });
    expect(error.message).toContain('2 violations');
    expect(error.message).toContain('.claude/workflows/leopold-run.js:2:11: host-contract/date-now:');
    expect(error.message).toContain('.claude/workflows/leopold-run.js:3:1: host-contract/forbidden-global:');
  });
});

describe('checkWorkflowScript is total and deterministic', () => {
  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (tail) => {
        const once = checkWorkflowScript(META + tail, 'w.js');
        expect(checkWorkflowScript(META + tail, 'w.js')).toEqual(once);
      }),
      { numRuns: 300 },
    );
  });
});

describe('docs/host-contract.md', () => {
  it('documents every code', () => {
    const doc = readFileSync(new URL('../../docs/host-contract.md', import.meta.url), 'utf8');
    for (const code of Object.keys(HOST_CONTRACT_CODES)) expect(doc, code).toContain(`\`${code}\``);
  });
});

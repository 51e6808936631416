import { beforeAll, describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../compiler/index.js';
import { checkWorkflowScript } from '../../compiler/emit/check/index.js';
import { checkScriptHead } from '../../compiler/emit/check/script-head.js';
import { checkEmittedScript } from '../../compiler/emit/emitted-check.js';
import { emitScript, runtimeBundleComplies, scriptAround, scriptHead, type CompiledPlan } from '../../compiler/emit/index.js';
import { assertRuntimeBundle, PROBE_PLANS, runtimeBundleProblems } from '../../compiler/emit/runtime-bundle.js';
import { builtLeopold } from './harness.js';

// compile checks the runtime bundle and the script template against the host contract
// once, together, with probe plans full of hostile strings (build time, or a bundle's first
// use), and per plan only the head it puts into the script, without parsing. These tests
// hold the premises: the probe check catches a template or a bundle that breaks the
// contract, the head check catches what a plan can vary, and a real compile's whole
// script passes the full check.

let bundle = '';
beforeAll(async () => {
  bundle = (await builtLeopold()).bundle;
});

const options = (runtimeBundle: string): CompileOptions => ({
  file: '.leopold/PLAN.md',
  mission: '# Mission\n\nCount words.\n',
  charter: '',
  guardrails: '',
  runtimeBundle,
});

const PLAN = '- [ ] Count words {#count}\n- [ ] (after: #count) Write the docs\n';

describe('the runtime bundle and the template, checked once', () => {
  it('the built bundle complies with the template around it, and a compile with it passes the full check', () => {
    expect(runtimeBundleProblems(bundle)).toEqual([]);
    expect(runtimeBundleComplies(bundle)).toBe(true);
    const result = compile(PLAN, options(bundle));
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.script).toContain(bundle.trim().split('\n').at(-1));
      expect(checkWorkflowScript(result.script, 'w.js')).toEqual([]);
    }
  });

  it('the probe plans carry hostile text into every string the script embeds, and still pass the full check', () => {
    for (const plan of PROBE_PLANS) {
      const script = emitScript(plan, bundle);
      for (const raw of ['\u2028', 'Date.now()', '*/', '__wRg$x', '</script>']) expect(script).toContain(raw);
      expect(checkWorkflowScript(script, 'probe.js')).toEqual([]);
    }
  });

  it('a bundle that breaks the contract is reported, and compile refuses to use a bundle nobody checked', () => {
    const bad = 'var leopoldWorkflow = { run: () => Date.now() };\n';
    expect(runtimeBundleProblems(bad).join('\n')).toMatch(/date-now/);
    expect(runtimeBundleComplies(bad)).toBe(false);
    expect(() => assertRuntimeBundle(bad)).toThrow(/host contract.*date-now/s);
    expect(() => compile('- [ ] A\n', options(bad))).toThrow(/not been checked against the host contract/);
  });

  it('a template that lets plan text out of its literal or comment is caught by the probe check', () => {
    // Each broken template is the real one with one mistake a change to script.ts could make.
    const broken: [string, (plan: CompiledPlan, bundle: string) => string, RegExp][] = [
      ['the plan path raw in the header comment', (plan, b) => emitScript(plan, b).replace(/^\/\/ .*$/m, `// from ${plan.source.plan}`), /host-contract\/(syntax|escape-character|bare-carriage-return)/],
      ['a mission in a template literal', (plan, b) => emitScript(plan, b).replace('const PLAN = ', `const MISSION = \`${plan.mission}\`;\nconst PLAN = `), /host-contract\//],
      ['the call without its semicolon', (plan, b) => emitScript(plan, b).replace(/args\);\n$/, 'args)\n'), /host-contract\/missing-semicolon/],
      ['meta after the plan', (plan, b) => {
        const lines = emitScript(plan, b).split('\n');
        return [...lines.slice(0, 3), lines[4], lines[3], ...lines.slice(5)].join('\n');
      }, /host-contract\/meta-first/],
    ];
    for (const [what, emit, code] of broken) expect(runtimeBundleProblems(bundle, emit).join('\n'), what).toMatch(code);
  });
});

describe("compile's per-plan check of the script head", () => {
  const compiled = (): CompiledPlan => {
    const result = compile(PLAN, options(bundle));
    if (!result.ok) throw new Error('did not compile');
    return result.compiled;
  };

  it('passes what scriptHead makes, and the head is the start of the emitted script', () => {
    const head = scriptHead(compiled());
    expect(checkScriptHead(head, 'w.js')).toEqual([]);
    expect(scriptAround(head, bundle)).toBe(emitScript(compiled(), bundle));
  });

  it('finds a comment line a terminator would end, a raw ESC or CR, and a meta the host would not take', () => {
    const head = scriptHead(compiled());
    const lines = [...head.lines];
    lines[0] = `${lines[0]}\u2028Date.now();`;
    lines[1] = `${lines[1]}\u001b`;
    lines[4] = lines[4]!.replace('{', '{"x":"\r",');
    const codes = checkScriptHead({ ...head, lines, meta: { ...(head.meta as object), description: ' ' } }, 'w.js').map((d) => `${d.line} ${d.code}`);
    expect(codes).toEqual(['1 host-contract/syntax', '2 host-contract/escape-character', '4 host-contract/meta-field', '5 host-contract/bare-carriage-return']);
  });
});

describe("simulate's static check", () => {
  it('answers for a script this process emitted without a parse, and checks any other in full', () => {
    const result = compile(PLAN, options(bundle));
    if (!result.ok) throw new Error('did not compile');
    expect(checkEmittedScript(result.script, 'w.js')).toEqual([]);
    const edited = result.script.replace('return await leopoldWorkflow.run', 'import fs from "node:fs";\nreturn await leopoldWorkflow.run');
    expect(checkEmittedScript(edited, 'w.js').map((d) => d.code)).toContain('host-contract/import');
  });
});

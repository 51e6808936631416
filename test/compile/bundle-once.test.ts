import { beforeAll, describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../compiler/index.js';
import { checkWorkflowScript } from '../../compiler/emit/check/index.js';
import {
  checkEmittedScript,
  emitScript,
  emitScriptWithoutBundle,
  runtimeBundleComplies,
  runtimeBundleProblems,
} from '../../compiler/emit/index.js';
import { builtLeopold } from './harness.js';

// compile checks the runtime bundle against the host contract once (build time, or first
// use in a process) and per plan only the script around a stand-in for it. These tests
// hold the premises: the stand-in keeps every position after the bundle, a bundle that
// breaks the contract or the one-statement shape is still checked inside the script, and
// simulate's check of a just-emitted script is the full check's answer.

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

describe('the runtime bundle, checked once', () => {
  it('the built bundle complies by itself, and compiling with it still emits the whole script', () => {
    expect(runtimeBundleProblems(bundle)).toEqual([]);
    expect(runtimeBundleComplies(bundle)).toBe(true);
    const result = compile(PLAN, options(bundle));
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.script).toContain(bundle.trim().split('\n').at(-1));
      expect(checkWorkflowScript(result.script, 'w.js')).toEqual([]);
    }
  });

  it('the stand-in keeps the line count and every line after the bundle', () => {
    const result = compile(PLAN, options(bundle));
    if (!result.ok) throw new Error('did not compile');
    const whole = emitScript(result.compiled, bundle).split('\n');
    const around = emitScriptWithoutBundle(result.compiled, bundle).split('\n');
    expect(around).toHaveLength(whole.length);
    expect(around.slice(-2)).toEqual(whole.slice(-2));
    expect(around.at(-2)).toMatch(/^return await leopoldWorkflow.run/);
    expect(around.slice(0, 5)).toEqual(whole.slice(0, 5));
  });

  it('a bundle that breaks the contract is reported, and compile refuses the script', () => {
    const bad = 'var leopoldWorkflow = { run: () => Date.now() };\n';
    expect(runtimeBundleProblems(bad).join('\n')).toMatch(/date-now/);
    expect(runtimeBundleComplies(bad)).toBe(false);
    expect(() => compile('- [ ] A\n', options(bad))).toThrow(/host contract.*date-now/s);
  });

  it('a bundle of more than one statement is not stood in for: its script is checked whole', () => {
    const two = 'var leopoldWorkflow = { run: async () => ({ stop: "plan_complete" }) };\nvar helper = 1;\n';
    expect(runtimeBundleProblems(two)).toEqual([expect.stringMatching(/2 top-level statement\(s\); expected exactly one/)]);
    expect(runtimeBundleComplies(two)).toBe(false);
    expect(compile('- [ ] A\n', options(two)).ok).toBe(true);
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

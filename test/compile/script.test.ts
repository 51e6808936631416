import * as acorn from 'acorn';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../compiler/index.js';
import { checkWorkflowScript, HOST_SCRIPT_MAX_BYTES } from '../../compiler/emit/check/index.js';
import { embeddedPlanJson, emitScript, WORKFLOW_NAME, type CompiledPlan } from '../../compiler/emit/index.js';
import { assertRuntimeBundle } from '../../compiler/emit/runtime-bundle.js';
import { runWorkflowScript } from '../../runtime/host/index.js';
import type { EmbeddedPlan } from '../../runtime/workflow/index.js';
import { briefOptions, builtLeopold } from './harness.js';

let bundle = '';
beforeAll(async () => {
  bundle = (await builtLeopold()).bundle;
});

const options = (extra: Partial<CompileOptions> = {}): CompileOptions => ({
  file: '.leopold/PLAN.md',
  mission: '# Mission\n\nCount words.\n',
  charter: '## Never\n\n- Never add a dependency.\n',
  guardrails: '',
  runtimeBundle: bundle,
  ...extra,
});

function compiled(text: string, extra: Partial<CompileOptions> = {}) {
  const result = compile(text, options(extra));
  if (!result.ok) throw new Error(result.diagnostics.map((d) => `${d.code}: ${d.message}`).join('\n'));
  return result;
}

const staticCheck = (source: string, file: string) => checkWorkflowScript(source, file);

describe('the emitted script', () => {
  it('passes every host-contract rule, for every fixture brief', () => {
    for (const name of ['example', 'plain-checklist', 'ask-posture', 'routed-unicode']) {
      const { text, options: opts } = briefOptions(`fixtures/compile/${name}/.leopold`, bundle);
      const result = compile(text, opts);
      expect(result.ok, name).toBe(true);
      expect(checkWorkflowScript(result.script!, 'leopold-run.js'), name).toEqual([]);
    }
  });

  it('starts with the meta literal, then the plan, the runtime and the call', () => {
    const { script, compiled: plan } = compiled('- [ ] Count words\n- [ ] (after: 1) Count lines\n');
    const program = acorn.parse(script, { ecmaVersion: 'latest', sourceType: 'module', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true });
    const [meta, planDecl] = program.body;
    expect(meta?.type).toBe('ExportNamedDeclaration');
    expect(script.slice(0, 3)).toBe('// ');
    const metaText = /^export const meta = (.*);$/m.exec(script)![1]!;
    expect(JSON.parse(metaText)).toEqual({
      name: WORKFLOW_NAME,
      description: 'Run the Leopold plan .leopold/PLAN.md: 2 open items in 2 waves. Mission: Count words.',
      whenToUse: expect.any(String),
      phases: [
        { title: 'Wave 1', detail: 'item 1' },
        { title: 'Wave 2', detail: 'item 2' },
      ],
    });
    expect(planDecl?.type).toBe('VariableDeclaration');
    expect(script).toContain(`const PLAN = ${embeddedPlanJson(plan)};`);
    expect(script.trimEnd().split('\n').pop()).toBe("return await leopoldWorkflow.run(PLAN, typeof args === 'undefined' ? undefined : args);");
    expect(script).not.toMatch(/^"use strict";$/m);
  });

  it('is deterministic: the same inputs give the same bytes', () => {
    const text = '- [ ] A {#a}\n- [ ] @gate Review\n  @on fail -> #a\n';
    expect(compiled(text).script).toBe(compiled(text).script);
  });

  it('plain checklists carry no graph; any route, emit, need or kind does; every item is embedded once, waves by index', () => {
    const plain = compiled('- [ ] A\n- [x] B\n- [ ] (after: 1) C\n').compiled;
    expect(plain.graph).toBe(false);
    expect(plain.items.map((item) => [item.index, item.done, item.deps])).toEqual([
      [1, false, []],
      [2, true, []],
      [3, false, [1]],
    ]);
    expect(plain.waves).toEqual([[1], [3]]);
    expect(compiled('- [ ] A\n  @emit k\n').compiled.graph).toBe(true);
    expect(compiled('- [ ] @verify A\n').compiled.graph).toBe(true);
  });

  it('type-fits the runtime view of the plan', () => {
    const plan: CompiledPlan = compiled('- [ ] A\n').compiled;
    const view: EmbeddedPlan = plan; // compile-time check: the runtime reads the CompiledPlan itself
    expect(view.items[view.waves[0]![0]! - 1]?.id).toBe('i1');
  });

  it('a plan too big for 512 KiB is a plan error naming the size and the limit', () => {
    const long = 'x'.repeat(280);
    const text = Array.from({ length: 2000 }, (_, i) => `- [ ] Item ${i + 1} ${long}`).join('\n');
    const result = compile(text, options());
    expect(result.ok).toBe(false);
    const [d] = result.diagnostics;
    expect(d?.code).toBe('host-contract/size');
    expect(d?.message).toMatch(/would be [\d,]+ bytes \([\d.]+ KiB\) for 2000 open items; Claude Code loads at most 524,288 bytes \(512\.0 KiB\)/);
    expect(HOST_SCRIPT_MAX_BYTES).toBe(524_288);
  });

  it('fails loudly (throws) when the runtime bundle would break the host contract', () => {
    const bad = `var leopoldWorkflow = { run: () => Date.now() };\n`;
    expect(() => assertRuntimeBundle(bad)).toThrow(/host contract.*date-now/s);
    expect(() => compile('- [ ] A\n', options({ runtimeBundle: bad }))).toThrow(/not been checked against the host contract/);
    expect(() => emitScript(compiled('- [ ] A\n').compiled, 'var other = 1;')).toThrow(/does not define leopoldWorkflow/);
  });
});

describe('the emitted script in the stand-in host (docs/host-contract.md globals only)', () => {
  it('loads, and runs a one-item plan to a result: implementer, verifier, reviewer, scribe', async () => {
    const { script } = compiled('# Plan\n\n- [x] Set up\n- [ ] Count the words of a file\n  @scenario `tally a.txt` prints 3\n');
    const run = await runWorkflowScript(script, { file: 'leopold-run.js', staticCheck });
    expect(run.error).toBeUndefined();
    expect(run.ok).toBe(true);
    expect(run.meta.name).toBe('leopold-workflow-run');
    expect(run.result).toMatchObject({ stop: 'plan_complete', done: 1, total: 1, incomplete: [], decisions: [], decidedForYou: '', stranded: [], routedAround: [] });
    expect(run.journal.map((call) => call.label)).toEqual(['i2:implement', 'i2:verify', 'i2:review:correctness', 'scribe', 'final:review', 'scribe']);
    const call = run.journal[0]!;
    expect(typeof call.prompt).toBe('string');
    expect(call.prompt).toContain('Count words.');
    expect(call.prompt).toContain('- Never add a dependency.');
    expect(call.prompt).toContain('Item 2 (i2): Count the words of a file');
    expect(call.prompt).toContain('`tally a.txt` prints 3');
    expect(call.options).toMatchObject({ label: 'i2:implement', effort: 'medium' });
    expect(call.phase).toBe('Wave 1');
    expect(run.phases).toEqual(['Wave 1']);
  });

  it('honours args.maxIterations, and takes args as text', async () => {
    const { script } = compiled('- [ ] A\n- [ ] B\n- [ ] (after: 1) C\n');
    const limited = await runWorkflowScript(script, { staticCheck, args: { maxIterations: 1 } });
    expect(limited.result).toMatchObject({ stop: 'iteration_budget', done: 1, incomplete: [2, 3] });
    const asText = await runWorkflowScript(script, { staticCheck, args: 'go' });
    expect(asText.result).toMatchObject({ stop: 'plan_complete', done: 3 });
  });

  it('has no way to reach require, process, Date.now or Math.random', () => {
    const runtime = bundle;
    // (`required` is a JSON Schema keyword of the embedded agent schemas, not a call.)
    for (const name of ['require(', 'process.', 'Date.now', 'Math.random', 'import(', 'eval', 'Function(']) expect(runtime).not.toContain(name);
  });
});

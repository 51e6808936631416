import { describe, expect, it } from 'vitest';
import { analyzePlan, compile } from '../../compiler/index.js';
import { assertRuntimeBundle } from '../../compiler/emit/runtime-bundle.js';
import { repairPersona, repairPrompt, reversalOf, unifiedDiff } from '../../compiler/repair/index.js';

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => expect(unifiedDiff('a\n', 'a\n', 'a', 'b')).toBe(''));

  it('writes diff -u hunks with three lines of context, merging close changes', () => {
    const before = Array.from({ length: 12 }, (_, i) => `${i + 1}`).join('\n') + '\n';
    const after = before.replace('3\n', 'X\n') + 'new\n';
    expect(unifiedDiff(before, after, 'a/P', 'b/P')).toBe(
      ['--- a/P', '+++ b/P', '@@ -1,6 +1,6 @@', ' 1', ' 2', '-3', '+X', ' 4', ' 5', ' 6', '@@ -10,3 +10,4 @@', ' 10', ' 11', ' 12', '+new', ''].join('\n'),
    );
  });

  it('marks a last line without a newline', () => {
    expect(unifiedDiff('a\nb', 'a\nb\nc\n', 'x', 'y')).toBe(
      ['--- x', '+++ y', '@@ -1,2 +1,3 @@', ' a', '-b', '\\ No newline at end of file', '+b', '+c', ''].join('\n'),
    );
  });

  it('handles empty sides', () => {
    expect(unifiedDiff('', 'x\n', 'a', 'b')).toBe('--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n');
    expect(unifiedDiff('x\n', '', 'a', 'b')).toBe('--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n');
  });
});

describe('reversalOf', () => {
  it('names the line to restore (code span safe for backticks) and the lines to delete', () => {
    const applied = { text: '', rewrittenLines: [2], added: [3, 4] };
    expect(reversalOf('P.md', 'a\n  @on `x` -> 9\n', 'a\n  @on `x` -> 1\nb\nc\n', applied)).toBe(
      'In P.md: restore line 2 to ``   @on `x` -> 9 ``; delete lines 3–4.',
    );
  });
});

describe('repairPrompt', () => {
  it('carries the diagnostics, the numbered plan, the verbs, the bounds with the budget left and the format', () => {
    const text = '- [ ] @gate A\n  @on fail -> 7\n';
    const { diagnostics } = analyzePlan(text, 'P.md');
    const prompt = repairPrompt({ file: 'P.md', planText: text, diagnostics, used: 1 });
    expect(prompt).toMatch(/^P\.md:2:3: error: .+ \[dangling-edge\]$/m);
    expect(prompt).toContain('2 |   @on fail -> 7');
    expect(prompt).toContain('add-budget: at most 3 changes per run; 2 left now.');
    for (const bound of ['no-delete', 'no-touch-done', 'no-guardrails', 'add-only', 'work-only', 'malformed', 'repair-only']) expect(prompt).toContain(`- ${bound}:`);
    expect(prompt).toContain('```leopold-amend\nROUTE 4 fail -> 6');
    expect(repairPrompt({ file: 'P.md', planText: text, diagnostics, used: 1 })).toBe(prompt);
  });
});

describe('repairPersona', () => {
  it('takes a specific role named before the last block, refuses a generic one', () => {
    expect(repairPersona('Persona: Ada Park — Plan Engineer (graphs; routing)\n```leopold-amend\nADD x\n```', '').persona).toEqual({
      name: 'Ada Park',
      role: 'Plan Engineer',
      expertise: ['graphs', 'routing'],
    });
    const generic = repairPersona('Persona: Bob - Engineer (code)\n```leopold-amend\nADD x\n```', '');
    expect(generic.persona).toBeNull();
    expect(generic.note).toMatch(/generic/);
    expect(repairPersona('```leopold-amend\nADD x\n```', '').persona).toBeNull();
  });
});

describe('compile() and repair', () => {
  const base = { file: '.leopold/PLAN.md', mission: '', charter: '', guardrails: '', runtimeBundle: 'var leopoldWorkflow = { run: async () => null };\n' };
  // A stand-in bundle: checked with the template first, as compile() requires.
  assertRuntimeBundle(base.runtimeBundle);
  const broken = '- [ ] @gate A\n  @on fail -> 7\n- [ ] B\n';
  const answer = '```leopold-amend\nROUTE 1 fail -> 2\n```\n';

  it('repairs only with an answer and autonomy full, and compiles the repaired text', () => {
    expect(compile(broken, base).ok).toBe(false);
    const repaired = compile(broken, { ...base, repair: { answer, used: 0 } });
    expect(repaired.ok).toBe(true);
    expect(repaired.repair?.ok).toBe(true);
    expect(repaired.planText).toBe('- [ ] @gate A\n  @on fail -> 2\n- [ ] B\n');
    const asked = compile(broken, { ...base, autonomyFlag: 'ask', repair: { answer, used: 0 } });
    expect([asked.ok, asked.repair]).toEqual([false, null]);
    const viaGuardrails = compile(broken, { ...base, guardrails: 'autonomy: halt\n', repair: { answer, used: 0 } });
    expect(viaGuardrails.repair).toBeNull();
    const flagWins = compile(broken, { ...base, guardrails: 'autonomy: ask\n', autonomyFlag: 'full', repair: { answer, used: 0 } });
    expect(flagWins.ok).toBe(true);
  });

  it('never repairs a valid plan', () => {
    const result = compile('- [ ] A\n', { ...base, repair: { answer: '```leopold-amend\nADD more\n```', used: 0 } });
    expect(result.ok).toBe(true);
    expect(result.repair).toBeNull();
    expect(result.planText).toBe('- [ ] A\n');
  });
});

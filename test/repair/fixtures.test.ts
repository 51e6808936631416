import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzePlan } from '../../compiler/index.js';
import { hasErrors } from '../../compiler/diagnostics/diagnostic.js';
import { proposalVerdicts, renderRepairReport, repairDecision, repairPlan } from '../../compiler/repair/index.js';
import { renderDecision } from '../../runtime/decisions/index.js';

// Golden suite for repair: each folder under fixtures/repair holds PLAN.md and answer.md
// (what --repair-from would read). expected.json is the verdict; a successful repair also
// has PLAN.after.md, diff.txt and decision.txt, a refused one report.txt. UPDATE=1 rewrites.

const SUITE = 'fixtures/repair';
const FILE = '.leopold/PLAN.md';
const UPDATE = process.env.UPDATE === '1';
const cases = readdirSync(SUITE).filter((name) => existsSync(join(SUITE, name, 'PLAN.md'))).sort();

function golden(path: string, actual: string): void {
  if (UPDATE || !existsSync(path)) writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

function repairCase(name: string, used = 0) {
  const text = readFileSync(join(SUITE, name, 'PLAN.md'), 'utf8');
  const answer = readFileSync(join(SUITE, name, 'answer.md'), 'utf8');
  const analysis = analyzePlan(text, FILE);
  const outcome = repairPlan({ text, file: FILE, ir: analysis.ir, diagnostics: analysis.diagnostics, answer, used, charter: '' });
  return { text, analysis, outcome };
}

describe('fixtures/repair', () => {
  it('covers the cases issue #4 names', () => {
    for (const name of ['dangling-route', 'missing-item-add', 'bounds-broken', 'fourth-change', 'done-route', 'still-invalid']) {
      expect(cases).toContain(name);
    }
  });

  for (const name of cases) {
    it(name, () => {
      const dir = join(SUITE, name);
      const { text, analysis, outcome } = repairCase(name);
      expect(hasErrors(analysis.diagnostics), 'a repair case starts broken').toBe(true);
      const verdict = {
        ok: outcome.ok,
        failure: outcome.failure,
        proposals: proposalVerdicts(outcome).map(({ line, proposal, verdict, bound }) => ({ line, proposal, verdict, ...(bound ? { bound } : {}) })),
        used: outcome.used,
      };
      golden(join(dir, 'expected.json'), `${JSON.stringify(verdict, null, 2)}\n`);
      if (outcome.ok) {
        expect(hasErrors(analyzePlan(outcome.text, FILE).diagnostics)).toBe(false);
        golden(join(dir, 'PLAN.after.md'), outcome.text);
        golden(join(dir, 'diff.txt'), outcome.diff);
        golden(join(dir, 'decision.txt'), `${renderDecision(repairDecision(outcome, FILE), 1, new Date(0))}\n`);
      } else {
        expect(outcome.text).toBe(text);
        expect(outcome.diff).toBe('');
        golden(join(dir, 'report.txt'), renderRepairReport(outcome, FILE, new Map([[FILE, text]])));
      }
    });
  }

  it('names every broken bound in a refused batch', () => {
    const { outcome } = repairCase('bounds-broken');
    expect(outcome.judgement?.refused.map((r) => r.code)).toEqual(['no-delete', 'add-only', 'no-touch-done', 'work-only']);
    const report = renderRepairReport(outcome, FILE);
    for (const code of ['no-delete', 'add-only', 'no-touch-done', 'work-only']) expect(report).toContain(`refused ${code}:`);
    expect(report).toContain('ROUTE 2 fail -> 3');
    expect(report).toMatch(/ROUTE 2 fail -> 3\s+accepted/);
  });

  it('counts changes spent earlier in the run: one spent leaves room for two', () => {
    const fits = repairCase('dangling-route', 2);
    expect(fits.outcome.ok).toBe(true);
    expect(fits.outcome.used).toBe(3);
    const spent = repairCase('dangling-route', 3);
    expect(spent.outcome.ok).toBe(false);
    expect(spent.outcome.judgement?.refused[0]?.code).toBe('add-budget');
  });
});

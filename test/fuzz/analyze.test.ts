import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzePlan } from '../../compiler/index.js';
import type { Diagnostic } from '../../compiler/diagnostics/diagnostic.js';
import { byteText, planText, unicodeText } from './arbitraries.js';

// Properties of the front end on any input (issue 2, "Must show"): analyzePlan never
// throws, every diagnostic points inside the file, the output is deterministic, and the
// IR keeps the invariants docs/plan-language.md–3 promise. Seeds are random per run; a failure
// prints the seed and the shrunk input to replay it.

const FILE = 'fuzz/PLAN.md';
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

/** Lines as the diagnostics count them: after the BOM, split at CRLF, CR or LF. */
function linesOf(text: string): string[] {
  return (text.startsWith('\uFEFF') ? text.slice(1) : text).split(/\r\n|\r|\n/);
}

function assertInside(d: Diagnostic, lines: string[]): void {
  const where = `${d.code} at ${d.line}:${d.column}-${d.endLine}:${d.endColumn}`;
  expect(d.file, where).toBe(FILE);
  expect(d.line, where).toBeGreaterThanOrEqual(1);
  expect(d.line, where).toBeLessThanOrEqual(lines.length);
  expect(d.column, where).toBeGreaterThanOrEqual(1);
  expect(d.column, where).toBeLessThanOrEqual((lines[d.line - 1] as string).length + 1);
  expect(d.endLine, where).toBeLessThanOrEqual(lines.length);
  expect(d.endColumn, where).toBeGreaterThanOrEqual(1);
  expect(d.endColumn, where).toBeLessThanOrEqual((lines[d.endLine - 1] as string).length + 1);
  // The range runs forwards.
  expect(d.endLine > d.line || (d.endLine === d.line && d.endColumn >= d.column), where).toBe(true);
}

/** Every invariant one analysis must keep, whatever the input. */
function checkAnalysis(text: string): void {
  const analysis = analyzePlan(text, FILE);
  const lines = linesOf(text);
  const { ir, diagnostics, waves } = analysis;
  const count = ir.items.length;
  for (const d of diagnostics) {
    assertInside(d, lines);
    for (const n of d.items) expect(n >= 1 && n <= count, `${d.code} names item ${n} of ${count}`).toBe(true);
  }
  // Sorted by line, column, code (docs/plan-language.md).
  for (let i = 1; i < diagnostics.length; i++) {
    const a = diagnostics[i - 1] as Diagnostic;
    const b = diagnostics[i] as Diagnostic;
    expect(a.line < b.line || (a.line === b.line && (a.column < b.column || (a.column === b.column && a.code <= b.code)))).toBe(true);
  }
  ir.items.forEach((item, i) => {
    expect(item.index).toBe(i + 1);
    expect(item.id).toBe(`i${i + 1}`);
    expect(item.line).toBeLessThanOrEqual(lines.length);
    // Valid dependencies name earlier items, once each.
    for (const dep of item.deps) expect(dep >= 1 && dep < item.index).toBe(true);
    expect(new Set(item.deps).size).toBe(item.deps.length);
  });
  // No item: an empty plan, or one refused unread for its nesting.
  if (count === 0) expect(diagnostics.some((d) => d.code === 'empty-plan' || d.code === 'nesting-too-deep')).toBe(true);
  // Waves hold open items only, each at most once, after all of its open dependencies.
  const placed = new Map<string, number>();
  waves.forEach((wave, w) => {
    for (const id of wave) {
      expect(placed.has(id), `${id} placed twice`).toBe(false);
      placed.set(id, w);
    }
  });
  for (const item of ir.items) {
    const w = placed.get(item.id);
    if (item.done) expect(w, `${item.id} is done`).toBeUndefined();
    if (w === undefined) continue;
    for (const dep of item.deps) {
      const depItem = ir.items[dep - 1];
      if (depItem && !depItem.done) expect(placed.get(depItem.id) ?? Infinity).toBeLessThan(w);
    }
  }
  // Same input, same output.
  expect(analyzePlan(text, FILE)).toEqual(analysis);
}

describe('analyzePlan on any input', () => {
  it('plan-ish markdown: no throw, diagnostics inside the file, invariants, deterministic', () => {
    fc.assert(fc.property(planText, checkAnalysis), { numRuns: RUNS });
  });

  it('random bytes decoded as UTF-8', () => {
    fc.assert(fc.property(byteText, checkAnalysis), { numRuns: RUNS });
  });

  it('random code points, lone surrogates included', () => {
    fc.assert(fc.property(unicodeText, checkAnalysis), { numRuns: RUNS });
  });

  // A backtracking regex gone exponential would hang here until the test timeout. Nesting
  // past MAX_NESTING (32) is refused before remark sees it (runtime/plan/parse/nesting.ts),
  // so the deep shapes here are refused in one pass; test/fuzz/hostile.test.ts has more.
  it('adversarial long lines finish', () => {
    const n = 5_000;
    const nasty = [
      `- [ ] (after: ${'1 '.repeat(n)}`,
      `- [ ] (after: ${'1,'.repeat(n)}x) tail`,
      `- [ ] ${'@gate '.repeat(n)}`,
      `- [ ] @tool ${'`'.repeat(n)}`,
      `- [ ] text ${'{#a'.repeat(n)}`,
      `- [ ] x\n  @on ${'='.repeat(n)} -> 1`,
      `- [ ] x\n  @on a${' '.repeat(n)}b -> `,
      `- [ ] x\n  @needs ${', '.repeat(n)}`,
      `- [ ] x\n  @emit ${'a='.repeat(n)}`,
      `${'  '.repeat(2_000)}- [ ] deep`,
      `${'- '.repeat(300)}[ ] nested markers`,
      `${'> '.repeat(300)}- [ ] quoted`,
      `${'  '.repeat(300)}- [ ] deep\n${'  '.repeat(300)}@on fail -> 1`,
      '\r'.repeat(n),
      `- [ ] x${'\r\n  @frob'.repeat(2_000)}`,
    ];
    for (const text of nasty) checkAnalysis(text);
  });
});

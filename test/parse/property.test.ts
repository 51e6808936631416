import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { MAX_NESTING, parsePlan } from '../../runtime/plan/parse/index.js';
import { PlanIRSchema, type PlanIR, type Span } from '../../runtime/plan/schema.js';
import { editorLines } from './source-text.js';

// Pieces that hit the parser's corners when shuffled together.
const FRAGMENTS = [
  '- [ ] ', '- [x] ', '* [X] ', '+ [ ] ', '1. [ ] ', '2) [x] ', '  ', '    ', '\t', '\n', '\r\n', '\r', '\n\n',
  '@on fail -> 2', '@on x=1 => #a', '@on → ', '@emit k=v', '@emit', '@needs a, b', '@scenario s', '@writes a/** b',
  '@gate ', '@tool ', '@node human ops', '@frob', '(after: 1 2)', '(deps: #a, 0)', '{#a}', '{#b}', '`cmd`', '``',
  '```', '~~~', '<!--', '-->', '<div>', '> ', '# ', 'text', 'label: ', '🚀', '日本', '\uFEFF', '\u0000', '[', ']', '(', ')',
];
const planish = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join(''));
const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => new TextDecoder().decode(bytes)),
  planish,
  planish.map((text) => `\uFEFF${text}`),
);

function spansOf(ir: PlanIR): Span[] {
  const spans: Span[] = [];
  for (const item of ir.items) {
    spans.push(item.span, item.textSpan, ...item.depRefs.map((r) => r.span), ...item.routes.map((r) => r.span));
    spans.push(...item.emits.map((e) => e.span), ...item.needs.map((n) => n.span));
    if (item.kindSpan) spans.push(item.kindSpan);
  }
  spans.push(...ir.strays.map((s) => s.span));
  return spans;
}

function expectSpanInside(lines: readonly string[], span: Span): void {
  expect(span.line).toBeLessThanOrEqual(lines.length);
  expect(span.endLine).toBeLessThanOrEqual(lines.length);
  expect(span.endLine > span.line || (span.endLine === span.line && span.endColumn >= span.column)).toBe(true);
  expect(span.column).toBeLessThanOrEqual((lines[span.line - 1] ?? '').length + 1);
  expect(span.endColumn).toBeLessThanOrEqual((lines[span.endLine - 1] ?? '').length + 1);
}

function withoutOffsets(ir: PlanIR): unknown {
  return ir.items.map(({ checkOffset: _offset, ...rest }) => rest);
}

describe('parsePlan on any input', () => {
  let consoleSpies: MockInstance[] = [];
  beforeEach(() => {
    consoleSpies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) => vi.spyOn(console, method));
  });
  afterEach(() => {
    for (const spy of consoleSpies) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
  });

  it('never throws, conforms to PlanIRSchema and keeps every span inside the text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const ir = parsePlan(text, 'PLAN.md');
        expect(PlanIRSchema.safeParse(ir).success).toBe(true);
        const lines = editorLines(text);
        for (const span of spansOf(ir)) expectSpanInside(lines, span);
        for (const line of ir.legacyItemLines) expect(line).toBeLessThanOrEqual(lines.length);
        ir.items.forEach((item, position) => {
          expect(item.index).toBe(position + 1);
          expect(item.id).toBe(`i${item.index}`);
          expect(text[item.checkOffset - 1]).toBe('[');
          expect(text[item.checkOffset + 1]).toBe(']');
          expect(item.deps.every((dep) => dep >= 1 && dep < item.index)).toBe(true);
          expect(new Set(item.deps).size).toBe(item.deps.length);
          expect(item.command === null).toBe(item.kind !== 'tool');
          expect(item.text).not.toMatch(/[\r\n]/);
          expect(item.text).toBe(item.text.trim());
          expect(item.line).toBe(editorLines(text.slice(0, item.checkOffset)).length);
        });
      }),
      { numRuns: 1500 },
    );
  });

  it('gives the same IR (offsets aside) for LF, CRLF and a leading BOM', () => {
    const lfOnly = planish.map((text) => text.replace(/\r\n?/g, '\n').replace(/\uFEFF/g, ''));
    fc.assert(
      fc.property(lfOnly, (lf) => {
        const reference = parsePlan(lf, 'p');
        expect(withoutOffsets(parsePlan(lf.replace(/\n/g, '\r\n'), 'p'))).toEqual(withoutOffsets(reference));
        const bom = parsePlan(`\uFEFF${lf}`, 'p');
        expect(withoutOffsets(bom)).toEqual(withoutOffsets(reference));
        expect(bom.items.map((i) => i.checkOffset)).toEqual(reference.items.map((i) => i.checkOffset + 1));
      }),
      { numRuns: 500 },
    );
  });

  // Nesting past MAX_NESTING is refused before remark sees it (runtime/plan/parse/nesting.ts).
  it('reads nesting up to MAX_NESTING, refuses deeper at the marker that passes it, and survives bracket soup', () => {
    const levels = (n: number) => Array.from({ length: n }, (_, depth) => `${'  '.repeat(depth)}- [ ] level ${depth + 1}`).join('\n');
    const ir = parsePlan(levels(MAX_NESTING), 'p');
    expect(ir.tooDeep).toBeUndefined();
    expect(ir.items.length).toBe(MAX_NESTING);
    expect(ir.items[MAX_NESTING - 1]!.text).toBe(`level ${MAX_NESTING}`);
    expect(ir.legacyItemLines.length).toBe(MAX_NESTING);
    const refused = parsePlan(levels(MAX_NESTING + 1), 'p');
    expect(refused.items).toEqual([]);
    expect(refused.tooDeep).toMatchObject({ line: MAX_NESTING + 1, column: 2 * MAX_NESTING + 1, depth: MAX_NESTING + 1, limit: MAX_NESTING });
    expect(parsePlan(`${'>'.repeat(1000)} - [ ] x`, 'p').tooDeep).toMatchObject({ line: 1, column: MAX_NESTING + 1 });
    expect(parsePlan(`${'- '.repeat(1000)}[ ] x`, 'p').tooDeep).toMatchObject({ line: 1, column: 2 * MAX_NESTING + 1, depth: 1000 });
    expect(parsePlan(`${'- '.repeat(MAX_NESTING)}[ ] x`, 'p').items.map((i) => i.text)).toEqual(['x']);
    expect(parsePlan(`${'> '.repeat(MAX_NESTING)}x\n- [ ] y`, 'p').items.map((i) => i.text)).toEqual(['y']);
    // Deep indentation under shallow lines (code, wrapped text) and thematic breaks are not nesting.
    expect(parsePlan(`- [ ] x\n\n${' '.repeat(500)}- deeply indented code`, 'p').items.map((i) => i.text)).toEqual(['x']);
    expect(parsePlan(`- [ ] x\n\n${'- '.repeat(100)}\n${'* '.repeat(100)}`, 'p').items.map((i) => i.text)).toEqual(['x']);
    expect(parsePlan('['.repeat(3000) + ']'.repeat(3000), 'p').items).toEqual([]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REVERSAL, highestDecisionNumber, planAppend, readDecisions, type DecisionInput } from '../../../runtime/decisions/index.js';

const AT = new Date('2025-05-01T09:30:00Z');

// What a field value reads back as: its non-blank lines, trimmed, joined by newlines.
const asWritten = (value: string) =>
  value
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join('\n');
const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '\n', '\r', '\t', '#', '-', '—', '(', ')', ':', '\u2028', 'é', '1', 'D'), maxLength: 40 });
const nonBlank = text.filter((t) => t.trim() !== '');

const entryArb: fc.Arbitrary<DecisionInput> = fc.record({
  title: nonBlank,
  fork: fc.constantFrom('human', 'escalation', 'repair', 'deadlock', 'repeated-failure', undefined),
  persona: fc.constant(null),
  class: fc.constantFrom('reversible', 'irreversible'),
  charter: nonBlank.map((c) => `rule: ${c}`),
  decision: text,
  why: text,
  reversal: text,
  turn: fc.option(fc.nat(999), { nil: undefined }),
});

describe('render → read round trip', () => {
  it('reads back every block entry it wrote, whatever the fields contain', () => {
    fc.assert(
      fc.property(fc.array(entryArb, { minLength: 1, maxLength: 6 }), fc.nat(50), (entries, start) => {
        const seed = start === 0 ? undefined : `# Decisions\n\n- D${start} mechanical: seed\n`;
        const { text: file, numbers } = planAppend(seed, entries, AT);
        const records = readDecisions(file).filter((r) => !r.mechanical);
        expect(numbers).toEqual(entries.map((_, i) => start + i + 1));
        expect(highestDecisionNumber(file)).toBe(start + entries.length);
        expect(records.map((r) => r.n)).toEqual(numbers);
        records.forEach((r, i) => {
          const e = entries[i]!;
          expect(r.title).toBe(oneLine(e.title));
          expect(r.fork).toBe(e.fork ?? null);
          expect(r.class).toBe(e.class);
          expect(r.charter).toBe(asWritten(e.charter!));
          expect(r.decision).toBe(asWritten(e.decision!));
          expect(r.why).toBe(asWritten(e.why!));
          expect(r.reversal).toBe(asWritten(e.reversal!) === '' ? DEFAULT_REVERSAL : asWritten(e.reversal!));
          expect(r.turn).toBe(e.turn ?? null);
        });
      }),
      { numRuns: 300 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRecordInput, RecordInputSchema } from '../../../runtime/decisions/index.js';

// `leopold record` checks its input with parseRecordInput (plain code, no zod at start-up);
// RecordInputSchema is the documented shape. The two must accept the same documents, give
// the same data and blame the same paths.

const text = fc.oneof(fc.constantFrom('', ' ', '  x  ', 'Keep the alias', 'silent'), fc.string({ maxLength: 6 }));
const anyValue = fc.oneof(text, fc.integer({ min: -2, max: 3 }), fc.double({ noNaN: false }), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(fc.oneof({ arbitrary: arb, weight: 4 }, { arbitrary: anyValue, weight: 1 }), { nil: undefined });

const persona = fc.oneof(
  fc.constant(null),
  fc.record({ name: text, role: text, expertise: fc.oneof(fc.array(text, { maxLength: 3 }), anyValue) }, { requiredKeys: [] }),
  anyValue,
);

const decision = fc.record(
  {
    title: fc.oneof(text, anyValue),
    fork: maybe(fc.constantFrom('human', 'escalation', 'repair', 'deadlock', 'repeated-failure', 'whim')),
    item: maybe(fc.oneof(fc.integer({ min: -1, max: 4 }), text)),
    persona: fc.option(persona, { nil: undefined }),
    class: maybe(fc.constantFrom('reversible', 'irreversible', 'sometimes')),
    charter: maybe(text),
    decision: maybe(text),
    why: maybe(text),
    reversal: maybe(text),
    turn: maybe(fc.integer({ min: -1, max: 5 })),
    mechanical: maybe(fc.boolean()),
    extra: maybe(text),
  },
  { requiredKeys: [] },
);

const event = fc.oneof(fc.record({ event: fc.oneof(text, anyValue), item: maybe(fc.integer()), note: maybe(text) }, { requiredKeys: [] }), anyValue);

const document = fc.oneof(
  { arbitrary: fc.record({ decisions: fc.oneof(fc.array(decision, { maxLength: 3 }), anyValue), events: fc.oneof(fc.array(event, { maxLength: 2 }), anyValue) }, { requiredKeys: [] }), weight: 9 },
  { arbitrary: anyValue, weight: 1 },
);

// Documents zod accepts are rare among random ones; these are valid by construction.
const validDecision = fc.record(
  {
    title: fc.constantFrom('Keep the flag', '  padded title  '),
    fork: fc.option(fc.constantFrom('human', 'repair'), { nil: undefined }),
    item: fc.option(fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constant(' #build ')), { nil: undefined }),
    persona: fc.option(fc.oneof(fc.constant(null), fc.constant({ name: ' Ada ', role: 'Release Engineer', expertise: [' semver '], extra: 1 })), { nil: undefined }),
    class: fc.constantFrom('reversible', 'irreversible'),
    charter: fc.constantFrom('Never break the API.', ''),
    decision: fc.constant('Keep it'),
    why: fc.constant('pragmatism'),
    reversal: fc.option(fc.constant(' Remove it '), { nil: undefined }),
    turn: fc.option(fc.nat(9), { nil: undefined }),
    mechanical: fc.option(fc.boolean(), { nil: undefined }),
  },
  { requiredKeys: ['title', 'class', 'charter', 'decision', 'why'] },
);
const validDocument = fc.record(
  { decisions: fc.array(validDecision, { minLength: 1, maxLength: 3 }), events: fc.array(fc.record({ event: fc.constantFrom('tick', ' start '), item: fc.nat(9) }), { maxLength: 2 }) },
  { requiredKeys: ['decisions'] },
);

function agree(input: unknown): void {
  const plain = parseRecordInput(input);
  const zod = RecordInputSchema.safeParse(input);
  expect(plain.success, JSON.stringify(input)).toBe(zod.success);
  if (plain.success && zod.success) {
    expect(plain.data).toEqual(zod.data);
  } else if (!plain.success && !zod.success) {
    // Where, not how often: zod reports some values twice at one path (a type and a size).
    const paths = (issues: readonly { path: readonly PropertyKey[] }[]) => [...new Set(issues.map((i) => i.path.map(String).join('.')))].sort();
    expect(paths(plain.issues), JSON.stringify(input)).toEqual(paths(zod.error.issues));
  }
}

describe('parseRecordInput matches RecordInputSchema', () => {
  it('on random documents: same verdict, same issue paths', () => {
    fc.assert(fc.property(document, agree), { numRuns: 1500 });
  });

  it('on valid documents: the same data (trimmed, unknown decision keys dropped, event fields kept)', () => {
    fc.assert(fc.property(validDocument, agree), { numRuns: 300 });
  });

  it.each([
    ['a schema failure', { decisions: [{ title: 'x', class: 'sometimes' }] }, ['decisions.0.class']],
    ['missing fields', { decisions: [{ title: 'x', class: 'reversible' }] }, ['decisions.0.charter', 'decisions.0.decision', 'decisions.0.why']],
    ['nothing to record', {}, ['']],
    ['an event without a name', { events: [{ item: 1 }] }, ['events.0.event']],
    ['not an object', [], ['']],
  ])('%s', (_label, input, paths) => {
    agree(input);
    const result = parseRecordInput(input);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.issues.map((i) => i.path.join('.'))).toEqual(paths);
  });
});

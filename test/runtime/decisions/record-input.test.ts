import Ajv from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecisionInputSchema, parseRecordInput, REPORTED_EVENTS } from '../../../runtime/decisions/index.js';
import { checkJson } from '../../../runtime/decisions/json-check.js';
import { recordSchemas } from '../../../runtime/decisions/record-schemas.js';

// `leopold record` checks its input with parseRecordInput: the JSON Schemas generated from
// schema.ts's zod schemas, checked by json-check.ts (no zod, no Ajv at start-up). Held here
// to both: json-check gives Ajv's verdict on every generated schema, and a document it
// accepts reads as zod reads it.

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
  { decisions: fc.array(validDecision, { minLength: 1, maxLength: 3 }), events: fc.array(fc.record({ event: fc.constantFrom('turn', ' start '), item: fc.nat(9) }), { maxLength: 2 }) },
  { requiredKeys: ['decisions'] },
);

const schemas = recordSchemas();
const ajv = new Ajv({ strict: false, allErrors: true });
const sameVerdict = (schema: Record<string, unknown>, value: unknown) => {
  const ours = checkJson(schema, value);
  expect(ours.length === 0, `${JSON.stringify(value)}: ${JSON.stringify(ours)}`).toBe(ajv.validate(schema, value));
};

const reportedEvent = fc.record(
  {
    event: fc.constantFrom(...Object.keys(REPORTED_EVENTS)),
    item: maybe(fc.integer({ min: -1, max: 4 })),
    kind: maybe(fc.constantFrom('verification', 'partial', 'oops')),
    evidence: maybe(text),
    verdict: maybe(fc.constantFrom('pass', 'fail', 'maybe')),
    reasons: maybe(text),
    command: maybe(text),
    exit: maybe(fc.oneof(fc.integer({ min: -1, max: 3 }), fc.constant(null), fc.constant('1'))),
    output: maybe(text),
    values: maybe(fc.dictionary(fc.constantFrom('a', 'b'), fc.oneof(text, fc.integer()))),
    question: maybe(text),
    reason: maybe(text),
    proposals: maybe(text),
  },
  { requiredKeys: ['event'] },
);

describe('json-check agrees with Ajv on the generated record schemas', () => {
  it('decisions: the same verdict on random entries', () => {
    fc.assert(fc.property(fc.oneof(decision, anyValue), (value) => sameVerdict(schemas.decision, value)), { numRuns: 1500 });
  });

  it('reported events: the same verdict on random events of every name', () => {
    fc.assert(
      fc.property(reportedEvent, (value) => sameVerdict(schemas.events[value.event]!, value)),
      { numRuns: 1500 },
    );
  });
});

describe('parseRecordInput', () => {
  it('gives valid documents as zod reads them (trimmed, unknown decision keys dropped, event fields kept)', () => {
    fc.assert(
      fc.property(validDocument, (input) => {
        const result = parseRecordInput(input);
        expect(result.success, JSON.stringify(input)).toBe(true);
        if (!result.success) return;
        expect(result.data.decisions).toEqual(input.decisions.map((d) => DecisionInputSchema.parse(d)));
        expect(result.data.events).toEqual((input.events ?? []).map((e) => ({ ...e, event: e.event.trim() })));
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['a schema failure', { decisions: [{ title: 'x', class: 'sometimes' }] }, ['decisions.0.class']],
    ['nothing to record', {}, ['']],
    ['an event without a name', { events: [{ item: 1 }] }, ['events.0.event']],
    ['an unknown event name', { events: [{ event: 'tick' }] }, ['events.0.event']],
    ['a tool event whose exit is a string', { events: [{ event: 'tool', item: 3, command: 'npm test', exit: '1' }] }, ['events.0.exit']],
    ['a failure with no evidence', { events: [{ event: 'failure', item: 3, kind: 'verification' }] }, ['events.0.evidence']],
    ['not an object', [], ['']],
  ])('refuses %s, naming where', (_label, input, paths) => {
    const result = parseRecordInput(input);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.issues.map((i) => i.path.join('.'))).toEqual(paths);
  });

  it('refuses a placeholder left in any string, in a decision or a reported event', () => {
    const full = { title: 'Keep it', class: 'reversible', charter: 'silent', decision: 'Keep the flag', why: 'pragmatism', reversal: 'Drop it' };
    for (const [field, hole] of [
      ['title', '<one-line title>'],
      ['why', '<the principle or rule>'],
      ['reversal', 'undo: <how to undo it, concretely>'],
      ['charter', '<anything the session did not fill in>'],
    ] as const) {
      const result = parseRecordInput({ decisions: [{ ...full, [field]: hole }] });
      expect(result.success, field).toBe(false);
      if (!result.success) expect(result.issues[0]).toMatchObject({ path: ['decisions', 0, field], message: expect.stringMatching(/still holds the template's placeholder/) });
    }
    const tool = parseRecordInput({ events: [{ event: 'tool', item: 4, command: 'npm test', exit: 1, output: '<the output lines that show what failed>' }] });
    expect(tool.success).toBe(false);
    // Text that merely contains angle brackets is not a placeholder.
    expect(parseRecordInput({ decisions: [{ ...full, decision: 'Render <div> with a class' }] }).success).toBe(true);
  });
});

import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  FORBIDDEN_ACTIONS,
  PersonaAnswerSchema,
  personaAnswerJsonSchema,
  personaPrompt,
} from '../../../runtime/persona/index.js';

describe('personaAnswerJsonSchema', () => {
  const schema = personaAnswerJsonSchema();

  it('has an object root and required ⊆ properties, as agent() demands', () => {
    expect(schema.type).toBe('object');
    const properties = Object.keys(schema.properties as Record<string, unknown>);
    expect(properties).toEqual(['name', 'role', 'expertise', 'optimizesFor', 'rationale']);
    for (const key of schema.required as string[]) expect(properties).toContain(key);
    expect(schema.$schema).toBeUndefined();
  });

  it('is generated from the zod schema: Ajv and zod agree on answers', () => {
    const validate = new Ajv().compile(schema);
    const good = { name: 'Ada', role: 'Release Engineer', expertise: ['semver'], optimizesFor: [], rationale: 'r' };
    const bad = [{ ...good, expertise: [] }, { ...good, name: '' }, { role: 'x' }, { ...good, extra: 1 }];
    expect(validate(good)).toBe(true);
    expect(PersonaAnswerSchema.safeParse(good).success).toBe(true);
    for (const b of bad) {
      expect(validate(b)).toBe(false);
      expect(PersonaAnswerSchema.strict().safeParse(b).success).toBe(false);
    }
  });
});

describe('personaPrompt', () => {
  const prompt = personaPrompt({
    mission: 'Ship the billing export.',
    charter: '# Never\n\n- push to main\n',
    fork: 'escalation',
    item: { index: 4, text: 'Export invoices as CSV' },
    deciding: 'Whether to include refunded invoices.',
  });

  it('carries mission, charter, lifted rules, fork, item and what is being decided', () => {
    expect(prompt).toContain('Ship the billing export.');
    expect(prompt).toContain('# Never');
    expect(prompt).toContain('- push to main');
    expect(prompt).toContain('an escalation');
    expect(prompt).toContain('item 4: Export invoices as CSV');
    expect(prompt).toContain('Whether to include refunded invoices.');
  });

  it('lists every forbidden action plainly', () => {
    for (const action of FORBIDDEN_ACTIONS) expect(prompt).toContain(`- ${action}`);
    for (const word of ['commit', 'push', 'force-push', 'tag', 'publish', 'pull request', 'max_iterations', 'max_failures', 'budget', 'kill switch', 'GUARDRAILS.md']) {
      expect(prompt).toContain(word);
    }
  });

  it('is deterministic and says when the charter has no rules', () => {
    const input = { mission: '', charter: '', fork: 'human' as const, item: { index: 1, text: 't' }, deciding: 'd' };
    expect(personaPrompt(input)).toBe(personaPrompt(input));
    expect(personaPrompt(input)).toContain('(none)');
  });
});

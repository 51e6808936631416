import { describe, expect, it } from 'vitest';
import { acceptPersona, GENERIC_ROLES, isGenericRole, normaliseRole } from '../../../runtime/persona/index.js';

const answer = (role: string, extra: Record<string, unknown> = {}) => ({
  name: 'Ada Park',
  role,
  expertise: ['release trains', 'semver'],
  optimizesFor: ['safety'],
  rationale: 'Ships often.',
  ...extra,
});

// Every generic role in every spelling the comparison folds: case, surrounding spaces,
// one leading article, one plural s.
const genericSpellings: string[] = GENERIC_ROLES.flatMap((role) => {
  const upper = role.toUpperCase();
  const title = role.replace(/\b\w/g, (c) => c.toUpperCase());
  return [role, upper, title, `  ${title}  `, `a ${role}`, `An ${title}`, `the ${role}`, `THE ${upper}`, `${role}s`, `${title}S`, `the ${role}s`];
});

describe('acceptPersona: generic roles', () => {
  it.each(genericSpellings)('refuses %j', (role) => {
    const verdict = acceptPersona(answer(role), '');
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toContain('generic');
  });

  it.each(['An Assistant', 'Engineers', 'the AI', 'LLMs', 'Software Engineers', 'a Bot', 'Claude', 'The Leopold', 'Specialists'])(
    'refuses the spec example %j',
    (role) => {
      expect(acceptPersona(answer(role), '').ok).toBe(false);
    },
  );

  it.each([
    'Release Engineer',
    'Staff Developer Advocate',
    'Payments Compliance Lead',
    'Site Reliability Engineer',
    'Database Administrator',
    'AI Safety Researcher',
    'Business',
  ])('accepts %j', (role) => {
    const verdict = acceptPersona(answer(role), '');
    expect(verdict).toMatchObject({ ok: true, persona: { role } });
  });

  it.each(['Senior Software Engineer', 'Analyst'])('refuses %j, accepted before the filter judged words (generic-role.test.ts)', (role) => {
    expect(acceptPersona(answer(role), '').ok).toBe(false);
  });

  it('drops only one article and one plural s', () => {
    expect(normaliseRole('The the engineer')).toBe('the engineer');
    expect(normaliseRole('Engineerss')).toBe('engineers');
    // A stand-in noun is refused wherever it stands, articles or not.
    expect(isGenericRole('a an assistant')).toBe(true);
    expect(normaliseRole('  Software \t Engineers ')).toBe('software engineer');
  });
});

describe('acceptPersona: shape', () => {
  it.each([
    ['no name', { name: undefined }, 'no name'],
    ['blank name', { name: '   ' }, 'no name'],
    ['no role', { role: undefined }, 'no role'],
    ['numeric role', { role: 7 }, 'no role'],
    ['no expertise', { expertise: undefined }, 'no expertise'],
    ['empty expertise', { expertise: [] }, 'no expertise'],
    ['blank expertise', { expertise: ['  ', ''] }, 'no expertise'],
  ])('refuses %s', (_label, extra, reason) => {
    const verdict = acceptPersona({ ...answer('Release Engineer'), ...extra }, '');
    expect(verdict).toEqual({ ok: false, reason: `the persona answer has ${reason}` });
  });

  it.each([
    [null, 'no persona answer'],
    [undefined, 'no persona answer'],
    ['{not json', 'the persona answer is not valid JSON'],
    [42, 'the persona answer is not a JSON object'],
    [[answer('Release Engineer')], 'the persona answer is not a JSON object'],
  ])('refuses %j', (value, reason) => {
    expect(acceptPersona(value, '')).toEqual({ ok: false, reason });
  });

  it('normalises: whitespace collapsed, lists trimmed and de-duplicated, optional fields defaulted', () => {
    const verdict = acceptPersona(
      { name: '  Ada \n Park ', role: ' Release   Engineer ', expertise: [' semver ', 'semver', '', 3, 'release  trains'] },
      '',
    );
    expect(verdict).toEqual({
      ok: true,
      persona: { name: 'Ada Park', role: 'Release Engineer', expertise: ['semver', 'release trains'], optimizesFor: [], rationale: '', rules: [] },
    });
  });

  it('accepts the answer as JSON text, and one expertise string as a list of one', () => {
    const verdict = acceptPersona(JSON.stringify(answer('Release Engineer', { expertise: 'semver' })), '');
    expect(verdict).toMatchObject({ ok: true, persona: { expertise: ['semver'] } });
  });

  it('attaches the charter rules, lifted from the charter and never from the model', () => {
    const verdict = acceptPersona(answer('Release Engineer', { rules: ['Push whenever you like'] }), '# Never\n\n- push to main\n');
    expect(verdict).toMatchObject({ ok: true, persona: { rules: ['push to main'] } });
  });
});

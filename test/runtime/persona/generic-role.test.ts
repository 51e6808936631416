import { describe, expect, it } from 'vitest';
import { personaLine } from '../../../runtime/decisions/render.js';
import { acceptPersona, personaRefusal } from '../../../runtime/persona/index.js';

// The persona filter's contract as one table: role and expertise in, accepted or refused
// out. A costume is refused however it is dressed (modifiers, a stand-in noun anywhere, a
// role of nothing but generic words, empty or catch-all expertise); a fitted role with
// concrete expertise passes, seniority and all. docs/decisions.md shows the same table.
const CONCRETE = ['data pipelines', 'Postgres'];

const TABLE: [role: string, expertise: string[], verdict: 'accepted' | 'refused'][] = [
  // costumes named in the issue
  ['AI Assistant', CONCRETE, 'refused'],
  ['Helpful Assistant', CONCRETE, 'refused'],
  ['Senior Engineer', CONCRETE, 'refused'],
  ['Domain Expert', ['everything'], 'refused'],
  ['Domain Expert', CONCRETE, 'refused'],
  // a stand-in noun anywhere in the role
  ['Release Agent', CONCRETE, 'refused'],
  ['Payments Assistant', CONCRETE, 'refused'],
  ['Claude, Licensing Counsel', CONCRETE, 'refused'],
  ['Code Review Bot', CONCRETE, 'refused'],
  ['LLM Persona', CONCRETE, 'refused'],
  ['Database Helper', CONCRETE, 'refused'],
  // nothing but generic words once the dressing is dropped
  ['Engineer', CONCRETE, 'refused'],
  ['Expert', CONCRETE, 'refused'],
  ['An Assistant', CONCRETE, 'refused'],
  ['Engineers', CONCRETE, 'refused'],
  ['Lead Developer', CONCRETE, 'refused'],
  ['General Expert', CONCRETE, 'refused'],
  ['Senior Software Engineer', CONCRETE, 'refused'],
  ['Principal Technical Consultant', CONCRETE, 'refused'],
  ['Seasoned IT Professional', CONCRETE, 'refused'],
  ['Subject-Matter Expert', CONCRETE, 'refused'],
  ['AI', CONCRETE, 'refused'],
  ['The Generalist', CONCRETE, 'refused'],
  ['Staff Engineer', CONCRETE, 'refused'],
  ['Friendly Coding Wizard', CONCRETE, 'refused'],
  ['Project Manager', CONCRETE, 'refused'],
  ['Tech Lead', CONCRETE, 'refused'],
  // a fitted role whose expertise is empty or claims everything
  ['Data Engineer', [], 'refused'],
  ['Data Engineer', ['everything'], 'refused'],
  ['Release Engineer', ['all domains'], 'refused'],
  ['Release Engineer', ['general knowledge', 'best practices'], 'refused'],
  ['Billing Operations Lead', ['software engineering'], 'refused'],
  ['Site Reliability Engineer', ['anything needed', 'n/a'], 'refused'],
  // fitted roles with concrete expertise: accepted, dressing and all
  ['Data Engineer', CONCRETE, 'accepted'],
  ['Senior Data Engineer', CONCRETE, 'accepted'],
  ['Release Engineer', ['release trains', 'semver'], 'accepted'],
  ['Lead Release Engineer', ['release trains'], 'accepted'],
  ['Site Reliability Engineer', ['on-call', 'SLOs'], 'accepted'],
  ['Database Administrator', ['Postgres vacuum'], 'accepted'],
  ['Payments Compliance Lead', ['PCI DSS'], 'accepted'],
  ['Open Source Licensing Counsel', ['software licences', 'package naming'], 'accepted'],
  ['AI Safety Researcher', ['red-teaming'], 'accepted'],
  ['Staff Developer Advocate', ['developer docs'], 'accepted'],
  ['Build Engineer', ['Makefiles', 'test sharding'], 'accepted'],
  ['Frontend Accessibility Specialist', ['WCAG 2.2'], 'accepted'],
  ['Security Engineer', ['threat modelling'], 'accepted'],
  ['Technical Writer', ['API reference docs'], 'accepted'],
  ['Product Manager for Billing', ['pricing tiers'], 'accepted'],
  ['Data Engineer', ['everything', 'Postgres'], 'accepted'],
];

describe('the persona filter: a costume is refused however it is dressed', () => {
  it('the table has at least 40 pairs, both verdicts', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
    expect(new Set(TABLE.map(([, , v]) => v))).toEqual(new Set(['accepted', 'refused']));
  });

  it.each(TABLE)('%j with expertise %j is %s', (role, expertise, expected) => {
    const answer = { name: 'Nadia Ferro', role, expertise, optimizesFor: ['safety'], rationale: 'fits' };
    const verdict = acceptPersona(answer, '');
    expect(verdict.ok ? 'accepted' : 'refused', verdict.ok ? '' : verdict.reason).toBe(expected);
    expect(personaRefusal({ role, expertise }) === null ? 'accepted' : 'refused').toBe(expected);
    // The decision writer credits exactly the personas the filter accepts.
    expect(personaLine({ name: 'Nadia Ferro', role, expertise }).startsWith('none:') ? 'refused' : 'accepted').toBe(expected);
  });

  it('says why: a stand-in noun, a role with no job, catch-all expertise', () => {
    expect(personaRefusal({ role: 'AI Assistant', expertise: CONCRETE })).toMatch(/generic: "assistant" names a stand-in/);
    expect(personaRefusal({ role: 'Senior Engineer', expertise: CONCRETE })).toMatch(/generic: it names no specific job/);
    expect(personaRefusal({ role: 'Data Engineer', expertise: ['everything'] })).toMatch(/catch-all/);
  });
});

import { describe, expect, it } from 'vitest';
import { charterRules, hasRuleWord, MAX_CHARTER_RULES } from '../../../runtime/persona/index.js';

const CHARTER = `# Charter

We build a small, boring, well-tested CLI. Taste matters more than speed.
Prefer deleting code to adding it.

## Never

- Push to \`main\` or
  tag a release
  by hand.
- Add a runtime dependency
  without an issue.
   1. nested: not even a dev dependency
      without review
- [ ] Disable a failing test to make CI green.

\`\`\`sh
# never run this: it is an example inside a fence
git push --force
\`\`\`

<!-- never lift an HTML comment -->

Paragraphs under a rule heading count
too, wrapped or not.

### Especially

- Nothing under a deeper heading escapes the section.

## Style

Write small functions. This paragraph is prose and is not lifted.

- Use **zod** for every schema; do not
  hand-write JSON Schema.
- We always prefer explicit over clever.
- Nevertheless, endeavour to be kind. <!-- never: a comment inside a bullet -->
- Keep lines under 100 characters.

> Quoted: you must not
> log secrets.

~~~
always: fenced with tildes, ignored
~~~

## Non-goals

* A GUI.
* Windows support before 1.0

## Guardrails

1. At most three open PRs at a time.
2. Releases are NON-NEGOTIABLE weekly.

# Appendix

Don't forget the changelog.
Forbidden words are whole words only: unforbidden, alwaysish.
Some prose mentioning never-ending stories is prose.

- Push to \`main\` or tag a release by hand.
`;

const EXPECTED = [
  'Push to `main` or tag a release by hand.',
  'Add a runtime dependency without an issue.',
  'nested: not even a dev dependency without review',
  'Disable a failing test to make CI green.',
  'Paragraphs under a rule heading count too, wrapped or not.',
  'Nothing under a deeper heading escapes the section.',
  'Use **zod** for every schema; do not hand-write JSON Schema.',
  'We always prefer explicit over clever.',
  'Quoted: you must not log secrets.',
  'A GUI.',
  'Windows support before 1.0',
  'At most three open PRs at a time.',
  'Releases are NON-NEGOTIABLE weekly.',
  "Don't forget the changelog. Forbidden words are whole words only: unforbidden, alwaysish. Some prose mentioning never-ending stories is prose.",
];

describe('charterRules', () => {
  it('lifts headings, wrapped bullets, nested items and rule words verbatim, skipping fences and comments', () => {
    expect(charterRules(CHARTER)).toEqual(EXPECTED);
  });

  it('is byte-for-byte the same across CRLF, a BOM and repeated calls', () => {
    const crlf = `\uFEFF${CHARTER.replace(/\n/g, '\r\n')}`;
    expect(charterRules(crlf)).toEqual(EXPECTED);
    expect(charterRules(CHARTER)).toEqual(charterRules(CHARTER));
  });

  it('matches section headings case-insensitively and closes them at the same or a higher level', () => {
    const text = '## HARD RULES:\n\nfirst\n\n### sub\n\nsecond\n\n## Notes\n\nthird\n\n# constraints\n\nfourth\n';
    expect(charterRules(text)).toEqual(['first', 'second', 'fourth']);
  });

  it('treats setext headings as headings', () => {
    expect(charterRules('Always\n------\n\nship small\n\nOther\n======\n\nprose\n')).toEqual(['ship small']);
    // A deeper setext heading (h2 under h1) stays inside the section.
    expect(charterRules('Always\n======\n\nship small\n\nOther\n-----\n\nstill a rule\n')).toEqual(['ship small', 'still a rule']);
  });

  it('never lifts from an indented code block, an HTML block or a table', () => {
    const text = '# Rules\n\n    never indented code\n\n<div>never html</div>\n\n| never | a |\n| --- | --- |\n| b | c |\n\nkept\n';
    expect(charterRules(text)).toEqual(['kept']);
  });

  it('a list item with two paragraphs is one rule', () => {
    expect(charterRules('- never this,\n\n  and never that\n')).toEqual(['never this, and never that']);
  });

  it('drops duplicates and caps at 32 rules', () => {
    const many = Array.from({ length: 40 }, (_, i) => `- never ${i}`).join('\n');
    const rules = charterRules(`${many}\n- never 0\n`);
    expect(rules).toHaveLength(MAX_CHARTER_RULES);
    expect(rules[0]).toBe('never 0');
    expect(rules[31]).toBe('never 31');
  });

  it('reads GFM inline syntax (strikethrough, autolink literals) as written: a rule is its source text, a heading matched by whole words', () => {
    const charter = [
      '## ~~Soft~~ Never',
      '',
      '- Delete ~~old~~ backups from www.example.com/backups by hand.',
      '',
      '## Notes',
      '',
      'See https://example.com/docs, which is prose.',
      '',
      '- ~~Always~~ ship on Fridays.',
      '',
      '## Nevermore',
      '',
      '- Still prose: the heading names no section.',
      '',
    ].join('\n');
    expect(charterRules(charter)).toEqual(['Delete ~~old~~ backups from www.example.com/backups by hand.', '~~Always~~ ship on Fridays.']);
  });

  it('has no rules for an empty or rule-free charter', () => {
    expect(charterRules('')).toEqual([]);
    expect(charterRules('# Taste\n\nWe like small things.\n')).toEqual([]);
  });

  it.each([
    ['never', true],
    ['Never', true],
    ['ALWAYS', true],
    ['you must not', true],
    ['mustn’t', true],
    ['do  not', true],
    ["don't", true],
    ['don’t', true],
    ['at most', true],
    ['forbidden', true],
    ['non-negotiable', true],
    ['nevertheless', false],
    ['always-on', false],
    ['unforbidden', false],
    ['do nothing', false],
    ['at mostly', false],
    ['negotiable', false],
  ])('hasRuleWord(%j) is %s', (text, expected) => {
    expect(hasRuleWord(text)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { classifyItem, isHighRiskCharter, type Classification } from '../../compiler/classify/index.js';
import {
  CRITICAL_PATTERNS,
  HIGH_RISK_CHARTER_PATTERNS,
  MAX_EFFORT_PATTERNS,
  SENSITIVE_PATTERNS,
  TRIVIAL_PATTERNS,
} from '../../compiler/classify/keywords.js';
import { keywordMatcher, PATTERN_SYNTAX, wordsOf } from '../../compiler/classify/words.js';

const PLAIN_CHARTER = 'Keep functions small. Prefer clarity over cleverness.';
const RISKY_CHARTER = 'This service handles payments for live users in production.';

type Row = [text: string, expected: Classification];

const low = (critical = false, sensitive = false): Classification => ({ effort: 'low', critical, sensitive });
const medium = (sensitive = false): Classification => ({ effort: 'medium', critical: false, sensitive });
const high = (sensitive = false): Classification => ({ effort: 'high', critical: true, sensitive });
const max = (sensitive = false): Classification => ({ effort: 'max', critical: true, sensitive });

describe('classifyItem under a plain charter', () => {
  const rows: Row[] = [
    // plain work
    ['Write the parser', medium()],
    ['Add a --json flag to the graph command', medium()],
    ['', medium()],
    // trivial work
    ['Fix typo in README', low()],
    ['Fix typos in the help text', low()],
    ['Rename helper to wavesOf', low()],
    ['Renaming the old module', low()],
    ['Update docs for the CLI', low()],
    ['Run lint and format', low()],
    ['Improve wording of the error', low()],
    ['Run Prettier over src/', low()],
    // critical, high
    ['Deploy the API', high()],
    ['Deployment script for staging', high()],
    ['Deletes stale rows nightly', high()],
    ['Cut the 1.2 release', high()],
    ['Update infra for the queue', high()],
    ['Rotate secrets in the vault', high(true)],
    ['Add auth middleware', high(true)],
    ['Check the production logs', high()],
    // critical + max word
    ['Write the users migration', max()],
    ['Migrating the orders table', max()],
    ['Change the DB schema', max()],
    ['Add payment retries', max()],
    ['Payments: add refunds', max()],
    ['Make the cleanup irreversible', max()],
    ['Security review of the upload path', max(true)],
    // precedence: risk beats triviality
    ['Deploy docs', high()],
    ['Fix typo in the migration', max()],
    ['Rename the payments table', max()],
    // sensitive without critical
    ['Hash passwords with argon2', medium(true)],
    ['Add login page', medium(true)],
    ['Sign the build artefacts', medium(true)],
    ['Escape output against XSS', medium(true)],
    ['Enable 2FA for admins', medium(true)],
    ['Store the API keys encrypted', medium(true)],
    ['Fix typo on the login page', low(false, true)],
    // word boundaries: substrings are not words
    ['Design the landing page', medium()],
    ['Redesign the settings page', medium()],
    ['Assign reviewers automatically', medium()],
    ['Credit the author in the footer', medium()],
    ['List authors by authority', medium()],
    ['Update the product page', medium()],
    ['Produce a summary', medium()],
    ['Improve the prodigy module', medium()],
    ['Add a schematic view', max()], // `schema*` is a stem on purpose: schemas, schematic
    ['Undeploy nothing', medium()],
    ['Cosign is not sign', medium(true)],
    ['Add author field', medium()],
    // punctuation boundaries
    ['Refactor auth/ handlers', high(true)],
    ['Split auth.ts in two', high(true)],
    ['Wire (payments) module', max()],
    ['Touch "auth"', high(true)],
    ['auth-service cleanup', high(true)],
    ['snake_case_auth_helper', high(true)],
    ['Check #auth and @deploy', high(true)],
    // case and camelCase
    ['DEPLOY NOW', high()],
    ['MiGrAtE users', max()],
    ['Refactor getAuthToken', high(true)],
    ['Use OAuth2 for GitHub', high(true)],
    ['Add PasswordReset flow', medium(true)],
    // unicode: letters with accents stay one word, non-ASCII neighbours do not split
    ['Déployer le site', medium()],
    ['Fix the naïve migration', max()],
    ['Renomear authé', medium()],
    ['Rename auth\u0301 module', low()],
    ['Fix ﬁle typo', low()],
    ['ＤＥＰＬＯＹ full-width', high()],
    ['Ωauth should not match', medium()],
    ['деплой на прод', medium()],
    ['Deploy 🚀 to prod', high()],
  ];

  it.each(rows)('%s', (text, expected) => {
    expect(classifyItem(text, PLAIN_CHARTER)).toEqual(expected);
  });
});

describe('classifyItem under a high-risk charter', () => {
  const rows: Row[] = [
    ['Write the parser', { effort: 'high', critical: false, sensitive: false }],
    ['Add login page', { effort: 'high', critical: false, sensitive: true }],
    ['Fix typo in README', low()],
    ['Deploy the API', high()],
    ['Write the users migration', max()],
  ];

  it.each(rows)('%s', (text, expected) => {
    expect(classifyItem(text, RISKY_CHARTER)).toEqual(expected);
  });
});

describe('isHighRiskCharter', () => {
  const rows: [string, boolean][] = [
    [RISKY_CHARTER, true],
    [PLAIN_CHARTER, false],
    ['', false],
    ['We store personal data under GDPR.', true],
    ['Never touch Production.', true],
    ['SOC 2 controls apply.', true],
    ['Keep SOC2 evidence.', true],
    ['A high-risk codebase.', true],
    ['Regulated industry: banking.', true],
    ['Our products are great; productionise later.', false],
    ['The author writes prose.', false],
  ];

  it.each(rows)('%s', (charter, expected) => {
    expect(isHighRiskCharter(charter)).toBe(expected);
  });
});

describe('wordsOf', () => {
  it.each([
    ['auth/ auth.ts (payments)', ['auth', 'auth', 'ts', 'payments']],
    ['getAuthToken', ['getauthtoken', 'get', 'auth', 'token']],
    ['APIKey', ['apikey', 'api', 'key']],
    ['MiGrAtE', ['migrate', 'mi', 'gr', 'at', 'e']],
    ['OAuth2', ['oauth', 'o', 'auth', '2']],
    ['naïve café', ['naïve', 'café']],
    ['', []],
  ])('%s', (text, words) => {
    expect(wordsOf(text)).toEqual(words);
  });
});

describe('keyword sets', () => {
  const sets = {
    CRITICAL_PATTERNS,
    MAX_EFFORT_PATTERNS,
    TRIVIAL_PATTERNS,
    SENSITIVE_PATTERNS,
    HIGH_RISK_CHARTER_PATTERNS,
  };

  it.each(Object.entries(sets))('%s are well-formed and unique', (_, patterns) => {
    for (const pattern of patterns) expect(pattern).toMatch(PATTERN_SYNTAX);
    expect(new Set(patterns).size).toBe(patterns.length);
  });

  it('every pattern fires on its own example word', () => {
    for (const patterns of Object.values(sets)) {
      for (const pattern of patterns) {
        const example = pattern.replaceAll('*', 'ing');
        const matched =
          patterns === HIGH_RISK_CHARTER_PATTERNS
            ? isHighRiskCharter(example)
            : (() => {
                const c = classifyItem(example, PLAIN_CHARTER);
                if (patterns === SENSITIVE_PATTERNS) return c.sensitive;
                if (patterns === TRIVIAL_PATTERNS) return c.effort === 'low';
                if (patterns === MAX_EFFORT_PATTERNS) return c.effort === 'max';
                return c.critical;
              })();
        expect(matched, pattern).toBe(true);
      }
    }
  });
});

describe('classifyItem properties', () => {
  it('is total, deterministic and never marks max without critical', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string(), (text, charter) => {
        const first = classifyItem(text, charter);
        expect(classifyItem(text, charter)).toEqual(first);
        if (first.effort === 'max') expect(first.critical).toBe(true);
        if (first.critical) expect(['high', 'max']).toContain(first.effort);
      }),
    );
  });

  it('ignores case', () => {
    fc.assert(
      fc.property(fc.constantFrom('Deploy docs', 'Fix typo', 'Add auth', 'Write the parser'), (text) => {
        expect(classifyItem(text.toUpperCase(), '')).toEqual(classifyItem(text.toLowerCase(), ''));
      }),
    );
  });
});

describe('keywordMatcher', () => {
  // The plain definition the indexed matcher must agree with: every pattern, tried at
  // every word, kept in the set's order.
  const naive = (patterns: readonly string[]) => (words: readonly string[]) =>
    patterns.filter((pattern) => {
      const parts = pattern.split(' ');
      return words.some((_, start) =>
        start + parts.length <= words.length &&
        parts.every((part, k) => (part.endsWith('*') ? words[start + k]!.startsWith(part.slice(0, -1)) : words[start + k] === part)),
      );
    });
  const sets = [CRITICAL_PATTERNS, MAX_EFFORT_PATTERNS, TRIVIAL_PATTERNS, SENSITIVE_PATTERNS, HIGH_RISK_CHARTER_PATTERNS];
  // Words drawn from the patterns' own parts, their stems with endings, and noise.
  const vocabulary = [...new Set(sets.flat().flatMap((p) => p.split(' ')))].flatMap((part) =>
    part.endsWith('*') ? [part.slice(0, -1), `${part.slice(0, -1)}ing`, part.slice(0, -2)] : [part, `${part}s`],
  );
  const word = fc.oneof(fc.constantFrom(...vocabulary), fc.constantFrom('the', 'a', 'x', ''));

  it('finds exactly the patterns the plain definition finds, in the same order', () => {
    const matchers = sets.map((set) => [keywordMatcher(set), naive(set)] as const);
    fc.assert(
      fc.property(fc.array(word, { maxLength: 12 }), (words) => {
        for (const [indexed, plain] of matchers) expect(indexed(words)).toEqual(plain(words));
      }),
      { numRuns: 300 },
    );
  });
});

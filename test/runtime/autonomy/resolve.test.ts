import { describe, expect, it } from 'vitest';
import { parseAutonomy, resolveAutonomy } from '../../../runtime/autonomy/index.js';

describe('parseAutonomy', () => {
  it.each([
    ['full', 'full'],
    ['FULL', 'full'],
    ['  Full \n', 'full'],
    ['ask', 'ask'],
    ['Ask', 'ask'],
    ['halt', 'ask'],
    ['HALT', 'ask'],
    ['human', 'ask'],
    [' Human ', 'ask'],
  ] as const)('%j is %s', (spelling, expected) => {
    expect(parseAutonomy(spelling)).toBe(expected);
  });

  it.each(['fulll', 'yes', 'auto', 'none', 'ask me', 'f ull', 'toString', '__proto__', 'constructor'])(
    '%j is not a spelling',
    (spelling) => {
      expect(parseAutonomy(spelling)).toBeUndefined();
    },
  );
});

describe('resolveAutonomy', () => {
  it('defaults to full with no warnings', () => {
    expect(resolveAutonomy({})).toEqual({ autonomy: 'full', source: 'default', warnings: [] });
  });

  it('flag beats env beats GUARDRAILS', () => {
    expect(resolveAutonomy({ flag: 'ask', env: 'full', guardrails: 'full' })).toMatchObject({ autonomy: 'ask', source: 'flag' });
    expect(resolveAutonomy({ env: 'halt', guardrails: 'full' })).toMatchObject({ autonomy: 'ask', source: 'env' });
    expect(resolveAutonomy({ env: 'full', guardrails: 'human' })).toMatchObject({ autonomy: 'full', source: 'env' });
    expect(resolveAutonomy({ guardrails: 'Human' })).toMatchObject({ autonomy: 'ask', source: 'guardrails' });
  });

  it('blank and missing values mean "not set here", silently', () => {
    expect(resolveAutonomy({ flag: '', env: '   ', guardrails: null })).toEqual({
      autonomy: 'full',
      source: 'default',
      warnings: [],
    });
  });

  it('a typo never changes the posture in either direction', () => {
    // ask below a typo stays ask; full below a typo stays full.
    expect(resolveAutonomy({ flag: 'fulll', guardrails: 'ask' })).toMatchObject({ autonomy: 'ask', source: 'guardrails' });
    expect(resolveAutonomy({ flag: 'aks', env: 'full' })).toMatchObject({ autonomy: 'full', source: 'env' });
    expect(resolveAutonomy({ env: 'halted' })).toMatchObject({ autonomy: 'full', source: 'default' });
  });

  it('warns once per ignored value, naming the level and the value', () => {
    const { warnings } = resolveAutonomy({ flag: 'fulll', env: 'nope', guardrails: ' Sometimes ' });
    expect(warnings).toEqual([
      'ignored autonomy "fulll" from the --autonomy flag: expected full, ask, halt or human',
      'ignored autonomy "nope" from LEOPOLD_AUTONOMY: expected full, ask, halt or human',
      'ignored autonomy "Sometimes" from GUARDRAILS.md (autonomy:): expected full, ask, halt or human',
    ]);
  });

  it('warns about a typo at a lower level even when a higher level wins', () => {
    expect(resolveAutonomy({ flag: 'ask', guardrails: 'hlat' })).toEqual({
      autonomy: 'ask',
      source: 'flag',
      warnings: ['ignored autonomy "hlat" from GUARDRAILS.md (autonomy:): expected full, ask, halt or human'],
    });
  });
});

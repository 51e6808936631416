import { describe, expect, it } from 'vitest';
import {
  decidedForYou,
  DEFAULT_REVERSAL,
  FORK_RISK,
  isHeavySubject,
  planAppend,
  rankDecisions,
  readDecisions,
  RISK_RAISE,
  riskOf,
  type DecisionInput,
  type DecisionRecord,
} from '../../../runtime/decisions/index.js';

const AT = new Date('2025-05-01T09:30:00Z');
const PERSONA = { name: 'Ada', role: 'Release Engineer', expertise: ['semver'] };

function entry(over: Partial<DecisionInput>): DecisionInput {
  return {
    title: 'Pick a colour',
    fork: 'human',
    persona: PERSONA,
    class: 'reversible',
    charter: 'Prefer calm colours.',
    decision: 'Blue',
    why: 'pragmatism',
    reversal: 'Change the colour back in theme.ts',
    ...over,
  };
}

// Decisions go through the real writer and reader, as `leopold run finish` will see them.
function trail(entries: DecisionInput[]): DecisionRecord[] {
  return readDecisions(planAppend(undefined, entries, AT).text);
}

describe('riskOf', () => {
  it('scores the fork, then adds one raise per risk', () => {
    const [plain, noPersona, heavy, defaultReversal, all] = trail([
      entry({}),
      entry({ persona: null }),
      entry({ title: 'Run the data migration' }),
      entry({ reversal: undefined }),
      entry({ persona: null, decision: 'Deploy to production', reversal: '' }),
    ]);
    expect(riskOf(plain!)).toEqual({ score: FORK_RISK.human, reasons: [] });
    expect(riskOf(noPersona!)).toEqual({ score: FORK_RISK.human + RISK_RAISE, reasons: ['no persona'] });
    expect(riskOf(heavy!)).toEqual({ score: FORK_RISK.human + RISK_RAISE, reasons: ['heavy subject'] });
    expect(riskOf(defaultReversal!)).toEqual({ score: FORK_RISK.human + RISK_RAISE, reasons: ['default reversal'] });
    expect(riskOf(all!).score).toBe(FORK_RISK.human + 3 * RISK_RAISE);
  });

  it('orders the forks escalation > human > repair = deadlock > repeated-failure > none', () => {
    expect(FORK_RISK.escalation).toBeGreaterThan(FORK_RISK.human);
    expect(FORK_RISK.human).toBeGreaterThan(FORK_RISK.repair);
    expect(FORK_RISK.repair).toBe(FORK_RISK.deadlock);
    expect(FORK_RISK.deadlock).toBeGreaterThan(FORK_RISK['repeated-failure']);
    expect(FORK_RISK['repeated-failure']).toBeGreaterThan(FORK_RISK.none);
    // Two raises never lift a decision over the next fork; all three do.
    expect(2 * RISK_RAISE).toBeLessThan(FORK_RISK.escalation - FORK_RISK.human);
    expect(3 * RISK_RAISE).toBeGreaterThan(FORK_RISK.escalation - FORK_RISK.human);
  });

  it.each([
    ['Move production traffic', true],
    ['prod config', true],
    ['Backfill data', true],
    ['migrating users', true],
    ['Migration order', true],
    ['Change the payments retry', true],
    ['Publish to npm', true],
    ['Send the welcome email', true],
    ['Call a third-party API', true],
    ['Rotate secrets', true],
    ['Rename metadata helper', false],
    ['Update the product copy', false],
    ['Refactor the datum parser', false],
    ['Pick a colour', false],
  ])('isHeavySubject(%j) is %s', (text, expected) => {
    expect(isHeavySubject(text)).toBe(expected);
  });
});

describe('rankDecisions and decidedForYou', () => {
  it('ranks riskiest first with ties broken by D number', () => {
    const ranked = rankDecisions(
      trail([
        entry({ fork: 'repeated-failure', title: 'r1' }), // D1: 10
        entry({ fork: 'escalation', title: 'e1' }), // D2: 40
        entry({ fork: 'human', title: 'h1' }), // D3: 30
        entry({ fork: 'deadlock', title: 'd1' }), // D4: 20
        entry({ fork: 'repair', title: 'p1' }), // D5: 20 (ties D4)
        entry({ fork: 'escalation', title: 'e2' }), // D6: 40 (ties D2)
        entry({ fork: 'human', title: 'h2', persona: null }), // D7: 34
        entry({ fork: 'repair', title: 'p2', reversal: '' }), // D8: 24
        { title: 'fmt', mechanical: true }, // D9: never listed
        entry({ fork: undefined, persona: undefined, title: 'plain' }), // D10: 0
        entry({ fork: 'human', title: 'Drop the data table', persona: null, reversal: '' }), // D11: 42
      ]),
    );
    expect(ranked.map((d) => [d.n, d.score])).toEqual([
      [11, 42],
      [2, 40],
      [6, 40],
      [7, 34],
      [3, 30],
      [8, 24],
      [4, 20],
      [5, 20],
      [1, 10],
      [10, 0],
    ]);
  });

  it('prints at most five lines, then (+N more) and the path', () => {
    const records = trail([
      entry({ fork: 'repeated-failure', title: 'Retry the flaky build', item: 3 }),
      entry({ fork: 'escalation', title: 'Keep refunded invoices', decision: 'Include them', item: 'item 4 ("Export")', reversal: 'Filter them out again' }),
      entry({ fork: 'human', title: 'Choose the licence', persona: null, reversal: undefined }),
      entry({ fork: 'repair', title: 'Re-point the route' }),
      entry({ fork: 'escalation', title: 'Deploy to production', decision: 'Use the canary' }),
      entry({ fork: 'human', title: 'Name the package' }),
      entry({ fork: 'deadlock', title: 'Break the cycle' }),
      { title: 'fmt', mechanical: true },
    ]);
    expect(decidedForYou(records, { path: '.leopold/DECISIONS.md' })).toBe(
      [
        'What I decided for you (riskiest first):',
        // Both heavy (invoices, production): equal scores, so D2 before D5.
        '- D2 escalation at item 4 ("Export"), heavy subject: Keep refunded invoices — Include them (undo: Filter them out again)',
        '- D5 escalation, heavy subject: Deploy to production — Use the canary (undo: Change the colour back in theme.ts)',
        `- D3 human, no persona, default reversal: Choose the licence — Blue (undo: ${DEFAULT_REVERSAL.slice(0, 79)}…)`,
        '- D6 human: Name the package — Blue (undo: Change the colour back in theme.ts)',
        '- D4 repair: Re-point the route — Blue (undo: Change the colour back in theme.ts)',
        '(+2 more in .leopold/DECISIONS.md)',
      ].join('\n'),
    );
  });

  it('names the path without a count when everything fits', () => {
    const text = decidedForYou(trail([entry({ fork: 'human', title: 'One' })]), { path: '.leopold/DECISIONS.md' });
    expect(text.split('\n')).toEqual([
      'What I decided for you (riskiest first):',
      '- D1 human: One — Blue (undo: Change the colour back in theme.ts)',
      '(details in .leopold/DECISIONS.md)',
    ]);
  });

  it('is empty when nothing was decided (or only mechanical things)', () => {
    expect(decidedForYou([], { path: 'x' })).toBe('');
    expect(decidedForYou(trail([{ title: 'fmt', mechanical: true }]), { path: 'x' })).toBe('');
  });
});

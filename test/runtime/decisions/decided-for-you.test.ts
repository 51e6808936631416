import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decidedForYou,
  DEFAULT_REVERSAL,
  FORK_RISK,
  isHeavySubject,
  planAppend,
  rankDecisions,
  readDecisions,
  renderDecision,
  RISK_RAISE,
  riskOf,
  SIMULATED_CLOSING,
  simulatedTrail,
  TRAIL_CLOSING,
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

  it('raises a heavy subject named only by the item the fork was at', () => {
    const [cutover] = trail([entry({ title: 'Approve it', decision: 'Yes, behind a flag', item: 7, subject: 'Approve the production cutover' })]);
    expect(cutover!.item).toBe('item 7: "Approve the production cutover"');
    expect(riskOf(cutover!).reasons).toEqual(['heavy subject']);
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

  it('prints at most five, then (+N more) and the closing line; the Reversal is never clipped', () => {
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
    expect(decidedForYou(records)).toBe(
      [
        'What I decided for you (7 calls, riskiest first):',
        // Both heavy (invoices, production): equal scores, so D2 before D5.
        '  1. [escalation] Ada — Release Engineer (D2): Include them',
        '     Reversal: Filter them out again',
        '  2. [escalation] Ada — Release Engineer (D5): Use the canary',
        '     Reversal: Change the colour back in theme.ts',
        '  3. [human] No persona — default worker (D3): Blue',
        `     Reversal: ${DEFAULT_REVERSAL}`,
        '  4. [human] Ada — Release Engineer (D6): Blue',
        '     Reversal: Change the colour back in theme.ts',
        '  5. [repair] Ada — Release Engineer (D4): Blue',
        '     Reversal: Change the colour back in theme.ts',
        '(+2 more)',
        TRAIL_CLOSING,
      ].join('\n'),
    );
  });

  it('counts one call in the singular, and closes honestly when nothing was written (simulate)', () => {
    const records = trail([entry({ fork: 'human', title: 'One' })]);
    expect(decidedForYou(records).split('\n')).toEqual([
      'What I decided for you (1 call, riskiest first):',
      '  1. [human] Ada — Release Engineer (D1): Blue',
      '     Reversal: Change the colour back in theme.ts',
      'The full trail — charter basis and why — is in .leopold/DECISIONS.md.',
    ]);
    expect(decidedForYou(records, { trail: 'simulated' }).split('\n').at(-1)).toBe(SIMULATED_CLOSING);
    expect(simulatedTrail(decidedForYou(records))).toBe(decidedForYou(records, { trail: 'simulated' }));
    expect(SIMULATED_CLOSING).not.toMatch(/is in \.leopold/);
  });

  it('credits the run itself for a decision made at no fork (a review ruling)', () => {
    const [ruling] = trail([entry({ fork: undefined, persona: undefined, title: 'Ruling: P1 defect left open', decision: 'Item 2 stays open' })]);
    expect(decidedForYou([ruling!]).split('\n')[1]).toBe('  1. [decision] Leopold — run conductor (D1): Item 2 stays open');
  });

  it('is empty when nothing was decided (or only mechanical things)', () => {
    expect(decidedForYou([])).toBe('');
    expect(decidedForYou(trail([{ title: 'fmt', mechanical: true }]))).toBe('');
  });
});

describe('"What I decided for you": the decision protocol example, byte for byte', () => {
  const golden = (name: string) => readFileSync(join(import.meta.dirname, 'golden', 'protocol-example', name), 'utf8');
  const persona = (name: string, role: string, expertise: string) => ({ name, role, expertise: [expertise] });
  // The three calls the protocol shows (D4, D7, D9), written by the one renderer and read back.
  const ENTRIES: [number, DecisionInput][] = [
    [4, entry({ fork: 'human', item: 7, subject: 'Approve the production cutover', persona: persona('Rui Salgado', 'Release Engineer', 'staged rollouts'), title: 'Approve the cutover', decision: 'approve the cutover behind a flag, staged only', reversal: 'flip cutover_enabled back to false in config/flags.yml' })],
    [7, entry({ fork: 'escalation', item: 5, persona: persona('Nadia Ferro', 'Data Engineer', 'Postgres migrations'), title: 'Split the migration', decision: 'run the production migration in two reversible halves', reversal: 'run migrations/002_down.sql' })],
    [9, entry({ fork: 'repeated-failure', item: 6, persona: persona('Ana Reis', 'Build Engineer', 'test sharding'), title: 'Rescue the suite', decision: 'split the suite and run the slow half serially', reversal: 'revert the Makefile change' })],
  ];
  const records = readDecisions(ENTRIES.map(([n, e]) => renderDecision(e, n, AT)).join('\n\n'));

  it('ranks escalation, human, repeated-failure and prints the protocol block exactly', () => {
    expect(`${decidedForYou(records)}\n`).toBe(golden('block.txt'));
  });
});

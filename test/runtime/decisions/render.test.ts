import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REVERSAL,
  highestDecisionNumber,
  NO_PERSONA,
  NO_RULES,
  planAppend,
  protocolRefusal,
  readDecisions,
  renderDecision,
  type DecisionInput,
} from '../../../runtime/decisions/index.js';

const AT = new Date('2025-05-01T09:30:12.345Z');

const ESCALATION: DecisionInput = {
  title: 'Keep refunded invoices in the export',
  fork: 'escalation',
  item: 4,
  persona: { name: 'Ada Park', role: 'Billing Operations Lead', expertise: ['invoicing', 'revenue recognition'] },
  class: 'reversible',
  charter: 'Never hide money movements from the ledger.',
  decision: 'Include refunded invoices with a status column.',
  why: 'completeness (charter rule).',
  reversal: 'Filter status=refunded in export.ts and re-run the export.',
  turn: 7,
};

describe('renderDecision', () => {
  it('renders a persona entry byte for byte, with the charter rules that bound the persona', () => {
    const rules = ['Never hide money movements from the ledger.', 'Always keep exports reproducible.'];
    expect(renderDecision({ ...ESCALATION, subject: 'Export the  invoices' }, 12, AT, rules)).toBe(
      [
        '## D12 — Keep refunded invoices in the export   (turn 7, 2025-05-01T09:30:12Z)',
        'Persona:     Ada Park — Billing Operations Lead (invoicing; revenue recognition)',
        'Bound by:    Never hide money movements from the ledger.',
        '             Always keep exports reproducible.',
        'Fork:        escalation — item 4: "Export the invoices"',
        'Class:       reversible',
        'Charter:     Never hide money movements from the ledger.',
        'Decision:    Include refunded invoices with a status column.',
        'Why:         completeness (charter rule).',
        'Reversal:    Filter status=refunded in export.ts and re-run the export.',
      ].join('\n'),
    );
  });

  it('says no role could be synthesized when a persona fork has none', () => {
    const entry = { ...ESCALATION, fork: 'human' as const, item: 'item 2 ("Pick a licence")', persona: null, charter: '', reversal: undefined, turn: undefined };
    expect(renderDecision(entry, 3, AT)).toBe(
      [
        '## D3 — Keep refunded invoices in the export   (2025-05-01T09:30:12Z)',
        `Persona:     ${NO_PERSONA}`,
        `Bound by:    ${NO_RULES}`,
        'Fork:        human — item 2 ("Pick a licence")',
        'Class:       reversible',
        'Charter:     silent',
        'Decision:    Include refunded invoices with a status column.',
        'Why:         completeness (charter rule).',
        `Reversal:    ${DEFAULT_REVERSAL}`,
      ].join('\n'),
    );
    expect(NO_PERSONA).toBe('none: no role could be synthesized; decided under the default worker prompt');
  });

  it.each([
    [{ name: 'Ada', role: 'An Assistant', expertise: ['x'] }],
    [{ name: 'Ada', role: 'Engineers', expertise: ['x'] }],
    [{ name: 'Ada', role: 'Release Engineer', expertise: [] }],
    [{ name: 'Ada', role: 'Release Engineer', expertise: ['  '] }],
  ])('writes no role could be synthesized for a persona acceptPersona would refuse: %j', (persona) => {
    expect(renderDecision({ ...ESCALATION, persona }, 1, AT).split('\n')[1]).toBe(`Persona:     ${NO_PERSONA}`);
  });

  it('omits the Persona line on a non-persona entry', () => {
    const { fork: _f, persona: _p, item: _i, ...plain } = ESCALATION;
    const text = renderDecision(plain, 1, AT);
    expect(text).not.toContain('Persona:');
    expect(text.split('\n')[1]).toBe('Fork:        none');
  });

  it('keeps the entry well-formed whatever the fields contain', () => {
    const text = renderDecision(
      { ...ESCALATION, title: 'Multi\nline\ttitle', decision: 'line one\n\n## D99 — not a heading\nline three', why: '' },
      5,
      AT,
    );
    expect(text).toBe(
      [
        '## D5 — Multi line title   (turn 7, 2025-05-01T09:30:12Z)',
        'Persona:     Ada Park — Billing Operations Lead (invoicing; revenue recognition)',
        `Bound by:    ${NO_RULES}`,
        'Fork:        escalation — item 4',
        'Class:       reversible',
        'Charter:     Never hide money movements from the ledger.',
        'Decision:    line one',
        '             ## D99 — not a heading',
        '             line three',
        'Why:',
        'Reversal:    Filter status=refunded in export.ts and re-run the export.',
      ].join('\n'),
    );
    expect(highestDecisionNumber(text)).toBe(5);
  });

  it('renders mechanical one-liners', () => {
    expect(renderDecision({ title: 'Renamed  helper', mechanical: true }, 8, AT)).toBe('- D8 mechanical: Renamed helper   (2025-05-01T09:30:12Z)');
    expect(renderDecision({ title: 'Formatter', decision: 'ran prettier', mechanical: true, turn: 2 }, 9, AT)).toBe(
      '- D9 mechanical: Formatter — ran prettier   (turn 2, 2025-05-01T09:30:12Z)',
    );
  });
});

describe('numbering', () => {
  it('continues from the highest heading or mechanical line, whatever the order', () => {
    const text = '# Decisions\n\n## D3 — a   (x)\n\n- D41 mechanical: b\n\n### D7 — old style\n* D2 mechanical: c\n';
    expect(highestDecisionNumber(text)).toBe(41);
    expect(highestDecisionNumber('')).toBe(0);
    expect(highestDecisionNumber('prose mentioning D99 inline\n- D5 was nice\n')).toBe(0);
  });

  it('planAppend creates the heading, separates entries by one blank line and keeps existing bytes', () => {
    const first = planAppend(undefined, [ESCALATION, { title: 'tidy', mechanical: true }], AT);
    expect(first.numbers).toEqual([1, 2]);
    expect(first.text.startsWith('# Decisions\n\n## D1 — ')).toBe(true);
    expect(first.text.endsWith('re-run the export.\n\n- D2 mechanical: tidy   (2025-05-01T09:30:12Z)\n')).toBe(true);
    const second = planAppend(first.text, [{ title: 'more', mechanical: true }], AT);
    expect(second.numbers).toEqual([3]);
    expect(second.text).toBe(`${first.text}\n- D3 mechanical: more   (2025-05-01T09:30:12Z)\n`);
    // A hand-edited file without a final newline, or with a trailing blank line.
    expect(planAppend('# Mine\n\n- D9 mechanical: x', [{ title: 'y', mechanical: true }], AT).text).toBe(
      '# Mine\n\n- D9 mechanical: x\n\n- D10 mechanical: y   (2025-05-01T09:30:12Z)\n',
    );
    expect(planAppend('# Mine\n\n', [{ title: 'y', mechanical: true }], AT).text).toBe('# Mine\n\n- D1 mechanical: y   (2025-05-01T09:30:12Z)\n');
  });
});

describe('readDecisions', () => {
  it('reads back what renderDecision wrote', () => {
    const text = planAppend(
      undefined,
      [
        ESCALATION,
        { ...ESCALATION, persona: null, fork: 'repeated-failure', item: undefined, turn: undefined, decision: 'a\nb' },
        { title: 'tidy', decision: 'ran fmt', mechanical: true, turn: 1 },
        { ...ESCALATION, fork: undefined, persona: undefined, item: undefined, class: 'irreversible' },
      ],
      AT,
      ['Never hide money movements from the ledger.', 'At most one export a day.'],
    ).text;
    const records = readDecisions(text);
    expect(records).toEqual([
      {
        n: 1,
        title: ESCALATION.title,
        mechanical: false,
        turn: 7,
        at: '2025-05-01T09:30:12Z',
        fork: 'escalation',
        item: 'item 4',
        persona: ESCALATION.persona,
        rules: ['Never hide money movements from the ledger.', 'At most one export a day.'],
        class: 'reversible',
        charter: ESCALATION.charter,
        decision: ESCALATION.decision,
        why: ESCALATION.why,
        reversal: ESCALATION.reversal,
      },
      expect.objectContaining({ n: 2, fork: 'repeated-failure', item: null, persona: null, turn: null, decision: 'a\nb' }),
      expect.objectContaining({ n: 3, mechanical: true, title: 'tidy', decision: 'ran fmt', turn: 1 }),
      expect.objectContaining({ n: 4, fork: null, class: 'irreversible' }),
    ]);
    expect(records[3]).not.toHaveProperty('persona');
  });

  it('parses a role with parentheses; a persona without expertise reads back as none', () => {
    const text = planAppend(
      undefined,
      [
        { ...ESCALATION, persona: { name: 'Li', role: 'Reliability Engineer (SRE)', expertise: ['paging'] } },
        { ...ESCALATION, persona: { name: 'Bo', role: 'Data Steward', expertise: [] } },
      ],
      AT,
    ).text;
    const [a, b] = readDecisions(text);
    expect(a?.persona).toEqual({ name: 'Li', role: 'Reliability Engineer (SRE)', expertise: ['paging'] });
    expect(b?.persona).toBeNull();
  });

  it('skips prose a person added between entries', () => {
    const text = '# Decisions\n\nSome notes.\n\n- D1 mechanical: x   (2025-05-01T09:30:12Z)\n\nMore notes.\n';
    expect(readDecisions(text).map((r) => r.n)).toEqual([1]);
  });
});

describe('protocolRefusal', () => {
  it.each(['silent', 'Silent', '  SILENT ', '', '   ', 'silent: nothing on schemas'])('refuses irreversible with charter %j', (charter) => {
    const refusal = protocolRefusal({ ...ESCALATION, class: 'irreversible', charter });
    expect(refusal?.message).toMatch(/stop and ask the user instead/);
    expect(refusal?.stopAndAsk).toBe(true);
  });

  it('refuses an irreversible step on a silent charter written as mechanical as the same mandatory stop', () => {
    expect(protocolRefusal({ title: 'Drop the table', mechanical: true, class: 'irreversible' })).toEqual({ message: expect.stringMatching(/stop and ask the user instead/), stopAndAsk: true });
  });

  it.each([
    ['irreversible', 'Never drop columns without a backup.'],
    ['irreversible', 'silently ignoring this is forbidden'],
    ['reversible', 'silent'],
    ['reversible', ''],
  ] as const)('allows %s with charter %j', (cls, charter) => {
    expect(protocolRefusal({ ...ESCALATION, class: cls, charter })).toBeUndefined();
  });
});

describe('protocolRefusal: an entry that decides nothing', () => {
  it.each([
    ['a blank decision', { decision: '  ' }],
    ['a blank why', { why: '' }],
    ['the template placeholder', { decision: '<what you chose>' }],
  ])('refuses %s: nobody made it, report an escalation', (_label, over) => {
    expect(protocolRefusal({ ...ESCALATION, ...over })).toEqual({ message: expect.stringMatching(/nobody made it\. Never record a decision nobody made: the fork is not settled\. Report an escalation/), stopAndAsk: false });
  });

  it('refuses a fork decision dressed as a mechanical one-liner: it would vanish from the block', () => {
    expect(protocolRefusal({ title: 'Pick MIT', fork: 'human', mechanical: true })).toEqual({ message: expect.stringMatching(/a decision at a human fork is never mechanical/), stopAndAsk: false });
    expect(protocolRefusal({ title: 'Pick MIT', persona: ESCALATION.persona, mechanical: true })?.message).toMatch(/never mechanical/);
    // Irreversible too: the agent is told to write the full entry, which is then the stop; nothing stops on this message.
    expect(protocolRefusal({ title: 'Drop it', fork: 'human', mechanical: true, class: 'irreversible' })?.stopAndAsk).toBe(false);
  });

  it('keeps mechanical one-liners, which need no why', () => {
    expect(protocolRefusal({ title: 'fmt', mechanical: true })).toBeUndefined();
    expect(protocolRefusal(ESCALATION)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { lastAmendBlock, parseAmendments } from '../../../runtime/amend/index.js';

describe('parseAmendments', () => {
  it('reads only the last leopold-amend block, one proposal per line', () => {
    const text = [
      'Thinking first:',
      '```leopold-amend',
      'ADD not this one',
      '```',
      'Final answer:',
      '```leopold-amend',
      'ROUTE 2 fail -> 4',
      '',
      'ADD (after: 1, #build) Write the migration test',
      'add plain text',
      '```',
    ].join('\n');
    const proposals = parseAmendments(text);
    expect(proposals.map((p) => p.verb)).toEqual(['ROUTE', 'ADD', 'ADD']);
    expect(proposals[0]).toMatchObject({ item: '2', condition: 'fail', target: '4', problem: null });
    expect(proposals[1]).toMatchObject({ after: ['1', '#build'], text: 'Write the migration test' });
    expect(proposals[2]).toMatchObject({ after: null, text: 'plain text' });
  });

  it('accepts CRLF, tildes, => and → arrows, signal conditions', () => {
    const text = '~~~leopold-amend\r\nROUTE #gate exit != 0 => #fix\r\nROUTE 3 ok → 5\r\n~~~\r\n';
    const [a, b] = parseAmendments(text);
    expect(a).toMatchObject({ verb: 'ROUTE', item: '#gate', condition: 'exit != 0', target: '#fix' });
    expect(b).toMatchObject({ verb: 'ROUTE', item: '3', condition: 'ok', target: '5' });
  });

  it('classifies the verbs the bounds refuse', () => {
    const text = '```leopold-amend\nDELETE 3\nremove 4\nEDIT 2 new text\nSET max_iterations 99\nTICK 3\nuntick 1\nFROB 2\n```';
    expect(parseAmendments(text).map((p) => p.verb)).toEqual(['DELETE', 'DELETE', 'EDIT', 'EDIT', 'TICK', 'TICK', 'UNKNOWN']);
  });

  it('flags a ROUTE without arrow or target, and an empty (after:)', () => {
    const [a, b, c] = parseAmendments('```leopold-amend\nROUTE 2 fail\nROUTE 2 fail ->\nADD (after: ) x\n```');
    expect(a!.problem).toMatch(/expected ROUTE/);
    expect(b!.problem).toMatch(/expected ROUTE/);
    expect(c!.problem).toMatch(/empty \(after:\)/);
  });

  it('no block: no proposals; an unclosed last block runs to the end', () => {
    expect(parseAmendments('ROUTE 1 ok -> 2')).toEqual([]);
    expect(lastAmendBlock('```leopold-amend\nADD x')).toEqual(['ADD x']);
  });
});

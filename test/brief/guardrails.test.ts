import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_GUARDRAILS, GuardrailsSchema, parseGuardrails } from '../../compiler/brief/guardrails.js';

const parse = (text: string) => parseGuardrails(text, '.leopold/GUARDRAILS.md');

describe('parseGuardrails', () => {
  it('has the documented defaults for an empty file', () => {
    const { guardrails, diagnostics } = parse('');
    expect(diagnostics).toEqual([]);
    expect(guardrails).toEqual({
      maxReviewRounds: 2,
      maxIterations: 50,
      maxFailures: 3,
      maxNoProgress: 6,
      maxContextMb: 5,
      maxWindows: 10,
      parallelItems: 'off',
      notifyWebhook: 'none',
    });
    expect(guardrails.autonomy).toBeUndefined();
    expect(DEFAULT_GUARDRAILS).toEqual(guardrails);
  });

  it('reads every key', () => {
    const text = [
      '# Guardrails',
      '',
      'autonomy: ask',
      'max_review_rounds: 0',
      'max_iterations: 120',
      'max_failures: 5',
      'max_no_progress: 9',
      'max_context_mb: 2.5',
      'max_windows: 3',
      'parallel_items: on',
      'notify_webhook: https://hooks.example.com/x?y=1',
      '',
    ].join('\n');
    const { guardrails, diagnostics } = parse(text);
    expect(diagnostics).toEqual([]);
    expect(guardrails).toEqual({
      autonomy: 'ask',
      maxReviewRounds: 0,
      maxIterations: 120,
      maxFailures: 5,
      maxNoProgress: 9,
      maxContextMb: 2.5,
      maxWindows: 3,
      parallelItems: 'on',
      notifyWebhook: 'https://hooks.example.com/x?y=1',
    });
    expect(GuardrailsSchema.parse(guardrails)).toEqual(guardrails);
  });

  it.each([
    ['full', 'full'],
    ['FULL', 'full'],
    ['ask', 'ask'],
    ['Ask', 'ask'],
    ['halt', 'ask'],
    ['HUMAN', 'ask'],
  ])('autonomy %s means %s', (spelling, posture) => {
    expect(parse(`autonomy: ${spelling}`).guardrails.autonomy).toBe(posture);
  });

  it.each([
    ['on', 'on'],
    ['ON', 'on'],
    ['true', 'on'],
    ['yes', 'on'],
    ['off', 'off'],
    ['False', 'off'],
    ['no', 'off'],
  ])('parallel_items %s means %s', (spelling, value) => {
    expect(parse(`parallel_items: ${spelling}`).guardrails.parallelItems).toBe(value);
  });

  it('tolerates list dashes, numbering, bold, backticks, hyphens and case in keys', () => {
    const text = [
      '- autonomy: ask',
      '* max_iterations: 7',
      '1. max_failures: 4',
      '- **max_windows:** 2',
      '- **max_no_progress**: 8',
      '- `max_review_rounds`: `1`',
      '- `max_context_mb: 3 MB`',
      'Parallel-Items: "yes"',
      '  notify_webhook:   NONE  ',
    ].join('\n');
    const { guardrails, diagnostics } = parse(text);
    expect(diagnostics).toEqual([]);
    expect(guardrails).toMatchObject({
      autonomy: 'ask',
      maxIterations: 7,
      maxFailures: 4,
      maxWindows: 2,
      maxNoProgress: 8,
      maxReviewRounds: 1,
      maxContextMb: 3,
      parallelItems: 'on',
      notifyWebhook: 'none',
    });
  });

  it('warns on bad values with their position and keeps the default', () => {
    const text = '# G\n\nautonomy: maybe\n- max_iterations: lots\nmax_failures: 0\nparallel_items: sometimes\nnotify_webhook: ftp://x\nmax_context_mb: -1\nmax_windows:\n';
    const { guardrails, diagnostics } = parse(text);
    expect(guardrails).toEqual(DEFAULT_GUARDRAILS);
    expect(diagnostics.map((d) => [d.code, d.severity, d.line, d.column, d.endColumn, d.message])).toEqual([
      ['bad-guardrail', 'warning', 3, 11, 16, 'autonomy is "maybe"; expected full or ask (halt and human also mean ask) (left unset)'],
      ['bad-guardrail', 'warning', 4, 19, 23, 'max_iterations is "lots"; expected a whole number ≥ 1 (default 50 kept)'],
      ['bad-guardrail', 'warning', 5, 15, 16, 'max_failures is "0"; expected a whole number ≥ 1 (default 3 kept)'],
      ['bad-guardrail', 'warning', 6, 17, 26, 'parallel_items is "sometimes"; expected on or off (true/false, yes/no) (default off kept)'],
      ['bad-guardrail', 'warning', 7, 17, 24, 'notify_webhook is "ftp://x"; expected none or an http(s) URL (default none kept)'],
      ['bad-guardrail', 'warning', 8, 17, 19, 'max_context_mb is "-1"; expected a number of megabytes > 0 (default 5 kept)'],
      ['bad-guardrail', 'warning', 9, 13, 14, 'max_windows is empty; expected a whole number ≥ 1 (default 10 kept)'],
    ]);
    expect(diagnostics.every((d) => d.file === '.leopold/GUARDRAILS.md' && d.hint)).toBe(true);
  });

  it('points inside bold and backticks at the value itself', () => {
    const [d] = parse('- **autonomy:** sometimes').diagnostics;
    expect(d).toMatchObject({ line: 1, column: 17, endColumn: 26 });
    const [e] = parse('- `max_windows`: `x`').diagnostics;
    expect(e).toMatchObject({ line: 1, column: 19, endColumn: 20 });
  });

  it('a bad value never undoes a good one; the last good value wins', () => {
    expect(parse('max_iterations: 10\nmax_iterations: zero').guardrails.maxIterations).toBe(10);
    expect(parse('max_iterations: 10\nmax_iterations: 20').guardrails.maxIterations).toBe(20);
  });

  it('ignores keys inside HTML comments, code fences and indented code', () => {
    const text = [
      '<!-- autonomy: ask -->',
      '<!--',
      'max_iterations: 1',
      '-->',
      '```',
      'max_failures: 1',
      '```',
      '~~~yaml',
      'max_windows: 1',
      '~~~',
      '',
      '    max_no_progress: 1',
      '',
      '- item',
      '  ```',
      '  parallel_items: on',
      '  ```',
      'max_review_rounds: 4 <!-- was 2 -->',
      'Some prose <!-- max_context_mb: 1 --> here.',
      '',
    ].join('\n');
    const { guardrails, diagnostics } = parse(text);
    expect(diagnostics).toEqual([]);
    expect(guardrails).toEqual({ ...DEFAULT_GUARDRAILS, maxReviewRounds: 4 });
  });

  it('an unterminated comment or fence hides the rest of the file', () => {
    expect(parse('<!-- draft\nautonomy: ask\n').guardrails.autonomy).toBeUndefined();
    expect(parse('```\nautonomy: ask\n').guardrails.autonomy).toBeUndefined();
  });

  it('ignores unknown keys and prose', () => {
    const { guardrails, diagnostics } = parse('budget: 100\nNote: be careful\nhttp://example.com\n## autonomy: ask\n');
    expect(diagnostics).toEqual([]);
    expect(guardrails).toEqual(DEFAULT_GUARDRAILS);
  });

  it('is CRLF and BOM safe, with columns counted after the BOM', () => {
    const { guardrails, diagnostics } = parse('\uFEFFautonomy: nope\r\nmax_windows: 4\r\n');
    expect(guardrails.maxWindows).toBe(4);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ line: 1, column: 11, endColumn: 15 });
  });

  it('never throws, whatever the bytes', () => {
    const garbage = '\u0000\u0001\uFFFD\uD800 ```<!-- autonomy:: \u0007\n'.repeat(50) + 'max_windows: 9\n';
    expect(() => parse(garbage)).not.toThrow();
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        const { guardrails, diagnostics } = parse(text);
        GuardrailsSchema.parse(guardrails);
        for (const d of diagnostics) expect(d.code).toBe('bad-guardrail');
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom('autonomy: ', '- max_iterations: ', '```', '<!--', '-->', '\n', '**max_windows:** ', '`'), fc.string({ maxLength: 8 }))),
        (parts) => {
          expect(() => parse(parts.join(''))).not.toThrow();
        },
      ),
      { numRuns: 300 },
    );
  });
});

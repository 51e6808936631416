import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asRefusals, DEFAULT_GUARDRAILS, GuardrailsSchema, parseGuardrails } from '../../compiler/brief/guardrails.js';
import { parseGuardrailSettings } from '../../runtime/guardrails/index.js';

const parse = (text: string) => parseGuardrails(text, '.leopold/GUARDRAILS.md');

describe('parseGuardrails', () => {
  it('has the documented defaults for an empty file', () => {
    const { guardrails, diagnostics } = parse('');
    expect(diagnostics).toEqual([]);
    expect(guardrails).toEqual({
      maxReviewRounds: 3,
      maxIterations: 50,
      maxFailures: 3,
      maxNoProgress: 6,
      maxContextMb: 5,
      maxWindows: 10,
      maxSubagents: 100,
      maxSubagentsPerRun: 2000,
      parallelItems: 'off',
      notifyWebhook: 'none',
      gated: [],
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
      '- max-subagents: 12',
      '- Max subagents per run: 40',
      'parallel_items: on',
      'notify_webhook: https://hooks.example.com/x?y=1',
      '- gated: Stripe billing, production deploy, {#release}   # a person does these',
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
      maxSubagents: 12,
      maxSubagentsPerRun: 40,
      parallelItems: 'on',
      notifyWebhook: 'https://hooks.example.com/x?y=1',
      gated: ['Stripe billing', 'production deploy', '{#release}'],
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
      ['bad-guardrail', 'warning', 3, 11, 16, 'autonomy is "maybe"; expected full or ask (halt and human also mean ask)'],
      ['bad-guardrail', 'warning', 4, 19, 23, 'max_iterations is "lots"; expected a whole number ≥ 1'],
      ['bad-guardrail', 'warning', 5, 15, 16, 'max_failures is "0"; expected a whole number ≥ 1'],
      ['bad-guardrail', 'warning', 6, 17, 26, 'parallel_items is "sometimes"; expected on or off (true/false, yes/no)'],
      ['bad-guardrail', 'warning', 7, 17, 24, 'notify_webhook is "ftp://x"; expected none or an http(s) URL'],
      ['bad-guardrail', 'warning', 8, 17, 19, 'max_context_mb is "-1"; expected a number of megabytes > 0'],
      ['bad-guardrail', 'warning', 9, 13, 14, 'max_windows is empty; expected a whole number ≥ 1'],
    ]);
    expect(diagnostics.every((d) => d.file === '.leopold/GUARDRAILS.md' && d.hint === 'Until it is fixed the default applies, and leopold run start refuses the file.')).toBe(true);
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

  it('ignores keys inside HTML comments, on one line or many', () => {
    const text = [
      '<!-- autonomy: ask -->',
      '<!--',
      'max_iterations: 1',
      '-->',
      'max_review_rounds: 4 <!-- was 2 -->',
      'Some prose <!-- max_context_mb: 1 --> here.',
      '<!---> max_windows: 3',
      '<!--> max_failures: 2',
      '',
    ].join('\n');
    const { guardrails, diagnostics } = parse(text);
    expect(diagnostics).toEqual([]);
    expect(guardrails).toEqual({ ...DEFAULT_GUARDRAILS, maxReviewRounds: 4, maxWindows: 3, maxFailures: 2 });
  });

  it('reads keys in fenced blocks and nested lists, as the documents show the file', () => {
    const text = [
      '```yaml',
      'autonomy: ask   # strict',
      'max-iterations: 7',
      '```',
      '~~~',
      'max_windows: 4',
      '~~~',
      '- Limits',
      '    - max_failures: 2',
      '',
      '        max_no_progress: 9',
    ].join('\n');
    const { guardrails, diagnostics } = parse(text);
    expect(diagnostics).toEqual([]);
    expect(guardrails).toMatchObject({ autonomy: 'ask', maxIterations: 7, maxWindows: 4, maxFailures: 2, maxNoProgress: 9 });
  });

  it('an unclosed comment hides the rest of the file, and says so where it opens', () => {
    const { guardrails, diagnostics } = parse('max_windows: 4\n  <!-- draft\nautonomy: ask\n');
    expect(guardrails).toEqual({ ...DEFAULT_GUARDRAILS, maxWindows: 4 });
    expect(diagnostics.map((d) => [d.code, d.line, d.column, d.endColumn])).toEqual([['unclosed-comment', 2, 3, 7]]);
    expect(diagnostics[0]!.message).toBe('this HTML comment is never closed with -->, so everything after it is ignored');
    // `<!--` inside a code span is text, not a comment.
    expect(parse('Write `<!--` to hide a line.\nautonomy: ask\n')).toMatchObject({ guardrails: { autonomy: 'ask' }, diagnostics: [] });
  });

  it('leaves prose, headings and tables alone', () => {
    const text = [
      '# Guardrails',
      '## autonomy: ask',
      'Note: agents and personas never edit this file.',
      'Windows: not supported yet',
      'http://example.com',
      '| autonomy | full | the posture |',
      '- Gated: anything that leaves the machine',
      'The run stops when: the plan is done',
      '',
    ].join('\n');
    const { guardrails, diagnostics } = parse(text);
    expect(diagnostics).toEqual([]);
    // `- Gated: …` is the documents' own way to say what always stops: the gated key.
    expect(guardrails).toEqual({ ...DEFAULT_GUARDRAILS, gated: ['anything that leaves the machine'] });
  });

  it('is CRLF and BOM safe, with columns counted after the BOM', () => {
    const { guardrails, diagnostics } = parse('\uFEFFautonomy: nope\r\nmax_windows: 4\r\n');
    expect(guardrails.maxWindows).toBe(4);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ line: 1, column: 11, endColumn: 15 });
  });

  it('stays linear on pathological lines (the Stop hook reads the file every turn)', () => {
    // Quadratic scanning of any of these would take minutes and hit the test timeout.
    const big = (unit: string) => unit.repeat(Math.ceil(400_000 / unit.length));
    for (const text of [big('`<!--` '), `autonomy: ${big('"')}`, `autonomy: ${big('**')}`, big('a '), `${big('a')}: 1`, `max_windows: ${big(' #')}`, big('<!---->')]) {
      const { guardrails, diagnostics } = parse(text);
      GuardrailsSchema.parse(guardrails);
      expect(diagnostics.length).toBeLessThanOrEqual(1);
    }
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

describe('GUARDRAILS.md as the source documents write it', () => {
  it('the posture section of the personas document, verbatim', () => {
    const { guardrails, diagnostics } = parse('## Judgment posture\n- autonomy: full             # full | ask\n');
    expect(diagnostics).toEqual([]);
    expect(guardrails.autonomy).toBe('full');
  });

  it('list items with trailing comments are read, not ignored (issue 27)', () => {
    const { guardrails, diagnostics } = parse('# Guardrails\n\n- autonomy: ask   # strict\n- max_iterations: 2   # cap\n');
    expect(diagnostics).toEqual([]);
    expect(guardrails).toMatchObject({ autonomy: 'ask', maxIterations: 2 });
  });

  it.each([
    ['- max_iterations: 9'],
    ['* max_iterations: 9'],
    ['+ max_iterations: 9'],
    ['1. max_iterations: 9'],
    ['12) max_iterations: 9'],
    ['max_iterations: 9'],
    ['  - max_iterations: 9  # comment'],
    ['max-iterations: 9'],
    ['Max-Iterations: 9'],
    ['MAX_ITERATIONS: 9'],
    ['max iterations: 9'],
    ['max_iterations : 9'],
    ['max_iterations:9'],
    ['- **max_iterations:** 9 # bold key'],
    ["max_iterations: '9'"],
    ['max_iterations: "9"   # quoted'],
    ['- `max_iterations: 9`'],
  ])('%s', (line) => {
    const { guardrails, diagnostics } = parse(`${line}\n`);
    expect(diagnostics).toEqual([]);
    expect(guardrails.maxIterations).toBe(9);
  });

  it.each([
    ['autonomy: ask # strict', 'autonomy', 'ask'],
    ['autonomy: human#no space before the hash, so part of the value', 'autonomy', undefined],
    ['parallel_items: yes  # run independent items at once', 'parallelItems', 'on'],
    ['parallel_items: Off', 'parallelItems', 'off'],
    ['max_context_mb: 2.5 MB  # a window', 'maxContextMb', 2.5],
    ['max_context_mb: 8MiB', 'maxContextMb', 8],
    ['notify_webhook: https://hooks.example.com/x#part', 'notifyWebhook', 'https://hooks.example.com/x#part'],
    ['notify_webhook: "https://hooks.example.com/x # not a comment"   # a comment', 'notifyWebhook', 'https://hooks.example.com/x # not a comment'],
    ["notify_webhook: 'https://hooks.example.com/#frag' # quoted", 'notifyWebhook', 'https://hooks.example.com/#frag'],
    ['notify_webhook: none # off', 'notifyWebhook', 'none'],
  ] as const)('%s', (line, field, value) => {
    expect(parseGuardrailSettings(`${line}\n`).guardrails[field]).toBe(value);
  });

  it('the brief template leopold init writes reads clean, every line of it at its default', () => {
    const template = readFileSync(join(import.meta.dirname, '..', '..', 'templates', 'brief', 'GUARDRAILS.md'), 'utf8');
    expect(parse(template)).toEqual({ guardrails: DEFAULT_GUARDRAILS, diagnostics: [] });
    // Out of its comment, every line is a setting at its default.
    const uncommented = template.replace(/<!--|-->/g, '');
    expect(parse(uncommented)).toEqual({ guardrails: { ...DEFAULT_GUARDRAILS, autonomy: 'full' }, diagnostics: [] });
  });
});

describe('a misspelt GUARDRAILS line is a diagnostic, never a silent default', () => {
  it('a misspelt value points at the value, with a did-you-mean', () => {
    const { guardrails, diagnostics } = parse('# Guardrails\n\n- autonomy: akss\n');
    expect(guardrails.autonomy).toBeUndefined();
    expect(diagnostics).toEqual([
      {
        code: 'bad-guardrail',
        severity: 'warning',
        file: '.leopold/GUARDRAILS.md',
        line: 3,
        column: 13,
        endLine: 3,
        endColumn: 17,
        items: [],
        message: 'autonomy is "akss"; expected full or ask (halt and human also mean ask)',
        hint: 'Did you mean "ask"? Until it is fixed the default applies, and leopold run start refuses the file.',
      },
    ]);
  });

  it.each([
    ['autonomy: fulll', 'full'],
    ['autonomy: humna', 'human'],
    ['parallel_items: yse', 'yes'],
    ['parallel_items: oof', 'off'],
    ['notify_webhook: none!', 'none'],
  ])('%s: did you mean %s', (line, meant) => {
    expect(parse(line).diagnostics.map((d) => d.hint)).toEqual([`Did you mean "${meant}"? Until it is fixed the default applies, and leopold run start refuses the file.`]);
  });

  it('max_subagents and max_subagents_per_run take whole numbers ≥ 1; a bad value keeps the default', () => {
    const { guardrails, diagnostics } = parse('max_subagents: 0\nmax_subagents_per_run: lots\n');
    expect(guardrails).toEqual(DEFAULT_GUARDRAILS);
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['bad-guardrail', 'max_subagents is "0"; expected a whole number ≥ 1'],
      ['bad-guardrail', 'max_subagents_per_run is "lots"; expected a whole number ≥ 1'],
    ]);
  });

  it('max_subagents_per_run left unset follows max_iterations (40 subagents an iteration); set, it is what it says', () => {
    expect(parse('max_iterations: 1000\n').guardrails.maxSubagentsPerRun).toBe(40_000);
    expect(parse('max_iterations: 10\n').guardrails.maxSubagentsPerRun).toBe(400);
    expect(DEFAULT_GUARDRAILS.maxSubagentsPerRun).toBe(DEFAULT_GUARDRAILS.maxIterations * 40);
    expect(parse('max_iterations: 1000\nmax_subagents_per_run: 2500\n').guardrails.maxSubagentsPerRun).toBe(2500);
    // A bad value keeps the derived default, not the constant at 50 iterations.
    expect(parse('max_subagents_per_run: lots\nmax_iterations: 200\n').guardrails.maxSubagentsPerRun).toBe(8000);
  });

  it.each([['autonomy: maybe'], ['parallel_items: nope'], ['max_iterations: ten'], ['autonomy: ak']])('%s: no guess', (line) => {
    expect(parse(line).diagnostics.map((d) => d.hint)).toEqual(['Until it is fixed the default applies, and leopold run start refuses the file.']);
  });

  it.each([
    ['- max_iteration: 5', 3, 16, 'max_iterations'],
    ['autonmy: ask', 1, 8, 'autonomy'],
    ['maxIterations: 5', 1, 14, 'max_iterations'],
    ['- **max_windws:** 4', 5, 15, 'max_windows'],
    ['iterations: 100', 1, 11, 'max_iterations'],
    ['context_budget: 5 MB', 1, 15, 'max_context_mb'],
    ['webhook: https://hooks.example.com/x', 1, 8, 'notify_webhook'],
    ['- no_progress: 4   # turns', 3, 14, 'max_no_progress'],
    ['review-rounds: 1', 1, 14, 'max_review_rounds'],
    ['- max_subagent: 30', 3, 15, 'max_subagents'],
    ['subagents: 30', 1, 10, 'max_subagents'],
  ])('unknown key %s: points at the key, did you mean', (line, column, endColumn, meant) => {
    const { guardrails, diagnostics } = parse(`${line}\n`);
    expect(guardrails).toEqual(DEFAULT_GUARDRAILS);
    expect(diagnostics.map((d) => [d.code, d.line, d.column, d.endColumn, d.hint])).toEqual([
      ['unknown-guardrail', 1, column, endColumn, `Did you mean "${meant}"? Until it is fixed the line is ignored, and leopold run start refuses the file.`],
    ]);
  });

  it.each([['budget_usd: 20'], ['timeout: 30s'], ['- retries: 3'], ['dry_run: yes'], ['sandbox: on'], ['- Commit: no']])(
    'unknown key %s: the keys there are',
    (line) => {
      const [d] = parse(line).diagnostics;
      expect(d).toMatchObject({ code: 'unknown-guardrail', severity: 'warning' });
      expect(d!.message).toMatch(/^".+" is not a GUARDRAILS key$/);
      expect(d!.hint).toBe(
        'The keys are autonomy, max_review_rounds, max_iterations, max_failures, max_no_progress, max_context_mb, max_windows, max_subagents, max_subagents_per_run, parallel_items, notify_webhook, gated. Until it is fixed the line is ignored, and leopold run start refuses the file.',
      );
    },
  );

  it('run start and ci see the same diagnostics as errors', () => {
    const { diagnostics } = parse('- autonomy: akss\nmax_iteration: 5\n');
    const refused = asRefusals(diagnostics);
    expect(refused.map((d) => d.severity)).toEqual(['error', 'error']);
    expect(refused.map(({ severity: _s, ...rest }) => rest)).toEqual(diagnostics.map(({ severity: _s, ...rest }) => rest));
  });

  it('one problem per line, each where it is', () => {
    const text = ['# Guardrails', '- autonomy: akss   # strict', 'Note: prose', '- max_iteration: 5', '- max_failures: 0 # never', '<!-- open'].join('\n');
    expect(parse(text).diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ['bad-guardrail', 2, 13],
      ['unknown-guardrail', 4, 3],
      ['bad-guardrail', 5, 17],
      ['unclosed-comment', 6, 1],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { diagnostic, type Diagnostic } from '../../compiler/diagnostics/diagnostic.js';
import { escapeGithubData, escapeGithubProperty, renderGithub } from '../../compiler/diagnostics/render-github.js';
import { renderJson } from '../../compiler/diagnostics/render-json.js';
import { codeFrame, renderText } from '../../compiler/diagnostics/render-text.js';
import { renderDiagnostics } from '../../compiler/diagnostics/render.js';

const span = (line: number, column: number, endLine: number, endColumn: number) => ({ line, column, endLine, endColumn });

const dangling = diagnostic(
  'dangling-edge',
  'plans/PLAN.md',
  span(3, 3, 3, 15),
  'item 2 ("Review") routes to item 9, which does not exist',
  [2],
);

describe('renderText', () => {
  it('prints location, message, frame and hint', () => {
    const source = '# Plan\n- [ ] Review\n  @on fail -> 9\n';
    expect(renderText([dangling], new Map([['plans/PLAN.md', source]]))).toBe(
      [
        'plans/PLAN.md:3:3: error: item 2 ("Review") routes to item 9, which does not exist [dangling-edge]',
        '  3 |   @on fail -> 9',
        '    |   ^^^^^^^^^^^^',
        '  hint: Point the route at an existing item index (1-based) or #anchor.',
        '',
      ].join('\n'),
    );
  });

  it('prints no frame when the source is unknown, and nothing for no diagnostics', () => {
    expect(renderText([dangling])).toBe(
      'plans/PLAN.md:3:3: error: item 2 ("Review") routes to item 9, which does not exist [dangling-edge]\n' +
        '  hint: Point the route at an existing item index (1-based) or #anchor.\n',
    );
    expect(renderText([])).toBe('');
  });

  it('is CRLF-safe: no carriage return leaks into the frame', () => {
    const out = codeFrame('- [ ] a\r\n- [ ] b @gate\r\n', span(2, 9, 2, 14));
    expect(out).toEqual(['  2 | - [ ] b @gate', '    |         ^^^^^']);
  });

  it('is BOM-safe: line 1 columns count from after the BOM', () => {
    const out = codeFrame('\uFEFF- [ ] @huh x\n', span(1, 7, 1, 11));
    expect(out).toEqual(['  1 | - [ ] @huh x', '    |       ^^^^']);
  });

  it('keeps tabs and copies them into the underline padding', () => {
    const out = codeFrame('-\t[ ]\t@on x -> 0\n', span(1, 7, 1, 17));
    expect(out).toEqual(['  1 | -\t[ ]\t@on x -> 0', '    |  \t   \t^^^^^^^^^^']);
  });

  it('counts terminal cells, not UTF-16 units, under emoji, combining accents and CJK', () => {
    // "🚀" is two UTF-16 units and two cells; "e\u0301" two units, one cell; "日本" four cells.
    const line = '- [ ] 🚀 e\u0301 日本 @x';
    const col = line.indexOf('@x') + 1;
    const out = codeFrame(`${line}\n`, span(1, col, 1, col + 2));
    expect(out).toEqual([`  1 | ${line}`, `    | ${' '.repeat(6 + 2 + 1 + 1 + 1 + 4 + 1)}^^`]);
    // A span over wide text underlines every cell of it.
    const cjk = codeFrame('見出し x\n', span(1, 1, 1, 4));
    expect(cjk).toEqual(['  1 | 見出し x', '    | ^^^^^^']);
  });

  it('draws multi-line spans with a wide gutter, capped at three lines', () => {
    const src = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(codeFrame(src, span(9, 3, 12, 2))).toEqual([
      '   9 | line 9',
      '     |   ^^^^',
      '  10 | line 10',
      '     | ^^^^^^^',
      '  11 | line 11',
      '     | ^^^^^^^',
      '     | …',
    ]);
  });

  it('survives positions past the end of the text and control characters', () => {
    expect(codeFrame('a\n', span(5, 1, 5, 2))).toEqual([]);
    expect(codeFrame('a\u001b[31mb\n', span(1, 1, 1, 2))).toEqual(['  1 | a\uFFFD[31mb', '    | ^']);
    expect(codeFrame('ab\n', span(1, 3, 1, 3))).toEqual(['  1 | ab', '    |   ^']);
  });
});

describe('renderJson', () => {
  it('is a stable array with keys in documented order', () => {
    const shuffled = { hint: 'h', items: [1], endColumn: 2, endLine: 1, column: 1, line: 1, file: 'P.md', message: 'm', severity: 'warning', code: 'c' } as Diagnostic;
    const noHint: Diagnostic = { ...shuffled, hint: undefined };
    delete noHint.hint;
    expect(renderJson([shuffled, noHint])).toBe(
      `${JSON.stringify(
        [
          { code: 'c', severity: 'warning', message: 'm', file: 'P.md', line: 1, column: 1, endLine: 1, endColumn: 2, items: [1], hint: 'h' },
          { code: 'c', severity: 'warning', message: 'm', file: 'P.md', line: 1, column: 1, endLine: 1, endColumn: 2, items: [1] },
        ],
        null,
        2,
      )}\n`,
    );
    expect(renderJson([])).toBe('[]\n');
  });
});

describe('renderGithub', () => {
  it('prints one workflow command per diagnostic', () => {
    expect(renderGithub([dangling])).toBe(
      '::error file=plans/PLAN.md,line=3,col=3,endLine=3,endColumn=15,title=dangling-edge::' +
        'item 2 ("Review") routes to item 9, which does not exist%0Ahint: Point the route at an existing item index (1-based) or #anchor.\n',
    );
  });

  it('uses ::warning for warnings', () => {
    const w = diagnostic('unknown-marker', 'P.md', span(1, 1, 1, 5), 'unknown marker @huh');
    expect(renderGithub([w]).startsWith('::warning file=P.md,line=1,col=1,endLine=1,endColumn=5,title=unknown-marker::unknown marker @huh%0A')).toBe(true);
  });

  it('escapes data and properties per the workflow-command rules', () => {
    expect(escapeGithubData('100% a\r\nb, c: d')).toBe('100%25 a%0D%0Ab, c: d');
    expect(escapeGithubProperty('C:\\a,b%\n')).toBe('C%3A\\a%2Cb%25%0A');
    const d: Diagnostic = { ...dangling, file: 'odd,dir:x/%P.md', message: 'line1\nline2 50%', hint: undefined };
    expect(renderGithub([d])).toBe('::error file=odd%2Cdir%3Ax/%25P.md,line=3,col=3,endLine=3,endColumn=15,title=dangling-edge::line1%0Aline2 50%25\n');
    // Every command stays on one physical line whatever the message holds.
    expect(renderGithub([d, dangling]).trimEnd().split('\n')).toHaveLength(2);
  });
});

describe('renderDiagnostics', () => {
  it('dispatches on format', () => {
    expect(renderDiagnostics([dangling], 'json')).toBe(renderJson([dangling]));
    expect(renderDiagnostics([dangling], 'github')).toBe(renderGithub([dangling]));
    expect(renderDiagnostics([dangling], 'text', () => undefined)).toBe(renderText([dangling]));
  });

  it('keeps a message with a newline on one text line', () => {
    const d = { ...dangling, message: 'a\nb', hint: undefined };
    expect(renderText([d])).toBe('plans/PLAN.md:3:3: error: a b [dangling-edge]\n');
  });
});

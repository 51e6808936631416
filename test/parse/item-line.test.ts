import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../runtime/plan/parse/index.js';
import { at, covered } from './source-text.js';

const first = (md: string) => {
  const item = parsePlan(md, 'p').items[0];
  if (!item) throw new Error('no item parsed');
  return item;
};

describe('item text', () => {
  it('keeps inline markdown as written and joins continuation lines with one space', () => {
    const md = [
      '- [ ] Write **bold** and `code` and [a link](https://example.com)',
      '  across a second line',
      '      and a third.',
      '  @scenario never part of the text',
      '  Still the same paragraph.',
      '',
      '  A second paragraph is not the text.',
    ].join('\n');
    const item = first(md);
    expect(item.text).toBe(
      'Write **bold** and `code` and [a link](https://example.com) across a second line and a third. Still the same paragraph.',
    );
    expect(item.scenarios).toEqual(['never part of the text']);
    expect(at(item.textSpan)).toBe('1:7-5:28');
    expect(at(item.span)).toBe('1:1-5:28');
  });

  it('trims the text but keeps inner spacing as written', () => {
    expect(first('- [ ]    Extra   spaces   kept   \n').text).toBe('Extra   spaces   kept');
  });

  it('takes the text from the line below an empty checkbox line', () => {
    const item = first('- [ ]\n  Text below\n');
    expect(item.text).toBe('Text below');
    expect(at(item.textSpan)).toBe('2:3-2:13');
  });

  it('gives an empty text with a zero-width span after the markers', () => {
    const item = first('- [ ] (after: 1) @gate {#gate}\n');
    expect(item.text).toBe('');
    expect(item.anchor).toBe('gate');
    expect(item.textSpan.line).toBe(item.textSpan.endLine);
    expect(item.textSpan.column).toBe(item.textSpan.endColumn);
  });

  it('measures columns in UTF-16 units across emoji and CJK', () => {
    const md = '- [ ] 🚀 构建 (after: 1) x\n- [ ] 日本語 {#jp}\n  @on fail -> #jp\n';
    const [rocket, japanese] = parsePlan(md, 'p').items;
    expect(rocket!.text).toBe('🚀 构建 (after: 1) x');
    expect(rocket!.depRefs).toEqual([]); // not leading: prose
    expect(at(rocket!.textSpan)).toBe('1:7-1:25'); // 🚀 is two UTF-16 units
    expect(covered(md, rocket!.textSpan)).toBe('🚀 构建 (after: 1) x');
    expect(japanese!.text).toBe('日本語');
    expect(covered(md, japanese!.textSpan)).toBe('日本語');
    expect(japanese!.routes[0]).toMatchObject({ target: 2, targetText: '#jp' });
  });

  it('keeps a span pointing at the right text after astral characters', () => {
    const md = '- [ ] 🎉🎉 party\n  @emit mood=🎉\n';
    const item = first(md);
    expect(covered(md, item.emits[0]!.span)).toBe('@emit mood=🎉');
    expect(item.emits[0]).toMatchObject({ key: 'mood', value: '🎉' });
    expect(at(item.emits[0]!.span)).toBe('2:3-2:16');
  });
});

describe('anchors', () => {
  it('takes a trailing {#name} as the anchor and removes it from the text', () => {
    const md = '- [ ] Build the image {#build}\n';
    const item = first(md);
    expect(item.anchor).toBe('build');
    expect(item.text).toBe('Build the image');
    expect(covered(md, item.textSpan)).toBe('Build the image');
  });

  it('takes {#name} at the end of the checkbox line when the text continues below', () => {
    const item = first('- [ ] Build the image {#build}\n  on the new base\n');
    expect(item.anchor).toBe('build');
    expect(item.text).toBe('Build the image on the new base');
  });

  it('takes {#name} at the end of the last continuation line', () => {
    const item = first('- [ ] Build the image\n  on the new base {#build}\n');
    expect(item.anchor).toBe('build');
    expect(item.text).toBe('Build the image on the new base');
  });

  it('leaves malformed or mid-text anchors in the text', () => {
    const md = ['- [ ] Upper {#Build}', '- [ ] Digit {#1st}', '- [ ] Mid {#mid} text', '- [ ] Under {#bad_name}', '- [ ] ok {#ok-2}'].join('\n');
    const ir = parsePlan(md, 'p');
    expect(ir.items.map((i) => [i.text, i.anchor])).toEqual([
      ['Upper {#Build}', null],
      ['Digit {#1st}', null],
      ['Mid {#mid} text', null],
      ['Under {#bad_name}', null],
      ['ok', 'ok-2'],
    ]);
  });
});

describe('kinds and labels', () => {
  it('reads every kind, case-insensitively, defaulting to work', () => {
    const md = ['- [ ] @work a', '- [ ] @GATE b', '- [ ] @Verify c', '- [ ] @tool `d`', '- [ ] @human e', '- [ ] @feedback f', '- [ ] g'].join('\n');
    expect(parsePlan(md, 'p').items.map((i) => [i.kind, i.text])).toEqual([
      ['work', 'a'],
      ['gate', 'b'],
      ['verify', 'c'],
      ['tool', '`d`'],
      ['human', 'e'],
      ['feedback', 'f'],
      ['work', 'g'],
    ]);
  });

  it('treats @toolbox, @gate-keeper and mail@gate.io as prose', () => {
    const md = ['- [ ] @toolbox is prose', '- [ ] @gate-keeper too', '- [ ] Mail ops@gate.io'].join('\n');
    expect(parsePlan(md, 'p').items.map((i) => [i.kind, i.text, i.kindSpan])).toEqual([
      ['work', '@toolbox is prose', null],
      ['work', '@gate-keeper too', null],
      ['work', 'Mail ops@gate.io', null],
    ]);
  });

  it('reads @node <kind> on the item line, with the span of the marker', () => {
    const md = '- [ ] @node gate Review the schema\n';
    const item = first(md);
    expect([item.kind, item.label, item.text]).toEqual(['gate', null, 'Review the schema']);
    expect(covered(md, item.kindSpan!)).toBe('@node gate');
    expect(at(item.kindSpan!)).toBe('1:7-1:17');
  });

  it('treats @node with an unknown kind as prose', () => {
    expect([first('- [ ] @node banana split\n').kind, first('- [ ] @node banana split\n').text]).toEqual(['work', '@node banana split']);
  });

  it('takes an explicit name: label or a bare lowercase word followed by more text', () => {
    const md = [
      '- [ ] @gate security Review auth',
      '- [ ] @gate perf-budget: Keep the page fast',
      '- [ ] @gate security',
      '- [ ] @gate Security Review with a capital',
      '- [ ] @human legal: Sign off',
      '- [ ] @node human ops: Approve',
      '- [ ] @gate API: Explicit labels may be capitalised',
      '- [ ] @verify smoke: ',
    ].join('\n');
    expect(parsePlan(md, 'p').items.map((i) => [i.kind, i.label, i.text])).toEqual([
      ['gate', 'security', 'Review auth'],
      ['gate', 'perf-budget', 'Keep the page fast'],
      ['gate', null, 'security'],
      ['gate', null, 'Security Review with a capital'],
      ['human', 'legal', 'Sign off'],
      ['human', 'ops', 'Approve'],
      ['gate', 'API', 'Explicit labels may be capitalised'],
      ['verify', 'smoke', ''],
    ]);
  });

  it('never takes a bare label on @tool: the text is the command', () => {
    const md = [
      '- [ ] @tool `npm test` runs the unit tests',
      '- [ ] @tool npm run lint',
      '- [ ] @tool ci `make check` then `make dist`',
      '- [ ] @tool',
      '- [ ] @tool {#run}',
      '- [ ] @tool ``echo `nested` ``',
    ].join('\n');
    expect(parsePlan(md, 'p').items.map((i) => [i.label, i.text, i.command])).toEqual([
      [null, '`npm test` runs the unit tests', 'npm test'],
      [null, 'npm run lint', 'npm run lint'],
      [null, 'ci `make check` then `make dist`', 'make check'],
      [null, '', ''],
      [null, '', ''],
      [null, '``echo `nested` ``', 'echo `nested`'],
    ]);
  });

  it('takes an explicit name: label on @tool (docs/plan-language.md: only a bare label is refused)', () => {
    const md = ['- [ ] @tool deploy: `./deploy.sh --dry-run`', '- [ ] @tool build: make all', '- [ ] @tool lint:'].join('\n');
    expect(parsePlan(md, 'p').items.map((i) => [i.label, i.text, i.command])).toEqual([
      ['deploy', '`./deploy.sh --dry-run`', './deploy.sh --dry-run'],
      ['build', 'make all', 'make all'],
      ['lint', '', ''],
    ]);
  });

  it('gives command null on every non-tool item', () => {
    const ir = parsePlan('- [ ] `npm test`\n- [ ] @gate `x`\n', 'p');
    expect(ir.items.map((i) => i.command)).toEqual([null, null]);
  });

  it('reads several leading kind markers, the last one winning (as the original Leopold)', () => {
    const item = first('- [ ] @gate @verify Check\n');
    expect([item.kind, item.text]).toEqual(['verify', 'Check']);
    const labelled = first('- [ ] @gate sec @human Ask them\n');
    expect([labelled.kind, labelled.label, labelled.text]).toEqual(['human', 'sec', 'Ask them']);
    // Nothing after @tool is another kind: it is the command.
    const tool = first('- [ ] @tool @human\n');
    expect([tool.kind, tool.text]).toEqual(['tool', '@human']);
  });
});

describe('dependency markers', () => {
  it('reads (after:) and (deps:) with any case, commas and/or spaces', () => {
    const md = [
      '- [ ] one',
      '- [ ] two',
      '- [ ] three',
      '- [ ] (after: 1 2) four',
      '- [ ] (AFTER:1,2 3) five',
      '- [ ] (Deps:   1 ,  2 ,3  ) six',
      '- [ ] (after: ) seven',
    ].join('\n');
    expect(parsePlan(md, 'p').items.map((i) => [i.text, i.deps])).toEqual([
      ['one', []],
      ['two', []],
      ['three', []],
      ['four', [1, 2]],
      ['five', [1, 2, 3]],
      ['six', [1, 2, 3]],
      ['seven', []],
    ]);
  });

  it('keeps every ref as written with its span, and collapses duplicates in deps', () => {
    const md = '- [ ] Alpha {#alpha}\n- [ ] Beta\n- [ ] (after: 2, 1, 2, #alpha, #2) Gamma\n';
    const gamma = parsePlan(md, 'p').items[2]!;
    expect(gamma.depRefs.map((r) => [r.ref, r.index, covered(md, r.span)])).toEqual([
      ['2', 2, '2'],
      ['1', 1, '1'],
      ['2', 2, '2'],
      ['#alpha', 1, '#alpha'],
      ['#2', 2, '#2'],
    ]);
    expect(gamma.depRefs[0]!.span).toEqual({ line: 3, column: 15, endLine: 3, endColumn: 16 });
    expect(gamma.deps).toEqual([2, 1]);
  });

  it('resolves refs to nothing (null) for 0, unknown anchors, missing items and junk; deps keep only earlier items', () => {
    const md = [
      '- [ ] first',
      '- [ ] (after: 2) self',
      '- [ ] (after: 4) later',
      '- [ ] (after: 1, 9) missing',
      '- [ ] (deps: 0 #nowhere lunch 99999999999) junk',
      '- [ ] later one {#late}',
      '- [ ] (after: #late) anchored',
    ].join('\n');
    const items = parsePlan(md, 'p').items;
    expect(items.map((i) => i.depRefs.map((r) => [r.ref, r.index]))).toEqual([
      [],
      [['2', 2]],
      [['4', 4]],
      [['1', 1], ['9', null]],
      [['0', null], ['#nowhere', null], ['lunch', null], ['99999999999', null]],
      [],
      [['#late', 6]],
    ]);
    expect(items.map((i) => i.deps)).toEqual([[], [], [], [1], [], [], [6]]);
  });

  it('resolves a forward anchor (it is dropped from deps, kept in depRefs)', () => {
    const [a] = parsePlan('- [ ] (after: #b) a\n- [ ] b {#b}\n', 'p').items;
    expect(a!.depRefs.map((r) => r.index)).toEqual([2]);
    expect(a!.deps).toEqual([]);
  });

  it('reads dependency and kind markers in either order', () => {
    const md = '- [ ] one\n- [ ] (after: 1) @gate Review\n- [ ] @verify (after: 2) Check\n- [ ] @node tool (deps: 1) `make`\n';
    const items = parsePlan(md, 'p').items;
    expect(items.map((i) => [i.kind, i.deps, i.text, i.command])).toEqual([
      ['work', [], 'one', null],
      ['gate', [1], 'Review', null],
      ['verify', [2], 'Check', null],
      ['tool', [1], '`make`', 'make'],
    ]);
    expect(covered(md, items[1]!.kindSpan!)).toBe('@gate');
    expect(covered(md, items[2]!.textSpan)).toBe('Check');
  });

  it('takes a label after the kind even when a dependency marker follows it', () => {
    const item = first('- [ ] @gate security (after: 1) Review\n');
    expect([item.label, item.text, item.depRefs.map((r) => r.ref)]).toEqual(['security', 'Review', ['1']]);
  });

  it('only reads leading markers: later ones are prose', () => {
    const item = first('- [ ] Do it (after: 1) @gate\n');
    expect([item.text, item.kind, item.depRefs]).toEqual(['Do it (after: 1) @gate', 'work', []]);
  });
});

import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../runtime/plan/parse/index.js';
import { at, covered } from './source-text.js';

const plan = (lines: string[]) => {
  const md = lines.join('\n');
  return { md, ir: parsePlan(md, 'PLAN.md') };
};

describe('@on routes', () => {
  it('reads status routes with every arrow, spanning the trimmed marker line', () => {
    const { md, ir } = plan(['- [ ] Try', '  @on fail -> 4', '  @on ok => 3  ', '\t@on pass → 2', '- [ ] b', '- [ ] c', '- [ ] d']);
    const routes = ir.items[0]!.routes;
    expect(routes.map((r) => [r.when, r.kind, r.target, r.targetText])).toEqual([
      ['fail', 'status', 4, '4'],
      ['ok', 'status', 3, '3'],
      ['pass', 'status', 2, '2'],
    ]);
    expect(routes.map((r) => covered(md, r.span))).toEqual(['@on fail -> 4', '@on ok => 3', '@on pass → 2']);
    expect(routes.map((r) => at(r.span))).toEqual(['2:3-2:16', '3:3-3:14', '4:2-4:14']);
    expect(routes[0]).toEqual({ when: 'fail', kind: 'status', target: 4, targetText: '4', span: routes[0]!.span });
  });

  it('reads signal tests: =, == and != normalised, values unquoted once', () => {
    const { ir } = plan([
      '- [ ] @gate Review',
      '  @on verdict=approve -> 2',
      '  @on verdict==reject -> 3',
      '  @on severity != low -> 3',
      '  @on verdict="needs work" -> 3',
      "  @on note='\"quoted twice\"' -> 2",
      '  @on exit!=0 -> 2',
      '- [ ] b',
      '- [ ] c',
    ]);
    expect(ir.items[0]!.routes.map((r) => [r.when, r.kind, r.key, r.op, r.value, r.target])).toEqual([
      ['verdict=approve', 'signal', 'verdict', '=', 'approve', 2],
      ['verdict==reject', 'signal', 'verdict', '=', 'reject', 3],
      ['severity != low', 'signal', 'severity', '!=', 'low', 3],
      ['verdict="needs work"', 'signal', 'verdict', '=', 'needs work', 3],
      [`note='"quoted twice"'`, 'signal', 'note', '=', '"quoted twice"', 2],
      ['exit!=0', 'signal', 'exit', '!=', '0', 2],
    ]);
  });

  it('leaves key/op/value out of status routes', () => {
    const route = plan(['- [ ] a', '  @on fail -> 1']).ir.items[0]!.routes[0]!;
    expect(Object.keys(route).sort()).toEqual(['kind', 'span', 'target', 'targetText', 'when']);
  });

  it('resolves targets written as N, #N and #anchor (forward too)', () => {
    const { ir } = plan(['- [ ] a', '  @on ok -> 2', '  @on fail -> #3', '  @on retry=yes -> #fixup', '- [ ] b', '- [ ] c {#fixup}']);
    expect(ir.items[0]!.routes.map((r) => [r.target, r.targetText])).toEqual([
      [2, '2'],
      [3, '#3'],
      [3, '#fixup'],
    ]);
  });

  it('keeps missing, unparseable and unknown-anchor targets as 0 with the text as written', () => {
    const { ir } = plan(['- [ ] a', '  @on fail ->', '  @on ok -> somewhere', '  @on fail', '  @on done -> #ghost', '  @on', '  @on x -> 99']);
    expect(ir.items[0]!.routes.map((r) => [r.when, r.target, r.targetText])).toEqual([
      ['fail', 0, ''],
      ['ok', 0, 'somewhere'],
      ['fail', 0, ''],
      ['done', 0, '#ghost'],
      // A bare `@on` routes nothing: it is an unknown-marker stray, not a route (see below).
      // A number is kept even past the last item: the graph phase names it dangling.
      ['x', 99, '99'],
    ]);
  });

  it('reports a bare @on as a stray instead of a route to 0', () => {
    const { ir } = plan(['- [ ] a', '  @on', '  @on:']);
    expect(ir.items[0]!.routes).toEqual([]);
    expect(ir.strays.map((s) => [s.reason, s.name])).toEqual([
      ['unknown', 'on'],
      ['unknown', 'on'],
    ]);
  });

  it("accepts the original Leopold's colon after the marker word", () => {
    const item = plan([
      '- [ ] a',
      '  @scenario: it works',
      '  @on: ok -> 2',
      '  @emit: done=yes',
      '  @needs: k',
      '  @writes: src/**',
      '  @node: human ops',
      '- [ ] b',
    ]).ir.items[0]!;
    expect(item.scenarios).toEqual(['it works']);
    expect(item.routes.map((r) => [r.when, r.target])).toEqual([['ok', 2]]);
    expect(item.emits.map((e) => [e.key, e.value])).toEqual([['done', 'yes']]);
    expect(item.needs.map((n) => n.key)).toEqual(['k']);
    expect(item.writes).toEqual(['src/**']);
    expect([item.kind, item.label]).toEqual(['human', 'ops']);
  });

  it('de-duplicates @needs keys and reads k=v as key k', () => {
    const item = plan(['- [ ] a', '  @needs k, k m=1', '  @needs m k =x']).ir.items[0]!;
    expect(item.needs.map((n) => n.key)).toEqual(['k', 'm']);
  });

  it('splits at the last arrow, so a quoted value may hold an arrow', () => {
    const route = plan(['- [ ] a', '  @on msg="a->b" -> 1']).ir.items[0]!.routes[0]!;
    expect([route.key, route.value, route.target]).toEqual(['msg', 'a->b', 1]);
  });

  it('reads marker words case-insensitively', () => {
    const item = plan(['- [ ] a', '  @ON fail -> 1', '  @Emit done']).ir.items[0]!;
    expect([item.routes.length, item.emits.map((e) => e.key)]).toEqual([1, ['done']]);
  });
});

describe('@emit, @needs, @scenario, @writes', () => {
  it('reads @emit key=value and bare @emit key (value true); no implicit exit on @tool', () => {
    const { md, ir } = plan(['- [ ] decide', '  @emit channel=beta', '  @emit ready', '  @emit  note = "hi there" ', '- [ ] @tool `npm test`']);
    expect(ir.items[0]!.emits.map((e) => [e.key, e.value, covered(md, e.span)])).toEqual([
      ['channel', 'beta', '@emit channel=beta'],
      ['ready', 'true', '@emit ready'],
      ['note', 'hi there', '@emit  note = "hi there"'],
    ]);
    expect(ir.items[1]!.emits).toEqual([]);
  });

  it('reads @needs lists separated by commas and/or spaces, each spanning the line', () => {
    const { md, ir } = plan(['- [ ] use', '  @needs a, b c', '  @needs d']);
    const needs = ir.items[0]!.needs;
    expect(needs.map((n) => n.key)).toEqual(['a', 'b', 'c', 'd']);
    expect(needs.map((n) => covered(md, n.span))).toEqual(['@needs a, b c', '@needs a, b c', '@needs a, b c', '@needs d']);
  });

  it('reads @scenario text and @writes globs (whitespace-separated, commas kept)', () => {
    const { ir } = plan([
      '- [ ] log in',
      '  @scenario a user with the right password sees the dashboard',
      '  @scenario a wrong password shows "Invalid credentials"',
      '  @writes compiler/parse/** test/parse/*.test.ts',
      '  @writes src/{a,b}/**',
    ]);
    const item = ir.items[0]!;
    expect(item.scenarios).toEqual(['a user with the right password sees the dashboard', 'a wrong password shows "Invalid credentials"']);
    expect(item.writes).toEqual(['compiler/parse/**', 'test/parse/*.test.ts', 'src/{a,b}/**']);
  });
});

describe('kind lines', () => {
  it('sets kind, label and kindSpan from a kind line under the item', () => {
    const { md, ir } = plan(['- [ ] Verify the rollout', '  @node verify', '- [ ] Ask on-call', '@node human ops', '- [ ] Check', '  @gate security', '- [ ] Plain', '  @Human']);
    expect(ir.items.map((i) => [i.kind, i.label, i.text])).toEqual([
      ['verify', null, 'Verify the rollout'],
      ['human', 'ops', 'Ask on-call'],
      ['gate', 'security', 'Check'],
      ['human', null, 'Plain'],
    ]);
    expect(covered(md, ir.items[1]!.kindSpan!)).toBe('@node human ops');
    expect(at(ir.items[2]!.kindSpan!)).toBe('6:3-6:17');
  });

  it('lets a kind line override the item-line kind (last one wins)', () => {
    const { ir } = plan(['- [ ] @gate security Review', '  @verify smoke']);
    expect([ir.items[0]!.kind, ir.items[0]!.label, ir.items[0]!.kindSpan?.line]).toEqual(['verify', 'smoke', 2]);
  });

  it('takes a @tool line command from the line, else from the item text', () => {
    const { ir } = plan([
      '- [ ] Run the tests',
      '  @tool `npm test`',
      '- [ ] `make`',
      '  @tool',
      '- [ ] nothing here',
      '  @node tool',
      '- [ ] Ship it',
      '  @node tool deploy: ./deploy.sh',
    ]);
    expect(ir.items.map((i) => [i.kind, i.label, i.command])).toEqual([
      ['tool', null, 'npm test'],
      ['tool', null, 'make'],
      ['tool', null, 'nothing here'],
      ['tool', 'deploy', './deploy.sh'],
    ]);
  });
});

describe('where marker lines attach', () => {
  it('attaches to the nearest item above across blank lines, prose, headings and nesting', () => {
    const { ir } = plan(['- [ ] Parent', '  - [ ] Child', '', 'Some prose.', '', '## A heading', '', '@emit built', '- [ ] Consumer', '  @needs built']);
    expect(ir.items.map((i) => [i.text, i.emits.map((e) => e.key), i.needs.map((n) => n.key)])).toEqual([
      ['Parent', [], []],
      ['Child', ['built'], []],
      ['Consumer', [], ['built']],
    ]);
  });

  it('reads lazy continuation marker lines inside an item paragraph as markers, not text', () => {
    const { ir } = plan(['- [ ] Deploy', '@on fail -> 2', 'still text', '- [ ] Roll back']);
    expect(ir.items[0]!.text).toBe('Deploy still text');
    expect(ir.items[0]!.routes.map((r) => r.target)).toEqual([2]);
  });

  it('ignores marker lines inside fenced code, indented code and HTML blocks', () => {
    const { ir } = plan([
      '- [ ] Real',
      '```',
      '@on fail -> 9',
      '```',
      '~~~',
      '@frobnicate',
      '~~~',
      '',
      '    @emit ghost',
      '',
      '<!--',
      '@needs hidden',
      '-->',
      '',
      '<div>',
      '@weird',
      '</div>',
    ]);
    expect(ir.items[0]!.routes).toEqual([]);
    expect(ir.items[0]!.emits).toEqual([]);
    expect(ir.items[0]!.needs).toEqual([]);
    expect(ir.strays).toEqual([]);
  });

  it('ignores quoted marker lines (they start with >) but not inline HTML lines', () => {
    const { ir } = plan(['- [ ] Real', '', '> @on fail -> 9', '', 'Some <span>inline</span>', '@emit seen']);
    expect(ir.items[0]!.routes).toEqual([]);
    expect(ir.items[0]!.emits.map((e) => e.key)).toEqual(['seen']);
  });

  it('reports marker lines before the first item as orphans and unknown words as unknown', () => {
    const { md, ir } = plan(['# Plan', '', '@on fail -> 1', 'Intro.', '@emit ready', '- [ ] First', '  @frobnicate now', '  @Priority high', '  @toolbox']);
    expect(ir.strays.map((s) => [s.reason, s.name, s.text, s.item, at(s.span)])).toEqual([
      ['orphan', 'on', '@on fail -> 1', null, '3:1-3:14'],
      ['orphan', 'emit', '@emit ready', null, '5:1-5:12'],
      ['unknown', 'frobnicate', '@frobnicate now', 1, '7:3-7:18'],
      ['unknown', 'priority', '@Priority high', 1, '8:3-8:17'],
      ['unknown', 'toolbox', '@toolbox', 1, '9:3-9:11'],
    ]);
    expect(covered(md, ir.strays[2]!.span)).toBe('@frobnicate now');
    expect(ir.items[0]!.routes).toEqual([]);
  });

  it('reports known markers missing what they need as unknown strays', () => {
    const { ir } = plan(['- [ ] a', '  @emit', '  @emit =x', '  @needs , ', '  @scenario', '  @writes', '  @node banana']);
    expect(ir.strays.map((s) => [s.reason, s.name, s.item])).toEqual([
      ['unknown', 'emit', 1],
      ['unknown', 'emit', 1],
      ['unknown', 'needs', 1],
      ['unknown', 'scenario', 1],
      ['unknown', 'writes', 1],
      ['unknown', 'node', 1],
    ]);
    expect(ir.items[0]).toMatchObject({ emits: [], needs: [], scenarios: [], writes: [], kind: 'work' });
  });

  it('does not treat "@" alone, "@1" or mid-line @words as marker lines', () => {
    const { ir } = plan(['- [ ] a', '  @ not a marker', '  @1 nor this', '  mail me@example.com']);
    expect(ir.strays).toEqual([]);
    expect(ir.items[0]!.text).toBe('a @ not a marker @1 nor this mail me@example.com');
  });
});

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateChecklist, generatePlan } from '../../bench/plans.js';
import { parsePlan, parsePlanWith, WHOLE_DOCUMENT } from '../../runtime/plan/parse/index.js';
import { readMarkdown } from '../../runtime/plan/parse/markdown.js';
import { plainMarkdownFacts } from '../../runtime/plan/parse/plain.js';
import { readSource } from '../../runtime/plan/parse/source.js';
import { sized } from '../support/stress.js';

// A plain plan is read line by line (runtime/plan/parse/plain.ts) instead of by remark. That
// is exact only if, whenever the line reader answers, its facts are what remark's walk gives:
// checked on generated text drawn mostly from the lines it accepts and partly from lines
// one character away from them (which it must refuse or read the same).

const facts = (text: string) => plainMarkdownFacts(readSource(text));
const remarkFacts = (text: string) => readMarkdown(readSource(text), WHOLE_DOCUMENT);

const PLAIN = [
  '# Plan', '## Phase 2', '###### six', '#\tTab', '#', '- [ ] item', '- [x] done', '- [X] Done', '- [ ] trailing  ',
  '- [ ] a | b', '- [ ] `code` and *em* <b>', '- [ ] (after: #a) Count {#b}', '- [ ] @tool `npm test`', 'prose line',
  'Prose ending in a hard break  ', 'text | with | pipes', 'A line\\', '  @on fail -> #fix', '  @emit k=v', ' @one space',
  '   @three spaces', '  Indented text', '', '  ', '\t',
];
const NEAR = [
  '####### seven', '#nospace', '- [ ]', '- [ ]  two spaces', '- [ ]\ttab', '- [x]foo', '-  [ ] wide', '* [ ] star', '+ [ ] plus',
  '1. [ ] ordered', '  - [ ] nested', '    @four spaces', '\t@tab', ' \t@mixed', '  - plain', '---', '===', '***', '```', '~~~',
  '> quote', '<div>', '<!-- c -->', '[x]: /url', '[^1]: note', '| a | b |', '|---|---|', '  |---|', '- plain bullet',
  '\uFEFF# bom', 'carriage\r', 'nul\0',
];
const line = fc.oneof({ arbitrary: fc.constantFrom(...PLAIN), weight: 12 }, { arbitrary: fc.constantFrom(...NEAR), weight: 1 });
const text = fc
  .tuple(fc.array(line, { maxLength: 40 }), fc.boolean())
  .map(([lines, finalNewline]) => lines.join('\n') + (finalNewline ? '\n' : ''));

describe('the plain-plan line reader', () => {
  it('reads what remark reads, whenever it answers', () => {
    let answered = 0;
    let refused = 0;
    fc.assert(
      fc.property(text, (t) => {
        const plain = facts(t);
        if (plain === null) {
          refused++;
          return;
        }
        answered++;
        expect(plain).toEqual(remarkFacts(t));
      }),
      { numRuns: sized(1500, 10_000) },
    );
    // Both sides of the property are exercised (or it would prove nothing).
    expect(answered).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });

  it('answers for a generated checklist and the example brief, and gives the IR the full parse gives', () => {
    for (const t of [generateChecklist(1000), readFileSync('fixtures/example/.leopold/PLAN.md', 'utf8')]) {
      expect(facts(t)).not.toBeNull();
      expect(parsePlan(t, 'PLAN.md')).toEqual(parsePlanWith(t, 'PLAN.md', WHOLE_DOCUMENT));
    }
  });

  it('refuses what only remark can read: nested items, fences, CRLF, a BOM left in the body', () => {
    expect(facts('- [ ] a\n  - [ ] nested\n')).toBeNull();
    expect(facts('- [ ] a\n\n```\n- [ ] not an item\n```\n')).toBeNull();
    expect(facts('- [ ] a\r\n- [ ] b\r\n')).toBeNull();
    expect(facts('\uFEFF\uFEFF- [ ] a\n')).toBeNull();
    expect(facts(generatePlan(100))).toBeNull();
  });

  it('ends an item at a blank line, a heading or the next item, and runs it on over continuation lines', () => {
    const t = '- [ ] one\n  @needs k\nlazy prose\n- [x] two\n\n  @on ok -> 1\n# H\n- [ ] three\n## H2\n';
    expect(facts(t)).toEqual({
      items: [
        { markerOffset: 0, checkOffset: 3, done: false, paragraphEnd: t.indexOf('\n- [x]') },
        { markerOffset: t.indexOf('- [x]'), checkOffset: t.indexOf('- [x]') + 3, done: true, paragraphEnd: t.indexOf('\n\n') },
        { markerOffset: t.indexOf('- [ ] three'), checkOffset: t.indexOf('- [ ] three') + 3, done: false, paragraphEnd: t.indexOf('\n## H2') },
      ],
      codeLineRanges: [],
    });
    expect(facts(t)).toEqual(remarkFacts(t));
  });
});

import fc from 'fast-check';

/**
 * fast-check arbitraries for plan-ish markdown: lines drawn from a grammar of the
 * constructs docs/plan-language.md–2 gives meaning to (items with markers, marker lines, fences,
 * quotes, HTML, headings), glued with mixed line endings, an optional BOM and an optional
 * final newline. Valid and broken fragments are mixed on purpose.
 */

const word = fc.constantFrom(
  'build', 'test', 'ok', 'fail', 'pass', 'security', 'Deploy', 'ops', 'x', 'verdict', 'exit',
  'déjà', '构建', 'مرحبا', '🚀', '👩‍👩‍👧', 'a\u0301', '', ' ', '\t', '**bold**', '`code`', '[l](u)', '<b>', '\\', '{#', '}',
);
const words = fc.array(word, { maxLength: 6 }).map((w) => w.join(' '));
const smallInt = fc.oneof(fc.integer({ min: -2, max: 30 }), fc.constant(99999999999999999999), fc.constant(0));
const ref = fc.oneof(
  smallInt.map(String),
  fc.constantFrom('#build', '#b', '#Bad', '#1', '#', '#ok-2', 'abc', '', '1.5', '#5'),
);
const sep = fc.constantFrom(', ', ',', ' ', '  ', ' , ', ';', '');
const depMarker = fc
  .tuple(fc.constantFrom('after', 'deps', 'AFTER', 'Deps', 'befor'), fc.array(fc.tuple(ref, sep), { maxLength: 5 }), fc.constantFrom(')', '', '))'))
  .map(([kw, refs, close]) => `(${kw}:${refs.map(([r, s]) => r + s).join('')}${close}`);
const kindMarker = fc.oneof(
  fc.constantFrom('@work', '@gate', '@verify', '@tool', '@human', '@feedback', '@GATE', '@toolbox', '@node', '@node tool', '@node human', '@node bogus', '@'),
  fc.tuple(fc.constantFrom('@gate', '@human', '@node gate'), fc.constantFrom(' sec', ' sec:', ' Sec', ' perf-budget:', ':')).map(([k, l]) => k + l),
);
const anchor = fc.constantFrom('', '', ' {#build}', ' {#b}', ' {#Bad}', '{#x}', ' {#ok-2}', ' {#}');
const listMarker = fc.constantFrom('- ', '* ', '+ ', '1. ', '2) ', '10. ', '-', '-\t');
const box = fc.constantFrom('[ ] ', '[x] ', '[X] ', '[ ]', '[] ', '[  ] ', '[x]\t');
const indent = fc.constantFrom('', '', '  ', '   ', '    ', '\t', '      ', '> ', '>> ', '  > ');

const itemLine = fc
  .tuple(indent, listMarker, box, fc.array(fc.oneof(depMarker, kindMarker), { maxLength: 3 }), words, anchor)
  .map(([i, m, b, markers, text, a]) => `${i}${m}${b}${markers.join(' ')} ${text}${a}`);

const arrow = fc.constantFrom(' -> ', '->', ' => ', ' → ', ' - > ', ' ');
const condition = fc.oneof(
  word,
  fc.tuple(fc.constantFrom('verdict', 'exit', 'k', '', 'a b'), fc.constantFrom('=', '==', '!=', '=!', '==='), fc.constantFrom('x', '"needs work"', "'q'", '"', '', '0')).map((p) => p.join('')),
);
const markerLineWith = (writes: boolean) => fc.oneof(
  fc.tuple(indent, condition, arrow, ref).map(([i, c, a, t]) => `${i}@on ${c}${a}${t}`),
  fc.tuple(indent, fc.constantFrom('@emit', '@EMIT', '@emit '), fc.constantFrom(' k=v', ' k', '', ' verdict=approve', ' =x', ' a=b=c')).map((p) => p.join('')),
  fc.tuple(indent, fc.constantFrom('@needs', '@Needs'), fc.constantFrom(' k', ' k, verdict', ' a b,c', '', ' ,,')).map((p) => p.join('')),
  fc.tuple(indent, fc.constantFrom('@scenario', writes ? '@writes' : '@scenario'), words).map((p) => p.join(' ')),
  fc.tuple(indent, kindMarker, words).map((p) => p.join(' ')),
  fc.tuple(indent, fc.constantFrom('@frob', '@Priority', '@@', '@on', '@1', 'mail@x.io'), words).map((p) => p.join(' ')),
);
const structural = fc.constantFrom(
  '', '', '# Heading', '## Phase 2', 'Some prose.', '```', '```md', '~~~', '    code', '<div>', '</div>', '<!--', '-->',
  '<details>', '> quote', '---', '| a | b |', '|---|---|', '[^1]: note', '  continuation text',
);
const lineWith = (writes: boolean) => fc.oneof(
  { weight: 4, arbitrary: itemLine },
  { weight: 3, arbitrary: markerLineWith(writes) },
  { weight: 3, arbitrary: structural },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
);
const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');

/** A random plan-ish markdown document; `writes: false` leaves out `@writes` lines. */
export function planTextWith({ writes }: { writes: boolean }): fc.Arbitrary<string> {
  return fc
    .tuple(fc.boolean(), fc.array(fc.tuple(lineWith(writes), eol), { maxLength: 40 }), fc.boolean())
    .map(([bom, lines, finalEol]) => {
      let text = lines.map(([l, e]) => l + e).join('');
      if (!finalEol) text = text.replace(/(\r\n|\r|\n)$/, '');
      return (bom ? '\uFEFF' : '') + text;
    });
}

/** A random plan-ish markdown document, every construct included. */
export const planText = planTextWith({ writes: true });

/** Random bytes decoded as UTF-8 (invalid sequences become U+FFFD, as readFile does). */
export const byteText = fc.uint8Array({ maxLength: 400 }).map((bytes) => Buffer.from(bytes).toString('utf8'));

/** Random code points from all of Unicode, lone surrogates included. */
export const unicodeText = fc.string({ unit: 'binary', maxLength: 200 });

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPlan, globsOverlap } from '../../compiler/graph/index.js';
import { diag, plan } from './factory.js';

const OVERLAPPING: [string, string][] = [
  ['src/**', 'src/a/*.ts'],
  ['a/?/c', 'a/b/*'],
  ['**', 'any/depth/at/all'],
  ['**/*.ts', 'src/x.ts'],
  ['src/*.ts', 'src/*.ts'],
  ['src/a*.ts', 'src/*b.ts'],
  ['src/{a,b}.ts', 'src/b.ts'],
  ['{src,test}/**', 'test/x.ts'],
  ['src/[a-c].ts', 'src/b.ts'],
  ['src/[!a].ts', 'src/?.ts'],
  ['./src/x', 'src/x'],
  ['src/', 'src/deep/file'],
  ['**/test/**', 'a/test/b'],
  ['a/**/b', 'a/b'],
  ['a/**/c', 'a/b/**'],
  ['src/*', 'src/**/x'],
  ['a\\*b', 'a*b'],
];

const DISJOINT: [string, string][] = [
  ['*.md', 'docs/*.md'],
  ['src/a/*.ts', 'src/b/*.ts'],
  ['a/?/c', 'a/bb/c'],
  ['src/*.ts', 'src/*.js'],
  ['src/[a-c].ts', 'src/d.ts'],
  ['src/[!a].ts', 'src/a.ts'],
  ['a/*/b', 'a/b'],
  ['docs/**', 'src/**'],
  ['src/{a,b}.ts', 'src/c.ts'],
  ['a*b', 'a*c'],
  ['x?', 'x'],
  ['a\\*b', 'axb'],
];

describe('globsOverlap', () => {
  it.each(OVERLAPPING)('%s and %s can match a common path', (a, b) => {
    expect([globsOverlap(a, b), globsOverlap(b, a)]).toEqual([true, true]);
  });

  it.each(DISJOINT)('%s and %s cannot', (a, b) => {
    expect([globsOverlap(a, b), globsOverlap(b, a)]).toEqual([false, false]);
  });

  // An independent oracle: backtracking over segments with a regex per segment.
  const matches = (glob: string, path: string): boolean => {
    const segment = (pattern: string): RegExp =>
      new RegExp(`^${pattern.replace(/\*+/g, '\u0000').replace(/\?/g, '[^/]').replace(/\u0000/g, '[^/]*')}$`);
    const go = (g: string[], p: string[]): boolean => {
      if (g.length === 0) return p.length === 0;
      if (g[0] === '**') return go(g.slice(1), p) || (p.length > 0 && go(g, p.slice(1)));
      return p.length > 0 && segment(g[0]!).test(p[0]!) && go(g.slice(1), p.slice(1));
    };
    return go(glob.split('/'), path.split('/'));
  };
  const segmentGlob = fc.stringMatching(/^[ab*?]{1,4}$/);
  const glob = fc.array(fc.oneof(segmentGlob, fc.constant('**')), { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
  const path = fc.array(fc.stringMatching(/^[ab]{1,3}$/), { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));

  it('agrees with a matcher when one side is a plain path (property)', () => {
    fc.assert(fc.property(glob, path, (g, p) => globsOverlap(g, p) === matches(g, p)), { numRuns: 2000 });
  });

  it('never misses a path both globs match (property)', () => {
    fc.assert(
      fc.property(glob, glob, path, (a, b, p) => {
        if (matches(a, p) && matches(b, p)) expect(globsOverlap(a, b)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('write-scope-overlap', () => {
  const EXPECTED = 'their scopes can match the same path; expected disjoint @writes within a wave';
  const parallel = { parallelItems: true };

  it('says nothing while items run one at a time (parallel_items off, the default)', () => {
    const ir = plan([{ text: 'A', writes: ['src/**'] }, { text: 'B', writes: ['src/**'] }]);
    expect(checkPlan(ir)).toEqual([]);
    expect(checkPlan(ir, { parallelItems: false })).toEqual([]);
    expect(checkPlan(ir, parallel).map((d) => d.code)).toEqual(['write-scope-overlap']);
  });

  it('warns about two items of one wave, pointing at the later one', () => {
    const ir = plan([
      { text: 'A', writes: ['src/**'] },
      { text: 'B', writes: ['lib/x.ts', 'src/a/*.ts'] },
      { text: 'C', writes: ['docs/*.md'] },
      { text: 'D' },
      { text: 'E', after: [1], writes: ['src/a/x.ts'] },
    ]);
    expect(checkPlan(ir, parallel)).toEqual([
      diag(
        'write-scope-overlap',
        'warning',
        [5, 7, 5, 8],
        `item 1 ("A") (@writes src/**) and item 2 ("B") (@writes src/a/*.ts) are both in wave 1, which parallel_items runs side by side, and ${EXPECTED}`,
        [1, 2],
      ),
    ]);
  });

  it('pairs a wildcard-headed scope with every writer of its wave', () => {
    const ir = plan([
      { text: 'Docs', writes: ['docs/*.md'] },
      { text: 'Any md', writes: ['**/*.md'] },
      { text: 'Top md', writes: ['*.md'] },
      { text: 'Src', writes: ['src/**'] },
    ]);
    expect(checkPlan(ir, parallel).map((d) => [d.line, d.items, d.message])).toEqual([
      [5, [1, 2], `item 1 ("Docs") (@writes docs/*.md) and item 2 ("Any md") (@writes **/*.md) are both in wave 1, which parallel_items runs side by side, and ${EXPECTED}`],
      [7, [2, 3], `item 2 ("Any md") (@writes **/*.md) and item 3 ("Top md") (@writes *.md) are both in wave 1, which parallel_items runs side by side, and ${EXPECTED}`],
      // src/x.md is under both.
      [9, [2, 4], `item 2 ("Any md") (@writes **/*.md) and item 4 ("Src") (@writes src/**) are both in wave 1, which parallel_items runs side by side, and ${EXPECTED}`],
    ]);
  });

  it('warns once per item, naming the first earlier scope it overlaps', () => {
    const ir = plan([{ text: 'A', writes: ['src/**'] }, { text: 'B', writes: ['src/**'] }, { text: 'C', writes: ['src/x', 'src/**'] }]);
    expect(checkPlan(ir, parallel).map((d) => [d.line, d.items, d.message])).toEqual([
      [5, [1, 2], `item 1 ("A") (@writes src/**) and item 2 ("B") (@writes src/**) are both in wave 1, which parallel_items runs side by side, and ${EXPECTED}`],
      [7, [1, 3], `item 1 ("A") (@writes src/**) and item 3 ("C") (@writes src/x) are both in wave 1, which parallel_items runs side by side, and ${EXPECTED}`],
    ]);
  });

  it('finds overlaps with deeper and shallower literal prefixes, and none between sibling directories', () => {
    const ir = plan([
      { text: 'Deep', writes: ['src/a/b.ts'] },
      { text: 'Sibling', writes: ['src/part-2/**', 'test/part-2.test.ts'] },
      { text: 'Wide', writes: ['src/{a,c}/**'] },
      { text: 'Mid', writes: ['src/*/x.ts'] },
    ]);
    expect(checkPlan(ir, parallel).map((d) => d.message)).toEqual([
      `item 1 ("Deep") (@writes src/a/b.ts) and item 3 ("Wide") (@writes src/{a,c}/**) are both in wave 1, which parallel_items runs side by side, and ${EXPECTED}`,
      `item 2 ("Sibling") (@writes src/part-2/**) and item 4 ("Mid") (@writes src/*/x.ts) are both in wave 1, which parallel_items runs side by side, and ${EXPECTED}`,
    ]);
  });

  it('names the wave it found the overlap in', () => {
    const ir = plan([{ text: 'A' }, { text: 'B', after: [1], writes: ['x/*'] }, { text: 'C', after: [1], writes: ['x/y'] }]);
    expect(checkPlan(ir, parallel).map((d) => d.message)).toEqual([
      `item 2 ("B") (@writes x/*) and item 3 ("C") (@writes x/y) are both in wave 2, which parallel_items runs side by side, and ${EXPECTED}`,
    ]);
  });

  it('never reports items without @writes, done items, or items of different waves', () => {
    const ir = plan([
      { text: 'A' },
      { text: 'B' },
      { text: 'Old', done: true, writes: ['src/**'] },
      { text: 'C', writes: ['src/**'] },
      { text: 'D', after: [4], writes: ['src/**'] },
    ]);
    expect(checkPlan(ir, parallel)).toEqual([]);
  });
});

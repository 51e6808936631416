import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestWord, editDistance, LONGEST_GUESS, NearMisses } from '../../compiler/graph/near-miss.js';

// The indexed lookup over a plan's own words (anchors, emitted keys) must answer exactly as
// the plain scan does, ties included; only its cost differs. A four-letter alphabet makes
// near misses, swaps and ties common among random words.
const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'D'), minLength: 0, maxLength: 9 });

describe('NearMisses', () => {
  it('answers as closestWord does, for any list and any written word', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 30 }), fc.array(word, { minLength: 1, maxLength: 10 }), (known, written) => {
        const index = new NearMisses(known);
        for (const w of written) expect(index.closest(w), `${w} in ${JSON.stringify(known)}`).toBe(closestWord(w, known));
      }),
      { numRuns: 300 },
    );
  });

  it('finds a swap, a slip and a missing letter; leaves exact, short and far words alone', () => {
    const anchors = new NearMisses(['fix', 'release', 'Deploy-app', 'release']);
    expect(anchors.closest('fxi')).toBe('fix');
    expect(anchors.closest('relaese')).toBe('release');
    expect(anchors.closest('deploy-ap')).toBe('Deploy-app');
    expect(anchors.closest('release')).toBeUndefined();
    expect(anchors.closest('fi')).toBeUndefined();
    expect(anchors.closest('rollback')).toBeUndefined();
    expect(anchors.has('FIX')).toBe(true);
  });

  it('never guesses at a word longer than LONGEST_GUESS, as a long word one slip away shows', () => {
    const long = 'a'.repeat(LONGEST_GUESS);
    expect(new NearMisses([long]).closest(`${long.slice(1)}b`)).toBe(long);
    expect(new NearMisses([`${long}a`]).closest(`${long}b`)).toBeUndefined();
    expect(closestWord(`${long}b`, [`${long}a`])).toBe(`${long}a`); // the plain scan has no such bound
    // The bound is on the lowercased word: 'İ' lowercases to two code units.
    const dotted = `İ${'a'.repeat(LONGEST_GUESS - 2)}b`;
    expect(dotted.length).toBe(LONGEST_GUESS);
    expect(new NearMisses([`i̇${'a'.repeat(LONGEST_GUESS - 1)}`]).closest(dotted)).toBeUndefined();
  });

  it('editDistance counts a swap of neighbours as one edit', () => {
    expect(editDistance('gate', 'gaet')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

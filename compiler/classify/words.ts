/**
 * Word-bounded keyword matching for classification. Matching works on words, never on
 * substrings, so "design" cannot contain "sign" and "author" cannot contain "auth"
 * (docs/classification.md fix).
 */

/** One word of a pattern: exact, or a stem when it ended in `*`. */
interface PatternPart {
  readonly text: string;
  readonly stem: boolean;
}

/** A compiled pattern: the parts that must match consecutive words. */
type CompiledPattern = readonly PatternPart[];

/** Pattern syntax (keywords.ts): lower-case words, an optional trailing `*` on each. */
export const PATTERN_SYNTAX = /^[a-z0-9]+\*?( [a-z0-9]+\*?)*$/;

// Letters keep their combining marks so "naïve" (decomposed or not) stays one word; digits
// form their own words so "oauth2" holds "oauth" and "2FA" is "2 fa".
const WORD = /[\p{L}\p{M}]+|\p{Nd}+/gu;
const CAMEL_HUMP = /\p{Lu}?[\p{Ll}\p{M}]+|\p{Lu}+(?![\p{Ll}\p{M}])/gu;

/**
 * The lower-cased words of a text, split at non-letters and digits. A camelCase compound
 * yields itself and then its humps ("getAuthToken" -> getauthtoken, get, auth, token), so
 * identifiers count while odd casing ("MiGrAtE") still reads as one word.
 */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const raw of text.normalize('NFKC').match(WORD) ?? []) {
    words.push(raw.toLowerCase());
    const humps = raw.match(CAMEL_HUMP) ?? [];
    if (humps.length > 1) words.push(...humps.map((hump) => hump.toLowerCase()));
  }
  return words;
}

function compilePattern(pattern: string): CompiledPattern {
  return pattern.split(' ').map((part) => ({
    text: part.endsWith('*') ? part.slice(0, -1) : part,
    stem: part.endsWith('*'),
  }));
}

function partMatches(part: PatternPart, word: string): boolean {
  return part.stem ? word.startsWith(part.text) : word === part.text;
}

function matchesAt(pattern: CompiledPattern, words: readonly string[], start: number): boolean {
  if (start + pattern.length > words.length) return false;
  return pattern.every((part, offset) => partMatches(part, words[start + offset] ?? ''));
}

/**
 * A reusable matcher for one keyword set: which of its patterns occur in the words, in
 * the set's order. Patterns are indexed by their first part (an exact word, or a stem
 * looked up through each prefix of a word), so a text costs its words, not words ×
 * patterns: the classifier runs this on every item of every compile.
 */
export function keywordMatcher(patterns: readonly string[]): (words: readonly string[]) => string[] {
  const compiled = patterns.map((pattern) => ({ pattern, parts: compilePattern(pattern) }));
  const byFirstWord = new Map<string, number[]>();
  const byFirstStem = new Map<string, number[]>();
  let longestStem = 0;
  compiled.forEach(({ parts }, index) => {
    const first = parts[0];
    if (!first) return;
    const table = first.stem ? byFirstStem : byFirstWord;
    table.set(first.text, [...(table.get(first.text) ?? []), index]);
    if (first.stem) longestStem = Math.max(longestStem, first.text.length);
  });
  return (words) => {
    const found = new Set<number>();
    const tryAt = (candidates: readonly number[] | undefined, start: number) => {
      for (const index of candidates ?? []) if (!found.has(index) && matchesAt(compiled[index]!.parts, words, start)) found.add(index);
    };
    words.forEach((word, start) => {
      tryAt(byFirstWord.get(word), start);
      for (let length = 0; length <= Math.min(word.length, longestStem); length++) tryAt(byFirstStem.get(word.slice(0, length)), start);
    });
    return [...found].sort((a, b) => a - b).map((index) => compiled[index]!.pattern);
  };
}

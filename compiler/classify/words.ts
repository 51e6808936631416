/**
 * Word-bounded keyword matching for classification. Matching works on words, never on
 * substrings, so "design" cannot contain "sign" and "author" cannot contain "auth"
 * (SPEC-PLAN §5 fix).
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

/** A reusable matcher for one keyword set: which of its patterns occur in the words. */
export function keywordMatcher(patterns: readonly string[]): (words: readonly string[]) => string[] {
  const compiled = patterns.map((pattern) => ({ pattern, parts: compilePattern(pattern) }));
  return (words) =>
    compiled
      .filter(({ parts }) => words.some((_, start) => matchesAt(parts, words, start)))
      .map(({ pattern }) => pattern);
}

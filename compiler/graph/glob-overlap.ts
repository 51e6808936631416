/**
 * Whether two `@writes` globs can match a common path. Paths are compared segment by
 * segment: `**` (a whole segment) matches zero or more segments, `*` any run of characters
 * inside one segment, `?` one character, `[abc]` / `[a-z]` / `[!x]` one character of a
 * class, `{a,b}` either alternative, `\x` a literal x. A leading `./` or `/` is dropped and a
 * trailing `/` means everything below the directory. Dotfiles are not special: the check
 * errs towards reporting an overlap, since it only warns.
 */
export function globsOverlap(a: string, b: string): boolean {
  return writeGlobsOverlap(compileWriteGlob(a), compileWriteGlob(b));
}

/** A `@writes` glob compiled once: one path pattern per brace alternative. */
export interface WriteGlob {
  text: string;
  alternatives: PathPattern[];
}

/** One brace-free alternative: its segments, and the plain-name segments it starts with. */
export interface PathPattern {
  segments: Segment[];
  /**
   * The leading segments without any wildcard. Two patterns can only match a common path
   * when one's literal prefix is a prefix of the other's, which lets callers index them.
   */
  literalPrefix: string[];
}

/** Compiles a glob for repeated overlap tests. */
export function compileWriteGlob(text: string): WriteGlob {
  return {
    text,
    alternatives: expandBraces(text).map((alternative) => {
      const names = normalize(alternative);
      const firstWild = names.findIndex((name) => /[*?[\\]/.test(name));
      return {
        segments: names.map((name) => (name === '**' ? GLOBSTAR : tokenize(name))),
        literalPrefix: firstWild === -1 ? names : names.slice(0, firstWild),
      };
    }),
  };
}

/** Whether two compiled globs can match a common path. */
export function writeGlobsOverlap(a: WriteGlob, b: WriteGlob): boolean {
  return a.alternatives.some((p) => b.alternatives.some((q) => pathsIntersect(p.segments, q.segments)));
}

const GLOBSTAR = Symbol('globstar');
type CharClass = { negated: boolean; ranges: [number, number][] };
type Token = 'star' | CharClass;
/** One path segment of a pattern: `**`, or the tokens of a name. */
export type Segment = typeof GLOBSTAR | Token[];

// Brace alternatives multiply; past this many a pattern is compared on the first ones only.
const MAX_ALTERNATIVES = 256;

/** `{a,b}c{d,e}` -> ac ad bc bd… (nested groups too); a group without a comma stays literal. */
export function expandBraces(glob: string): string[] {
  const group = firstBraceGroup(glob);
  if (!group) return [glob];
  const { start, end, alternatives } = group;
  const out: string[] = [];
  for (const alternative of alternatives) {
    for (const expanded of expandBraces(glob.slice(0, start) + alternative + glob.slice(end + 1))) {
      if (out.length >= MAX_ALTERNATIVES) return out;
      out.push(expanded);
    }
  }
  return out;
}

/** The first `{…}` holding a top-level comma, with its alternatives. */
function firstBraceGroup(glob: string): { start: number; end: number; alternatives: string[] } | null {
  for (let start = 0; start < glob.length; start += 1) {
    if (glob[start] === '\\') {
      start += 1;
      continue;
    }
    if (glob[start] !== '{') continue;
    let depth = 0;
    let pieceStart = start + 1;
    const alternatives: string[] = [];
    for (let at = start; at < glob.length; at += 1) {
      const char = glob[at];
      if (char === '\\') at += 1;
      else if (char === '{') depth += 1;
      else if (char === '}' && --depth === 0) {
        if (alternatives.length === 0) break; // `{x}` is literal
        alternatives.push(glob.slice(pieceStart, at));
        return { start, end: at, alternatives };
      } else if (char === ',' && depth === 1) {
        alternatives.push(glob.slice(pieceStart, at));
        pieceStart = at + 1;
      }
    }
  }
  return null;
}

function normalize(glob: string): string[] {
  const trimmed = glob.trim().replace(/^(\.\/)+/, '').replace(/^\/+/, '');
  const segments = trimmed.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (trimmed.endsWith('/')) segments.push('**');
  return segments;
}

const ANY_CHAR: CharClass = { negated: true, ranges: [] };
const literal = (char: string): CharClass => {
  const code = char.codePointAt(0)!;
  return { negated: false, ranges: [[code, code]] };
};

function tokenize(segment: string): Token[] {
  const chars = [...segment];
  const tokens: Token[] = [];
  for (let at = 0; at < chars.length; at += 1) {
    const char = chars[at]!;
    if (char === '*') {
      if (tokens[tokens.length - 1] !== 'star') tokens.push('star');
    } else if (char === '?') tokens.push(ANY_CHAR);
    else if (char === '\\' && at + 1 < chars.length) tokens.push(literal(chars[(at += 1)]!));
    else if (char === '[') {
      const parsed = parseClass(chars, at);
      if (parsed) {
        tokens.push(parsed.token);
        at = parsed.end;
      } else tokens.push(literal(char));
    } else tokens.push(literal(char));
  }
  return tokens;
}

/** `[…]` starting at `open`; null when it never closes (then `[` is a literal). */
function parseClass(chars: string[], open: number): { token: CharClass; end: number } | null {
  let at = open + 1;
  const negated = chars[at] === '!' || chars[at] === '^';
  if (negated) at += 1;
  const ranges: [number, number][] = [];
  // A `]` right after the opening is a member, not the end.
  for (let first = true; at < chars.length; at += 1, first = false) {
    const char = chars[at]!;
    if (char === ']' && !first) return { token: { negated, ranges }, end: at };
    const lo = char.codePointAt(0)!;
    if (chars[at + 1] === '-' && at + 2 < chars.length && chars[at + 2] !== ']') {
      const hi = chars[at + 2]!.codePointAt(0)!;
      ranges.push([Math.min(lo, hi), Math.max(lo, hi)]);
      at += 2;
    } else ranges.push([lo, lo]);
  }
  return null;
}

/** Whether some character belongs to both classes. */
function classesIntersect(a: CharClass, b: CharClass): boolean {
  if (a.negated && b.negated) return true; // two finite exclusions leave most of Unicode
  if (!a.negated && !b.negated) {
    return a.ranges.some(([lo, hi]) => b.ranges.some(([lo2, hi2]) => lo <= hi2 && lo2 <= hi));
  }
  const [positive, negative] = a.negated ? [b, a] : [a, b];
  return positive.ranges.some((range) => !covered(range, negative.ranges));
}

/** Whether the union of `by` covers every code point of `range`. */
function covered([lo, hi]: [number, number], by: [number, number][]): boolean {
  let next = lo;
  for (const [from, to] of [...by].sort((x, y) => x[0] - y[0])) {
    if (from > next) return false;
    next = Math.max(next, to + 1);
    if (next > hi) return true;
  }
  return next > hi;
}

/**
 * Two token lists share a string when a walk can consume both to the end, each step either
 * letting a `*` match nothing or producing one character both sides accept (a `*` accepts
 * any and stays put). O(|p| · |q|) states.
 */
function segmentsIntersect(p: Token[], q: Token[]): boolean {
  return walk(p.length, q.length, (i, j, visit) => {
    const a = p[i];
    const b = q[j];
    if (a === 'star') visit(i + 1, j);
    if (b === 'star') visit(i, j + 1);
    if (a === undefined || b === undefined) return;
    if (a === 'star' && b !== 'star') visit(i, j + 1);
    else if (a !== 'star' && b === 'star') visit(i + 1, j);
    else if (a !== 'star' && b !== 'star' && classesIntersect(a, b)) visit(i + 1, j + 1);
  });
}

/** The same walk over path segments: `**` matches nothing or swallows the other side's segment. */
function pathsIntersect(p: Segment[], q: Segment[]): boolean {
  return walk(p.length, q.length, (i, j, visit) => {
    const a = p[i];
    const b = q[j];
    if (a === GLOBSTAR) visit(i + 1, j);
    if (b === GLOBSTAR) visit(i, j + 1);
    if (a === undefined || b === undefined) return;
    if (a === GLOBSTAR) visit(i, j + 1);
    else if (b === GLOBSTAR) visit(i + 1, j);
    else if (segmentsIntersect(a, b)) visit(i + 1, j + 1);
  });
}

/** Depth-first search over (i, j) states from (0, 0); true when (m, n) is reached. */
function walk(
  m: number,
  n: number,
  step: (i: number, j: number, visit: (i: number, j: number) => void) => void,
): boolean {
  const seen = new Uint8Array((m + 1) * (n + 1));
  const stack: number[] = [0];
  seen[0] = 1;
  const visit = (i: number, j: number): void => {
    const state = i * (n + 1) + j;
    if (i <= m && j <= n && !seen[state]) {
      seen[state] = 1;
      stack.push(state);
    }
  };
  while (stack.length > 0) {
    const state = stack.pop()!;
    const i = Math.floor(state / (n + 1));
    const j = state % (n + 1);
    if (i === m && j === n) return true;
    step(i, j, visit);
  }
  return false;
}

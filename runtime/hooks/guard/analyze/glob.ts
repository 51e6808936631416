// Shell glob matching without regular expressions: a regex built from a name of 1,000 `*`
// backtracks for minutes, and an invalid range like `[z-a]` makes `new RegExp` throw. This
// matcher is O(pattern × name) per path segment and never throws.

/** Does `name` match the glob `pattern` (`*`, `?`, `[…]`; `*` and `?` never match `/`)? Case-insensitive. */
export function globMatch(pattern: string, name: string): boolean {
  const ps = pattern.toLowerCase().split('/');
  const ns = name.toLowerCase().split('/');
  if (ps.length !== ns.length) return false;
  return ps.every((p, i) => segmentMatch(p, ns[i] as string));
}

/** One path segment, with the classic two-pointer wildcard match (backtracks only to the last `*`). */
function segmentMatch(p: string, n: string): boolean {
  let pi = 0;
  let ni = 0;
  let star = -1;
  let mark = 0;
  while (ni < n.length) {
    const c = p[pi];
    if (c === '*') {
      star = pi++;
      mark = ni;
      continue;
    }
    if (c !== undefined) {
      const step = matchOne(p, pi, n[ni] as string);
      if (step > 0) {
        pi += step;
        ni++;
        continue;
      }
    }
    if (star < 0) return false;
    pi = star + 1;
    ni = ++mark;
  }
  while (p[pi] === '*') pi++;
  return pi === p.length;
}

/** Length of the pattern element at `pi` when it matches `ch`, else 0. */
function matchOne(p: string, pi: number, ch: string): number {
  const c = p[pi] as string;
  if (c === '?') return 1;
  if (c === '[') {
    const end = p.indexOf(']', pi + 2);
    if (end > 0) {
      let body = p.slice(pi + 1, end);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      let hit = false;
      for (let k = 0; k < body.length; k++) {
        const lo = body[k] as string;
        if (body[k + 1] === '-' && k + 2 < body.length) {
          const hi = body[k + 2] as string;
          // An invalid range (`[z-a]`) matches nothing, as in bash.
          if (lo <= ch && ch <= hi) hit = true;
          k += 2;
        } else if (lo === ch) hit = true;
      }
      return hit !== negate ? end - pi + 1 : 0;
    }
  }
  return c === ch ? 1 : 0;
}

/** Brace expansion stops here: a word that expands further is not a real command. */
const MAX_RESULTS = 256;

/**
 * Bash brace expansion of one word: `{push,status}` → push status, `a{1..3}` → a1 a2 a3.
 * Quoting was already removed, so a quoted `{a,b}` expands here too; for the guard that
 * only ever over-approximates what runs.
 */
export function expandBraces(word: string): string[] {
  const out: string[] = [];
  expandInto(word, out);
  return out.length > 0 ? out : [word];
}

function expandInto(word: string, out: string[]): void {
  if (out.length >= MAX_RESULTS) return;
  const group = findGroup(word);
  if (!group) {
    out.push(word);
    return;
  }
  const { start, end, alternatives } = group;
  const prefix = word.slice(0, start);
  const suffix = word.slice(end + 1);
  for (const alt of alternatives) expandInto(prefix + alt + suffix, out);
}

/** The first `{…}` holding a top-level comma or a `x..y` sequence. */
function findGroup(word: string): { start: number; end: number; alternatives: string[] } | null {
  for (let start = word.indexOf('{'); start >= 0; start = word.indexOf('{', start + 1)) {
    let depth = 0;
    const commas: number[] = [];
    for (let i = start; i < word.length; i++) {
      const c = word[i];
      if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          const inner = word.slice(start + 1, i);
          if (commas.length > 0) {
            const alternatives: string[] = [];
            let from = start + 1;
            for (const comma of commas) {
              alternatives.push(word.slice(from, comma));
              from = comma + 1;
            }
            alternatives.push(word.slice(from, i));
            return { start, end: i, alternatives };
          }
          const seq = sequence(inner);
          if (seq) return { start, end: i, alternatives: seq };
          break;
        }
      } else if (c === ',' && depth === 1) commas.push(i);
    }
  }
  return null;
}

function sequence(inner: string): string[] | null {
  const m = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])$/.exec(inner);
  if (!m) return null;
  const [a, z] = [m[1] as string, m[2] as string];
  const numeric = /\d/.test(a) && /\d/.test(z);
  const from = numeric ? Number(a) : a.charCodeAt(0);
  const to = numeric ? Number(z) : z.charCodeAt(0);
  const step = from <= to ? 1 : -1;
  const out: string[] = [];
  for (let v = from; out.length < MAX_RESULTS; v += step) {
    out.push(numeric ? String(v) : String.fromCharCode(v));
    if (v === to) break;
  }
  return out;
}

/**
 * A unified diff (`diff -u` / `git diff` hunks) of two texts, by Myers' O((N+M)D)
 * algorithm: repairs change a handful of lines, so D is small even for long plans. Lines
 * keep their `\r` (a CRLF plan's diff still applies with `patch`); a last line without a
 * newline is marked `\ No newline at end of file`. Returns '' when the texts are equal.
 */
export function unifiedDiff(before: string, after: string, from: string, to: string, context = 3): string {
  const a = linesOf(before);
  const b = linesOf(after);
  const ops = editScript(a, b);
  if (ops.every((op) => op.kind === ' ')) return '';
  const out = [`--- ${from}`, `+++ ${to}`];
  for (const hunk of hunks(ops, context)) {
    const { aStart, aCount, bStart, bCount } = hunk;
    out.push(`@@ -${range(aStart, aCount)} +${range(bStart, bCount)} @@`);
    for (const op of hunk.ops) {
      const line = op.line;
      out.push(`${op.kind}${line.endsWith('\n') ? line.slice(0, -1) : line}`);
      if (!line.endsWith('\n')) out.push('\\ No newline at end of file');
    }
  }
  return `${out.join('\n')}\n`;
}

interface Op {
  kind: ' ' | '-' | '+';
  line: string;
  /** 1-based line numbers in `before` / `after` (the next line's, for an insertion / deletion). */
  a: number;
  b: number;
}

interface Hunk {
  ops: Op[];
  aStart: number;
  aCount: number;
  bStart: number;
  bCount: number;
}

/** Lines with their terminators, so "x" at the end of a file differs from "x\n". */
function linesOf(text: string): string[] {
  return text === '' ? [] : (text.match(/[^\n]*\n|[^\n]+$/g) ?? []);
}

function range(start: number, count: number): string {
  return count === 1 ? String(start) : `${count === 0 ? start - 1 : start},${count}`;
}

/** The shortest edit script from `a` to `b` (Myers 1986, forward search with a trace). */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  search: for (let d = 0; d <= max; d += 1) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        v = next;
        trace.push(v);
        break search;
      }
    }
    v = next;
  }
  // Walk back through the trace from (n, m) to (0, 0).
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 2; d >= 0; d -= 1) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : vd[offset + prevK]!;
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', line: a[x - 1]!, a: x, b: y });
      x -= 1;
      y -= 1;
    }
    if (d === 0) break;
    if (x === prevX) ops.push({ kind: '+', line: b[y - 1]!, a: x + 1, b: y });
    else ops.push({ kind: '-', line: a[x - 1]!, a: x, b: y + 1 });
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

/** Groups changes with `context` unchanged lines around them; nearby groups merge. */
function hunks(ops: readonly Op[], context: number): Hunk[] {
  const changed = ops.map((op, i) => (op.kind === ' ' ? -1 : i)).filter((i) => i >= 0);
  const out: Hunk[] = [];
  let i = 0;
  while (i < changed.length) {
    const first = changed[i]!;
    let last = first;
    while (i + 1 < changed.length && changed[i + 1]! - last <= 2 * context + 1) {
      i += 1;
      last = changed[i]!;
    }
    i += 1;
    const from = Math.max(0, first - context);
    const to = Math.min(ops.length - 1, last + context);
    const slice = ops.slice(from, to + 1);
    const head = slice[0]!;
    const aCount = slice.filter((op) => op.kind !== '+').length;
    const bCount = slice.filter((op) => op.kind !== '-').length;
    out.push({ ops: slice, aStart: head.a, aCount, bStart: head.b, bCount });
  }
  return out;
}

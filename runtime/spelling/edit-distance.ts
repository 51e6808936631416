/**
 * How far apart two spellings are, for did-you-mean hints: the plan checker's near misses
 * (compiler/graph/near-miss.ts) and GUARDRAILS.md's keys and values (runtime/guardrails),
 * which the Stop hook reads, so this stays free of any package.
 *
 * Distance is the optimal-string-alignment distance (Levenshtein plus swapping two
 * neighbours), hand-written because a swap is the commonest slip (`@gaet`, `#fxi`) and
 * plain Levenshtein, as in fastest-levenshtein, counts it as two edits.
 */

/** Optimal-string-alignment distance between two strings. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((d[(i - 1) * cols + j] as number) + 1, (d[i * cols + j - 1] as number) + 1, (d[(i - 1) * cols + j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (d[(i - 2) * cols + j - 2] as number) + 1);
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1] as number;
}

/** How many edits a slip may take: one for words of up to four letters, two for longer ones. */
export function slipEdits(a: string, b: string): number {
  return Math.max(a.length, b.length) <= 4 ? 1 : 2;
}

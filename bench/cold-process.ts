import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Latency of a hook as Claude Code pays it: a fresh `node` process per call, beside a bare
// node start. Shared by the guard and Stop-hook benches.

/** The built dist/ folder `npm run bench` just wrote. */
export const dist = fileURLToPath(new URL('../dist', import.meta.url));

/** One command to time: `node`'s arguments, its stdin, and what its output must match. */
export interface ColdCase {
  label: string;
  args: string[];
  stdin: string;
  /** Run before every call, untimed (e.g. to rewrite state.json). */
  prepare?: () => void;
  /** What stdout and stderr, together, must match; null accepts any output. */
  expect: RegExp | null;
  /** The exit status it must end with (default 0; the Stop hook blocks with 2). */
  status?: number;
}

/** The baseline every ratio is against: `node -e 0` with the same stdin. */
export const bareNode = (stdin: string): ColdCase => ({ label: 'node -e 0 (bare start)', args: ['-e', '0'], stdin, expect: null });

/** The columns of the rows coldLatency returns. */
export const LATENCY_COLUMNS = ['command', 'runs', 'median ms', 'over bare node ms', 'ratio to node -e 0'];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

/**
 * Times each case `runs` times as a cold process, interleaved round by round (3 warm-up
 * rounds discarded) so machine load drift hits every case alike. The first case is the
 * baseline (bareNode). A non-zero exit or unexpected output throws. Returns one table row
 * per case and each case's median as a ratio to the baseline.
 */
export function coldLatency(cases: readonly ColdCase[], where: { cwd: string; env: NodeJS.ProcessEnv; runs: number }): { rows: (string | number)[][]; ratios: number[] } {
  const times = cases.map(() => [] as number[]);
  for (let round = -3; round < where.runs; round++) {
    cases.forEach((c, i) => {
      c.prepare?.();
      const started = performance.now();
      const out = spawnSync(process.execPath, c.args, { input: c.stdin, cwd: where.cwd, env: where.env, encoding: 'utf8' });
      const ms = performance.now() - started;
      if (out.status !== (c.status ?? 0)) throw new Error(`${c.label} exited ${out.status}: ${out.stderr}`);
      if (c.expect && !c.expect.test(out.stdout + out.stderr)) throw new Error(`${c.label}: unexpected output ${JSON.stringify((out.stdout + out.stderr).slice(0, 200))}`);
      if (round >= 0) times[i]!.push(ms);
    });
  }
  const medians = times.map(median);
  const bare = medians[0]!;
  return {
    rows: cases.map((c, i) => [c.label, where.runs, medians[i]!.toFixed(1), (medians[i]! - bare).toFixed(1), (medians[i]! / bare).toFixed(2)]),
    ratios: medians.map((m) => m / bare),
  };
}

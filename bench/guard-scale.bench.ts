import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeCommand } from '../runtime/hooks/guard/analyze/analyze.js';
import { listDirectory, readBounded, resolveLinks } from '../runtime/hooks/guard/fs.js';
import type { BenchTable } from './run.js';
import { benchTempDir } from './temp.js';

// The guard's cost on hostile and huge commands (issue #30, item 3): for each shape, CPU
// time to judge it at 100 KB and 200 KB, the growth between them (linear: about 2), the
// ratio to a floor measured in the same run (one regex pass that splits the same text into
// words: the least any reader of the command does), and the absolute CPU at 100 KB
// against the target of 1 s. Nesting deeper than the parser's limit (48) is refused with a
// clear reason, so the deep shapes stop there. Both modes: without the OS layer and with it.

const SIZES = [100_000, 200_000];
const TARGET_MS = 1_000;
const GROWTH_TARGET = 2.5;
const ROUNDS = 7;

const repeat = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length));

/** The shapes: deep nesting, long lines, long commands, long function chains, and what makes the guard read files. */
const SHAPES: [string, (size: number) => string][] = [
  ['many simple commands', (n) => repeat('true; ', n)],
  ['pipelines', (n) => repeat('echo a | grep b | wc -l; ', n)],
  ['one long word (a line of 100 KB)', (n) => `echo ${'a'.repeat(n)}`],
  ['a long double-quoted line', (n) => `echo "${repeat('a $HOME b ', n)}"`],
  ['a here-document of 100 KB', (n) => `cat > notes.md <<'EOF'\n${repeat('a line of text that mentions git push\n', n)}EOF`],
  ['an expanding here-document', (n) => `cat > out.txt <<EOF\n${repeat('line $HOME $(date)\n', n)}EOF`],
  ['variable chains', (n) => Array.from({ length: Math.ceil(n / 14) }, (_, i) => `v${i}=$v${Math.max(0, i - 1)}x`).join('; ')],
  ['arithmetic', (n) => repeat('(( i = i * 2 + $(( j + 1 )) )); ', n)],
  ['long function chains', (n) => `${Array.from({ length: Math.ceil(n / 22) }, (_, i) => `f${i}() { f${i + 1} "$@"; }`).join('; ')}; f0 x`],
  ['command substitutions', (n) => repeat('x=$(echo "$(date)"); ', n)],
  ['substitutions 40 deep (each runs the next one\'s output), repeated', (n) => repeat(`echo ${'$( '.repeat(40)}true${' )'.repeat(40)}; `, n)],
  ['groups and branches', (n) => repeat('if true; then { while false; do :; done; }; fi; ', n)],
  ['case arms', (n) => `case "$1" in ${repeat('a*) echo a;; ', n)} esac`],
  ['brace expansion', (n) => repeat('echo {a,b}{c,d}; ', n)],
  ['package scripts', (n) => repeat('npm test && make test; ', n)],
  ['computed program names', (n) => repeat('$RUNNER --check; ', n)],
  ['nesting past the limit (refused)', (n) => `${'( '.repeat(n / 4)}true${' )'.repeat(n / 4)}`],
];

function cpuMs(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / 1000;
}

function best(fn: () => unknown): number {
  let min = Number.POSITIVE_INFINITY;
  for (let r = 0; r < ROUNDS; r++) min = Math.min(min, cpuMs(fn));
  return Math.max(min, 0.001);
}

/** The guard scale bench. */
export default async function guardScaleBench(): Promise<BenchTable> {
  const dir = realpathSync(benchTempDir('leopold-bench-guard-scale-'));
  mkdirSync(join(dir, '.leopold'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'node --test', build: 'tsc' } }));
  writeFileSync(join(dir, 'Makefile'), 'test:\n\tnpm test\n');
  const rows: (string | number)[][] = [];
  let worst = 0;
  let worstGrowth = 0;
  for (const osLayer of [false, true]) {
    const ctx = { cwd: dir, leopoldDir: join(dir, '.leopold'), home: dir, osLayer, readFile: readBounded, realpath: resolveLinks, listDir: listDirectory };
    for (const [name, make] of SHAPES) {
      const times: number[] = [];
      let floor = 0;
      let verdict = '';
      for (const size of SIZES) {
        const text = make(size);
        analyzeCommand(text, ctx); // warm-up
        times.push(best(() => analyzeCommand(text, ctx)));
        if (size === SIZES[0]) {
          floor = best(() => text.match(/\S+/g)?.length);
          const locks = [...new Set(analyzeCommand(text, ctx).map((f) => f.lock))];
          verdict = locks.length === 0 ? 'allow' : `deny (${locks.join(', ')})`;
        }
      }
      const [hundred, double] = times as [number, number];
      const growth = double / hundred;
      worst = Math.max(worst, hundred);
      if (double > 20) worstGrowth = Math.max(worstGrowth, growth);
      rows.push([osLayer ? 'yes' : 'no', name, hundred.toFixed(1), double.toFixed(1), `${growth.toFixed(2)}x`, `${(hundred / floor).toFixed(0)}x`, verdict]);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  return {
    title: 'Guard: CPU to judge hostile and huge commands (100 KB and 200 KB)',
    columns: ['OS layer', 'shape', 'CPU ms 100 KB', 'CPU ms 200 KB', 'growth', 'vs floor (100 KB)', 'decision (100 KB)'],
    rows,
    notes: [
      `CPU (user + system) of analyzeCommand, best of ${ROUNDS}, after a warm-up; the floor is one regex pass splitting the same 100 KB text into words, in the same run.`,
      `Slowest at 100 KB: ${worst.toFixed(0)} ms (target ${TARGET_MS} ms: ${worst <= TARGET_MS ? 'met' : 'NOT met'}). Largest growth from 100 to 200 KB among shapes over 20 ms at 200 KB: ${worstGrowth.toFixed(2)}x (linear is 2; target ${GROWTH_TARGET}x: ${worstGrowth <= GROWTH_TARGET ? 'met' : 'NOT met'}).`,
    ],
  };
}

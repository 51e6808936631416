import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { removeBenchTempDirs } from './temp.js';

/** What each `bench/*.bench.ts` module's default export returns: one printed table (or several). */
export interface BenchTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  notes?: string[];
}

function printTable(table: BenchTable): void {
  const cells = [table.columns, ...table.rows.map((r) => r.map(String))];
  const widths = table.columns.map((_, c) => Math.max(...cells.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(' | ')} |`;
  console.log(`\n## ${table.title}\n`);
  console.log(line(table.columns));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const row of cells.slice(1)) console.log(line(row));
  for (const note of table.notes ?? []) console.log(`\n${note}`);
}

// Runs every bench module in name order (or those named on the command line) and prints
// one markdown table each. Numbers are for comparing within one run, on one machine.
// Several modules run one after another, each in a process of its own (this script, given
// that one module's file name): one bench's heap and JIT state must not weigh on the
// next one's figures (after the others, the scale bench's 4,000-item chains ran about a
// third slower than alone, and its flat-cost ratio read 1.53 instead of about 1.2).
const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
// A whole file name selects that file alone: each child is started with its own, and
// `scale.bench.ts` is also part of `guard-scale.bench.ts` (a child ran both again, forever).
const benches = readdirSync(here).filter((f) => f.endsWith('.bench.ts'));
const exact = benches.filter((f) => only.includes(f));
const files = (exact.length > 0 ? exact : benches.filter((f) => only.length === 0 || only.some((o) => f.includes(o)))).sort();
if (files.length === 1) {
  try {
    const mod = (await import(pathToFileURL(join(here, files[0]!)).href)) as { default: () => Promise<BenchTable | BenchTable[]> };
    for (const table of [await mod.default()].flat()) printTable(table);
  } finally {
    removeBenchTempDirs();
  }
} else {
  for (const file of files) {
    const bench = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), file], { stdio: 'inherit' });
    if (bench.status !== 0) process.exitCode = bench.status ?? 1;
  }
}

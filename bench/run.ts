import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { removeBenchTempDirs } from './temp.js';

/** What each `bench/*.bench.ts` module's default export returns: one printed table. */
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
const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
for (const file of files) {
  try {
    const mod = (await import(pathToFileURL(join(here, file)).href)) as { default: () => Promise<BenchTable> };
    printTable(await mod.default());
  } finally {
    removeBenchTempDirs();
  }
}

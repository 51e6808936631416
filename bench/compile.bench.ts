import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchTable } from './run.js';
import { generatePlan } from './plans.js';
import { compile, type CompileOptions } from '../compiler/index.js';
import { HOST_SCRIPT_MAX_BYTES } from '../compiler/emit/check/index.js';
import { writeFileAtomic } from '../runtime/fs/atomic.js';

// `leopold compile` cost from plan text to written script (parse, graph, classify, emit, the
// host-contract check, the atomic writes), the script size per plan size, and the largest
// generated plan that still fits the host's 512 KiB. Uses the runtime bundle `npm run
// bench` just built. Numbers compare within one run on one machine.

const bundle = readFileSync(new URL('../dist/workflow-runtime.js', import.meta.url), 'utf8');
const out = mkdtempSync(join(tmpdir(), 'leopold-compile-bench-'));
const options: CompileOptions = {
  file: '.leopold/PLAN.md',
  mission: '# Mission\n\nShip the generated plan.\n',
  charter: '## Never\n\n- Never commit secrets.\n',
  guardrails: '',
  runtimeBundle: bundle,
};

function compileAndWrite(text: string) {
  const result = compile(text, options);
  if (!result.ok) throw new Error(`generated plan did not compile: ${result.diagnostics[0]?.code} ${result.diagnostics[0]?.message}`);
  writeFileAtomic(join(out, 'leopold-run.js'), result.script);
  writeFileAtomic(join(out, 'workflow-args.json'), result.argsJson);
  return result;
}

/** Median wall time of `runs` compiles, after one warm-up. */
function timed(text: string, runs: number): { ms: number; bytes: number } {
  compileAndWrite(text);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = compileAndWrite(text);
    times.push(performance.now() - start);
    bytes = Buffer.byteLength(result.script, 'utf8');
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)]!, bytes };
}

function fits(items: number): boolean {
  return compile(generatePlan(items), options).ok;
}

export default async function compileBench(): Promise<BenchTable> {
  const rows: (string | number)[][] = [];
  for (const [items, runs] of [
    [10, 21],
    [100, 11],
    [1000, 5],
  ] as const) {
    const text = generatePlan(items);
    const { ms, bytes } = timed(text, runs);
    rows.push([items, Buffer.byteLength(text, 'utf8'), ms.toFixed(1), bytes, ((bytes - Buffer.byteLength(bundle)) / items).toFixed(0), `${((100 * bytes) / HOST_SCRIPT_MAX_BYTES).toFixed(1)}%`]);
  }
  // Binary search for the largest generated plan whose script fits (size grows with items).
  let lo = 1000;
  let hi = 4000;
  while (fits(hi)) {
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  const largest = compile(generatePlan(lo), options);
  const largestBytes = largest.ok ? Buffer.byteLength(largest.script, 'utf8') : 0;
  return {
    title: 'leopold compile: plan text to written script (bench/plans.ts generator)',
    columns: ['items', 'plan bytes', 'median ms', 'script bytes', 'bytes/item', 'of 512 KiB'],
    rows,
    notes: [
      `Runtime bundle: ${Buffer.byteLength(bundle)} bytes, embedded once per script (bytes/item excludes it).`,
      `Largest generated plan that fits in ${HOST_SCRIPT_MAX_BYTES} bytes: ${lo} items (${largestBytes} bytes); ${lo + 1} items are refused with host-contract/size.`,
    ],
  };
}

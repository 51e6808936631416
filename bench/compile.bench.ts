import { assertRuntimeBundle } from '../compiler/emit/runtime-bundle.js';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchTable } from './run.js';
import { generateChecklist, generatePlan } from './plans.js';
import { largestFitting } from './fits.js';
import { compile, type CompileOptions, type CompileResult } from '../compiler/index.js';
import { HOST_SCRIPT_MAX_BYTES } from '../compiler/emit/check/index.js';
import { writeFileAtomic } from '../runtime/fs/atomic.js';
import { benchTempDir } from './temp.js';

// `leopold compile` cost from plan text to written script (parse, graph, classify, emit, the
// host-contract check, the atomic writes), the script size per plan size, and the largest
// plan that still fits the host's 512 KiB, for the two plan shapes whose bytes per item
// differ most: a plain checklist (items that are only text) and the generated graph plan
// (kinds, routes, deps, needs, scenarios and scopes; each item once, defaults left out). A plan over the limit is a plan error
// (`host-contract/size`), not a bench failure: its row says so. Uses the runtime bundle
// `npm run bench` just built. Numbers compare within one run on one machine.

const bundle = readFileSync(new URL('../dist/workflow-runtime.js', import.meta.url), 'utf8');
// Checked with the script template once, as `leopold compile` does for a bundle without its build hash.
assertRuntimeBundle(bundle);
const bundleBytes = Buffer.byteLength(bundle, 'utf8');
const out = benchTempDir('leopold-compile-bench-');
const options: CompileOptions = {
  file: '.leopold/PLAN.md',
  mission: '# Mission\n\nShip the generated plan.\n',
  charter: '## Never\n\n- Never commit secrets.\n',
  guardrails: '',
  runtimeBundle: bundle,
};

const SHAPES = [
  { name: 'plain checklist', plan: generateChecklist },
  { name: 'graph plan (bench/plans.ts)', plan: (items: number) => generatePlan(items) },
] as const;

/** One compile: the script's size, and whether the host would load it (then it is written). */
type Compiled = { bytes: number; fits: boolean };

function compileAndWrite(text: string): Compiled {
  const result = compile(text, options);
  if (result.ok) {
    writeFileAtomic(join(out, 'leopold-run.js'), result.script);
    writeFileAtomic(join(out, 'workflow-args.json'), result.argsJson);
    return { bytes: Buffer.byteLength(result.script, 'utf8'), fits: true };
  }
  return { bytes: refusedSize(result), fits: false };
}

/**
 * The size a refused script would have had. compile() keeps no script for a refused plan;
 * the size is in the `host-contract/size` message ("would be 576,884 bytes"). Any other
 * error means the generator wrote a broken plan: that is a bench bug, so it throws.
 */
function refusedSize(result: CompileResult): number {
  const size = result.diagnostics.find((d) => d.code === 'host-contract/size');
  const bytes = size?.message.match(/would be ([\d,]+) bytes/)?.[1];
  if (!bytes) {
    const first = result.diagnostics[0];
    throw new Error(`generated plan did not compile: ${first?.code} ${first?.message}`);
  }
  return Number(bytes.replaceAll(',', ''));
}

/** Median wall time of `runs` compiles (up to the write, or to the refusal), after one warm-up. */
function timed(text: string, runs: number): Compiled & { ms: number } {
  let compiled = compileAndWrite(text);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    compiled = compileAndWrite(text);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { ...compiled, ms: times[Math.floor(times.length / 2)]! };
}

function largest(plan: (items: number) => string): { items: number; bytes: number } {
  const items = largestFitting(plan, options);
  return { items, bytes: compileAndWrite(plan(items)).bytes };
}

export default async function compileBench(): Promise<BenchTable> {
  const rows: (string | number)[][] = [];
  const notes = [`Runtime bundle: ${bundleBytes} bytes, embedded once per script (bytes/item excludes it).`];
  for (const shape of SHAPES) {
    for (const [items, runs] of [
      [10, 21],
      [100, 11],
      [1000, 5],
    ] as const) {
      const text = shape.plan(items);
      const { ms, bytes, fits: loads } = timed(text, runs);
      rows.push([
        shape.name,
        items,
        Buffer.byteLength(text, 'utf8'),
        ms.toFixed(1),
        bytes,
        ((bytes - bundleBytes) / items).toFixed(0),
        loads ? `${((100 * bytes) / HOST_SCRIPT_MAX_BYTES).toFixed(1)}%` : 'refused (over 512 KiB)',
      ]);
    }
    const fitting = largest(shape.plan);
    notes.push(
      `Largest ${shape.name} that fits in ${HOST_SCRIPT_MAX_BYTES} bytes: ${fitting.items} items (${fitting.bytes} bytes); ${fitting.items + 1} items are refused with host-contract/size.`,
    );
  }
  rmSync(out, { recursive: true, force: true });
  return {
    title: 'leopold compile: plan text to written script',
    columns: ['plan', 'items', 'plan bytes', 'median ms', 'script bytes', 'bytes/item', 'of 512 KiB'],
    rows,
    notes,
  };
}

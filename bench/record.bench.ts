import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchTable } from './run.js';
import { appendDecisions, readDecisions } from '../runtime/decisions/index.js';

const bin = resolve(fileURLToPath(new URL('.', import.meta.url)), '../dist/leopold.js');
const TOTAL = 96; // appends per measurement, split evenly between the writers

const payload = (title: string) =>
  JSON.stringify({
    decisions: [
      {
        title,
        fork: 'escalation',
        persona: { name: 'Ada Park', role: 'Release Engineer', expertise: ['semver'] },
        class: 'reversible',
        charter: 'Never break the public API.',
        decision: 'Keep the old flag as an alias.',
        why: 'pragmatism',
        reversal: 'Remove the alias in cli.ts.',
      },
    ],
  });

// One `leopold record` process, as the workflow's scribe runs it.
function recordOnce(cwd: string, title: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, 'record'], { cwd, stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`leopold record exited ${code}`))));
    child.stdin.end(payload(title));
  });
}

// `writers` loops running at once, each appending in sequence; wall time for all of them.
async function measure(writers: number): Promise<{ perSecond: number; ms: number }> {
  const project = mkdtempSync(join(tmpdir(), 'leopold-bench-record-'));
  mkdirSync(join(project, '.leopold'));
  const each = TOTAL / writers;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; i < each; i++) await recordOnce(project, `w${w}-${i}`);
    }),
  );
  const ms = performance.now() - started;
  const count = readDecisions(readFileSync(join(project, '.leopold', 'DECISIONS.md'), 'utf8')).length;
  rmSync(project, { recursive: true, force: true });
  if (count !== TOTAL) throw new Error(`expected ${TOTAL} entries, found ${count}`);
  return { perSecond: (TOTAL * 1000) / ms, ms };
}

// The writer alone, in this process: lock, read, render, fsync, rename; no start-up.
async function measureInProcess(): Promise<{ perSecond: number; ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'leopold-bench-append-'));
  const started = performance.now();
  for (let i = 0; i < TOTAL; i++) await appendDecisions(dir, [JSON.parse(payload(`p${i}`)).decisions[0]]);
  const ms = performance.now() - started;
  rmSync(dir, { recursive: true, force: true });
  return { perSecond: (TOTAL * 1000) / ms, ms };
}

/** `leopold record` appends per second through the built binary, 1 and 8 writers at once. */
export default async function recordBench(): Promise<BenchTable> {
  await measure(2); // warm the disk cache and the binary
  const one = await measure(1);
  const eight = await measure(8);
  const inProcess = await measureInProcess();
  const fmt = (n: number) => n.toFixed(1);
  return {
    title: 'leopold record: appends per second (one decision per process)',
    columns: ['writers', 'appends', 'wall ms', 'ms/append', 'appends/s', 'vs 1 writer'],
    rows: [
      ['1 × leopold record', TOTAL, Math.round(one.ms), fmt(one.ms / TOTAL), fmt(one.perSecond), '1.00'],
      ['8 × leopold record', TOTAL, Math.round(eight.ms), fmt(eight.ms / TOTAL), fmt(eight.perSecond), (eight.perSecond / one.perSecond).toFixed(2)],
      ['1 × appendDecisions (in process)', TOTAL, Math.round(inProcess.ms), fmt(inProcess.ms / TOTAL), fmt(inProcess.perSecond), (inProcess.perSecond / one.perSecond).toFixed(2)],
    ],
    notes: [
      'Each `leopold record` append is a fresh `node dist/leopold.js` process, so Node start-up and loading the bundle dominate; the in-process row is the writer alone (lock, read, render, fsync, rename).',
      'With 8 writers the lock serializes only the short write; on a 2-core machine the processes still queue for CPU to start, so the ratio stays near 1 rather than 8.',
    ],
  };
}

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchTable } from './run.js';
import { readDecisions } from '../runtime/decisions/index.js';

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

/** `leopold record` appends per second through the built binary, 1 and 8 writers at once. */
export default async function recordBench(): Promise<BenchTable> {
  await measure(2); // warm the disk cache and the binary
  const one = await measure(1);
  const eight = await measure(8);
  const fmt = (n: number) => n.toFixed(1);
  return {
    title: 'leopold record: appends per second (one decision per process)',
    columns: ['writers', 'appends', 'wall ms', 'appends/s', 'vs 1 writer'],
    rows: [
      [1, TOTAL, Math.round(one.ms), fmt(one.perSecond), '1.00'],
      [8, TOTAL, Math.round(eight.ms), fmt(eight.perSecond), (eight.perSecond / one.perSecond).toFixed(2)],
    ],
    notes: [
      'Each append is a fresh `node dist/leopold.js record` process (start-up dominates); the lock is held only for read + render + atomic replace.',
      'A ratio above 1 means concurrent writers overlap their start-up while the lock serializes only the short write.',
    ],
  };
}

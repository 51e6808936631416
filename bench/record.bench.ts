import { spawn } from 'node:child_process';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchTable } from './run.js';
import { appendDecisions, planAppend, readDecisions, type DecisionInput } from '../runtime/decisions/index.js';
import { benchTempDir } from './temp.js';

const bin = resolve(fileURLToPath(new URL('.', import.meta.url)), '../dist/leopold.js');
const TOTAL = 96; // appends per measurement, split evenly between the writers
type Rate = { perSecond: number; ms: number };

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
  const project = benchTempDir('leopold-bench-record-');
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

// The writer alone, in this process: lock, read the tail, render, append, fsync; no
// start-up. One folder per file length, its entries written first (untimed); the appends
// go round by round across the folders, so a change in disk load (fsync is most of an
// append) hits every length alike.
async function measureInProcess(lengths: readonly number[], appends: number): Promise<{ perSecond: number; ms: number }[]> {
  const entry = (title: string): DecisionInput => JSON.parse(payload(title)).decisions[0];
  const dirs = lengths.map((existing) => {
    const dir = benchTempDir('leopold-bench-append-');
    if (existing > 0) {
      const filler = Array.from({ length: existing }, (_, i) => entry(`earlier ${i}`));
      writeFileSync(join(dir, 'DECISIONS.md'), planAppend(undefined, filler, new Date('2026-01-01T00:00:00Z')).text);
    }
    return dir;
  });
  const ms = lengths.map(() => 0);
  const ROUNDS = 10;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [d, dir] of dirs.entries()) {
      const started = performance.now();
      for (let i = 0; i < appends / ROUNDS; i++) await appendDecisions(dir, [entry(`r${round}-${i}`)]);
      ms[d]! += performance.now() - started;
    }
  }
  return dirs.map((dir, d) => {
    const count = readDecisions(readFileSync(join(dir, 'DECISIONS.md'), 'utf8')).length;
    rmSync(dir, { recursive: true, force: true });
    if (count !== lengths[d]! + appends) throw new Error(`expected ${lengths[d]! + appends} entries, found ${count}`);
    return { perSecond: (appends * 1000) / ms[d]!, ms: ms[d]! };
  });
}

// What the disk allows: one append of an entry's size and its fsync, without the writer.
function fsyncFloor(appends: number): Rate {
  const dir = benchTempDir('leopold-bench-fsync-');
  const fd = openSync(join(dir, 'floor'), 'a');
  const bytes = Buffer.alloc(600, 0x61);
  const started = performance.now();
  for (let i = 0; i < appends; i++) {
    writeSync(fd, bytes);
    fsyncSync(fd);
  }
  const ms = performance.now() - started;
  closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
  return { perSecond: (appends * 1000) / ms, ms };
}

/** `leopold record` appends per second through the built binary, 1 and 8 writers at once; the writer in process by file length. */
export default async function recordBench(): Promise<BenchTable> {
  await measure(2); // warm the disk cache and the binary
  const one = await measure(1);
  const eight = await measure(8);
  await measureInProcess([0], 20); // warm the writer
  const [empty, long, longer] = (await measureInProcess([0, 5_000, 10_000], 200)) as [Rate, Rate, Rate];
  const disk = fsyncFloor(200);
  const fmt = (n: number) => n.toFixed(1);
  const vsEmpty = (r: Rate) => (empty.perSecond / r.perSecond).toFixed(2);
  const lengthRatio = empty.perSecond / long.perSecond;
  return {
    title: 'leopold record: appends per second (one decision per append)',
    columns: ['writer', 'appends', 'wall ms', 'ms/append', 'appends/s', 'ratio', 'target'],
    rows: [
      ['1 × leopold record (a process per append)', TOTAL, Math.round(one.ms), fmt(one.ms / TOTAL), fmt(one.perSecond), '1.00 (floor)', ''],
      ['8 × leopold record at once', TOTAL, Math.round(eight.ms), fmt(eight.ms / TOTAL), fmt(eight.perSecond), `${(eight.perSecond / one.perSecond).toFixed(2)} of 1 writer`, ''],
      ['appendDecisions in process, empty DECISIONS.md', 200, Math.round(empty.ms), fmt(empty.ms / 200), fmt(empty.perSecond), '1.00 (floor)', ''],
      ['appendDecisions in process, 5,000 entries already', 200, Math.round(long.ms), fmt(long.ms / 200), fmt(long.perSecond), `${vsEmpty(long)}x the empty file's time`, `<= 1.5x: ${lengthRatio <= 1.5 ? 'met' : 'NOT met'}`],
      ['appendDecisions in process, 10,000 entries already', 200, Math.round(longer.ms), fmt(longer.ms / 200), fmt(longer.perSecond), `${vsEmpty(longer)}x the empty file's time`, `>= 1,000/s: ${longer.perSecond >= 1000 ? 'met' : 'NOT met'}`],
      ['write + fsync of 600 bytes alone (the disk, no writer)', 200, Math.round(disk.ms), fmt(disk.ms / 200), fmt(disk.perSecond), `${(disk.perSecond / longer.perSecond).toFixed(2)}x the 10,000-entry rate`, ''],
    ],
    notes: [
      'Each `leopold record` append is a fresh `node dist/leopold.js` process, so Node start-up dominates; the in-process rows are the writer alone (lock, read the last 8 KiB, render, one append, fsync, journal).',
      'The in-process rows put 200 appends into a file that already holds 0, 5,000 or 10,000 entries (written untimed), 20 at a time in turn: the cost of an append does not grow with the file. Most of it is the fsync, so a busy disk lowers all three rows alike.',
      'With 8 writers the lock serializes only the short write; on a 2-core machine the processes still queue for CPU to start, so the ratio stays near 1 rather than 8.',
    ],
  };
}

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Prints the conformance suite's wall time (it must stay under 4 minutes on 2 cores): from
// the first conformance file's start to the last one's end, which each file records through
// the harness (a global teardown runs only when the whole vitest run ends).

let dir = '';

export function setup(): void {
  dir = mkdtempSync(join(tmpdir(), 'leopold-conformance-times-'));
  // Inherited by the test workers, which vitest forks after global setup.
  process.env.LEOPOLD_CONFORMANCE_TIMES = join(dir, 'times');
}

export function teardown(): void {
  let marks: number[] = [];
  try {
    marks = readFileSync(join(dir, 'times'), 'utf8').trim().split('\n').map(Number).filter(Number.isFinite);
  } catch {
    // no conformance file ran
  }
  rmSync(dir, { recursive: true, force: true });
  if (marks.length === 0) return;
  const seconds = (Math.max(...marks) - Math.min(...marks)) / 1000;
  process.stdout.write(`\nconformance suite (real Claude Code client): ${seconds.toFixed(1)} s wall\n`);
}

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../support/built-dist.js';

// No test asserts elapsed time: on a loaded machine (two cores, other suites running) a
// timing assertion fails for reasons that are not the product's. Speed lives in bench/, as
// ratios to a floor measured in the same run. A test may still bound a wait (a timeout
// option, vitest's own limit); it may not compare a clock reading.

/** An assertion that reads a clock, or compares a duration it measured. */
const CLOCK_ASSERTION = [
  /expect\([^;]*\b(?:Date\.now|performance\.now|process\.hrtime(?:\.bigint)?)\(/,
  /expect\([^;]*\b(?:ms|elapsed|elapsedMs|wallMs|duration|took)\)\s*\.\s*toBe(?:LessThan|GreaterThan|LessThanOrEqual|GreaterThanOrEqual)\(/,
];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('tests and time', () => {
  it('the pattern catches what it is for', () => {
    const caught = (line: string) => CLOCK_ASSERTION.some((pattern) => pattern.test(line));
    expect(caught('    expect(Date.now() - started).toBeLessThan(2000);')).toBe(true);
    expect(caught('expect(run.ms).toBeLessThan(5000);')).toBe(true);
    expect(caught('expect(ms).toBeLessThan(5000);')).toBe(true);
    expect(caught('expect(performance.now() - t0).toBeLessThanOrEqual(10);')).toBe(true);
    expect(caught("expect(r.code).toBe(0);")).toBe(false);
  });

  it('no test compares elapsed time', () => {
    const offenders = testFiles(join(root, 'test')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (CLOCK_ASSERTION.some((pattern) => pattern.test(line)) ? [`${relative(root, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    // This file names the patterns in its own examples.
    expect(offenders.filter((line) => !line.startsWith('test/architecture/no-wall-clock.test.ts:'))).toEqual([]);
  });
});

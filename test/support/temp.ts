import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// Temp folders for tests, removed when the test file ends. Importing this module registers
// one afterAll on the importing file (vitest evaluates helpers per test file), so a suite
// cannot forget its cleanup, and `ls /tmp` is the same before and after `npm test`.

const made: string[] = [];

/** A fresh directory under the system temp folder, removed after the current test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

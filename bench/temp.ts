import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Temp folders for benches. Each is removed by the bench that made it when it is done with
// it, and any left (a bench that threw halfway) by bench/run.ts after every bench, so a
// crashed run leaves nothing in the system temp folder either.

const made = new Set<string>();

/** A fresh directory under the system temp folder, removed at the latest when the current bench ends. */
export function benchTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes every folder benchTempDir made that is still there. */
export function removeBenchTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}

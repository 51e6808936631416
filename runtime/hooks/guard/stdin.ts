import { readSync } from 'node:fs';

/** Waiting for a non-blocking stdin gives up after this long (Claude Code closes it at once). */
const MAX_WAIT_MS = 10_000;

/**
 * All of stdin as text; '' when there is none or it cannot be read. Reads with readSync
 * in a loop rather than readFileSync: when fd 0 is non-blocking (the CLI bundle touches
 * process.stdin), readFileSync throws EAGAIN midway and the bytes it read are lost.
 */
export function readStdin(): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(1 << 16);
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  let waited = 0;
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buffer, 0, buffer.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' && waited < MAX_WAIT_MS) {
        Atomics.wait(sleeper, 0, 0, 2);
        waited += 2;
        continue;
      }
      break; // EOF on Windows, EBADF (no stdin), or waited too long: judge what arrived
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

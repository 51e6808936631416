import { readFileSync } from 'node:fs';

/** All of stdin as text; '' when there is none or it cannot be read. */
export async function readStdin(): Promise<string> {
  try {
    return readFileSync(0, 'utf8');
  } catch (error) {
    // EAGAIN: a non-blocking stdin; read it the asynchronous way. Anything else: no input.
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return '';
  }
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (c: Buffer) => chunks.push(c));
    process.stdin.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', () => done(Buffer.concat(chunks).toString('utf8')));
  });
}

import { describe, expect, it } from 'vitest';
import { parseProgress, PROGRESS_MIN_CHARS } from '../../compiler/cli/progress.js';

/** A stand-in stderr that records what was written. */
function stream(isTTY: boolean): NodeJS.WriteStream & { written: string[] } {
  const written: string[] = [];
  return { isTTY, written, write: (chunk: string) => written.push(chunk) > 0 } as unknown as NodeJS.WriteStream & { written: string[] };
}

const BIG = 'x'.repeat(PROGRESS_MIN_CHARS);

describe('parseProgress', () => {
  it('draws one line in place on a terminal and erases it when done', () => {
    const tty = stream(true);
    const line = parseProgress(BIG, 'PLAN.md', tty);
    line.update(0, 100);
    line.update(0, 100); // the same percentage is not redrawn
    line.update(50, 100);
    line.update(100, 100);
    line.done();
    expect(tty.written).toEqual([
      '\r\u001b[2Kleopold: parsing 0% PLAN.md (1.0 MB)',
      '\r\u001b[2Kleopold: parsing 50% PLAN.md (1.0 MB)',
      '\r\u001b[2Kleopold: checking PLAN.md (1.0 MB)',
      '\r\u001b[2K',
    ]);
  });

  it('says nothing when stderr is not a terminal, or for a small plan', () => {
    for (const [text, isTTY] of [
      [BIG, false],
      ['- [ ] small\n', true],
    ] as const) {
      const out = stream(isTTY);
      const line = parseProgress(text, 'PLAN.md', out);
      line.update(1, 2);
      line.done();
      expect(out.written).toEqual([]);
    }
  });
});

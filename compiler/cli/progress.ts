import type { ParseProgress } from '../../runtime/plan/parse/index.js';

/** Plans below this parse in well under a second: no line for them. */
export const PROGRESS_MIN_CHARS = 1024 * 1024;

/** A progress line's two ends: feed it the parse's progress, then clear it. */
export interface ProgressLine {
  update: ParseProgress;
  done(): void;
}

/** The line that never draws (small plans, pipes, machine formats). */
export const SILENT_PROGRESS: ProgressLine = { update: () => {}, done: () => {} };

/**
 * One line on stderr, `leopold: parsing 40% PLAN.md (5.2 MB)`, rewritten in place while a
 * large plan parses and erased when it is done, so nothing of it stays in the output. Only
 * when stderr is a terminal: a pipe, a file or CI log gets no line at all, so machine
 * formats stay pure and logs stay clean.
 */
export function parseProgress(text: string, shownPlan: string, stream: NodeJS.WriteStream = process.stderr): ProgressLine {
  if (!stream.isTTY || text.length < PROGRESS_MIN_CHARS) return SILENT_PROGRESS;
  const size = `${(Buffer.byteLength(text, 'utf8') / 1e6).toFixed(1)} MB`;
  let shown = -1;
  let drawn = false;
  return {
    update(parsed, total) {
      const percent = total === 0 ? 100 : Math.floor((parsed / total) * 100);
      if (percent === shown) return;
      shown = percent;
      drawn = true;
      // Parsing is most of the time; the checks that follow get the last word until done().
      const doing = percent >= 100 ? 'checking' : `parsing ${percent}%`;
      stream.write(`\r\u001b[2Kleopold: ${doing} ${shownPlan} (${size})`);
    },
    done() {
      if (drawn) stream.write('\r\u001b[2K');
    },
  };
}

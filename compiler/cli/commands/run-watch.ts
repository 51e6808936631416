import { watch, type FSWatcher } from 'node:fs';
import type { WatchView } from '../../../runtime/watch/model.js';
import { RunFiles } from '../../../runtime/watch/files.js';
import { changeLines, renderFrame, stopLine } from '../../../runtime/watch/render.js';

/** How often the files are polled besides fs.watch's notices (which can miss a rename on some file systems). */
export const WATCH_POLL_MS = 1_000;

/** Where the watch writes: a terminal gets a frame redrawn in place, anything else a line per change. */
interface WatchOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * `leopold run status --watch`: follows the active run in `.leopold/` until it stops
 * (resolves 0) or the user presses Ctrl-C (130). On a terminal, one frame (runtime/watch
 * renderFrame) redrawn in place when a file changes; otherwise plain lines saying what
 * changed (changeLines), for a log or a pipe. With no active run it shows the last state
 * once and resolves 0. It waits on fs.watch's notices and a poll every `pollMs`; a poll
 * where nothing changed costs a few stats (runtime/watch/files.ts).
 */
export function watchRun(leopoldDir: string, out: WatchOutput = process.stdout, pollMs = WATCH_POLL_MS): Promise<number> {
  const files = new RunFiles(leopoldDir);
  const tty = out.isTTY === true;
  let shown: WatchView | null = null;
  let frameLines = 0;
  let followed: string | null = null;

  const show = (view: WatchView) => {
    if (tty) {
      const lines = renderFrame(view, Math.max(40, (out.columns ?? 100) - 1));
      out.write(`${frameLines > 0 ? `\x1b[${frameLines}A\r\x1b[J` : ''}${lines.join('\n')}\n`);
      frameLines = lines.length;
    } else {
      const lines = changeLines(shown, view);
      if (lines.length > 0) out.write(`${lines.join('\n')}\n`);
    }
    shown = view;
  };

  return new Promise((resolve) => {
    let watcher: FSWatcher | null = null;
    let timer: NodeJS.Timeout | null = null;
    let busy = false;
    let again = false;
    let ended = false;
    let stoppingSince: number | null = null;
    const end = (code: number) => {
      if (ended) return;
      ended = true;
      watcher?.close();
      if (timer) clearInterval(timer);
      process.off('SIGINT', interrupted);
      if (tty) out.write('\x1b[?25h');
      resolve(code);
    };
    const interrupted = () => end(130);

    const poll = async () => {
      if (ended) return;
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      try {
        const { view, changed } = await files.refresh();
        if (changed || shown === null) show(view);
        const state = view.state;
        // Follow the run that is active; a new start is followed too. Once it ends, so does the
        // watch: when its stop event is read (logged just after state.json says so), or a poll
        // interval later when none comes (`run finish` logs a finish event instead).
        if (state?.active) {
          followed = state.started_at;
          stoppingSince = null;
        } else if (followed === null || state === null || state.started_at === followed) {
          stoppingSince ??= Date.now();
          if (followed === null || view.events.stop !== null || Date.now() - stoppingSince >= pollMs) {
            const last = stopLine(view);
            if (!tty && last) out.write(`${last}\n`);
            end(0);
          }
        }
      } finally {
        busy = false;
      }
      if (again && !ended) {
        again = false;
        await poll();
      }
    };

    if (tty) out.write('\x1b[?25l');
    process.on('SIGINT', interrupted);
    try {
      watcher = watch(leopoldDir, { persistent: true }, () => void poll());
      watcher.on('error', () => watcher?.close());
    } catch {
      watcher = null; // no notices here: the poll alone follows the files
    }
    timer = setInterval(() => void poll(), pollMs);
    void poll();
  });
}

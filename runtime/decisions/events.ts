import { closeSync, fsyncSync, openSync, readFileSync, readSync, fstatSync, ftruncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { withLock, type LockOptions } from '../fs/lock.js';
import type { EventInput } from './schema.js';

/** The event log inside `.leopold/`. */
export const EVENTS_FILE = 'events.jsonl';
/** The lock file that serializes the event log's writers. */
export const EVENTS_LOCK = 'events.jsonl.lock';

/** One event as a JSON line: `ts` (stamped here) and `event` first, then the rest. */
export function eventLine(event: EventInput, at: Date): string {
  const { ts: _ts, event: name, ...rest } = event as EventInput & { ts?: unknown };
  void _ts;
  return `${JSON.stringify({ ts: at.toISOString(), event: name, ...rest })}\n`;
}

// Where a torn log should be cut: just after its last newline (0 when it has none), or
// undefined when the file already ends cleanly.
function cleanLength(fd: number): number | undefined {
  const size = fstatSync(fd).size;
  if (size === 0) return undefined;
  const chunk = Buffer.alloc(64 * 1024);
  let endAt = size;
  let firstChunk = true;
  while (endAt > 0) {
    const from = Math.max(0, endAt - chunk.length);
    const read = readSync(fd, chunk, 0, endAt - from, from);
    if (firstChunk && chunk[read - 1] === 0x0a) return undefined;
    firstChunk = false;
    const nl = chunk.subarray(0, read).lastIndexOf(0x0a);
    if (nl >= 0) return from + nl + 1;
    endAt = from;
  }
  return 0;
}

/**
 * Appends events to `<leopoldDir>/events.jsonl`, one JSON object per line, under the lock.
 * A line torn by a killed writer (no trailing newline) is cut off before appending, so the
 * log stays one whole JSON object per line.
 */
export async function recordEvents(
  leopoldDir: string,
  events: readonly EventInput[],
  now: () => Date = () => new Date(),
  lock: LockOptions = {},
): Promise<void> {
  if (events.length === 0) return;
  const path = join(leopoldDir, EVENTS_FILE);
  await withLock(
    join(leopoldDir, EVENTS_LOCK),
    () => {
      const at = now();
      const data = Buffer.from(events.map((e) => eventLine(e, at)).join(''), 'utf8');
      const fd = openSync(path, 'a+', 0o644);
      try {
        const cut = cleanLength(fd);
        if (cut !== undefined) ftruncateSync(fd, cut);
        // O_APPEND writes land at the end whatever the offset, including after a truncate.
        let written = 0;
        while (written < data.length) written += writeSync(fd, data, written);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    },
    lock,
  );
}

/** One line of `.leopold/events.jsonl`, as read back. */
export type LoggedEventLine = Record<string, unknown> & { event?: unknown };

/**
 * Every event of `<leopoldDir>/events.jsonl`, in order; none when it is missing or
 * unreadable. Lines that are not whole JSON objects (a blank line, a torn last line a
 * killed writer left, which the next writer cuts) are skipped.
 */
export function readEventLog(leopoldDir: string): LoggedEventLine[] {
  let text: string;
  try {
    text = readFileSync(join(leopoldDir, EVENTS_FILE), 'utf8');
  } catch {
    return [];
  }
  const events: LoggedEventLine[] = [];
  for (const line of text.split('\n')) {
    try {
      const value = JSON.parse(line) as unknown;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) events.push(value as LoggedEventLine);
    } catch {
      // a blank or torn line
    }
  }
  return events;
}

import { closeSync, constants, fsyncSync, readSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { newFileMode, writeWhole } from '../fs/atomic.js';
import { FileError, asFileError } from '../fs/file-error.js';
import { withLock, type LockOptions } from '../fs/lock.js';
import { MAX_READ_BYTES, openRegular, readAt } from '../fs/read.js';
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
function cleanLength(fd: number, size: number): number | undefined {
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

/** One line of the log as read back: a JSON object. */
export type LoggedLine = Record<string, unknown>;

/**
 * The events logged from byte `from` of `<leopoldDir>/events.jsonl` to the end of its last
 * whole line, and where that end is (the next reader's `from`). A last line without its
 * newline is a write still going on or one a killed writer tore: it is not read, and `end`
 * stops before it, so the next reader starts on a line boundary whatever the next writer
 * does with it. Lines that are not JSON objects are skipped. `from` null reads nothing
 * (only `end`); a `from` past the end (a log rotated by hand) reads from the start. A
 * missing log is empty; anything but a regular file is refused (FileError), never waited on.
 */
export function readEventLog(leopoldDir: string, from: number | null, maxBytes = MAX_READ_BYTES): { events: LoggedLine[]; end: number } {
  const path = join(leopoldDir, EVENTS_FILE);
  let fd: number;
  let size: number;
  try {
    ({ fd, stat: { size } } = openRegular(path, constants.O_RDONLY, 'read'));
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { events: [], end: 0 };
    throw error;
  }
  try {
    const end = cleanLength(fd, size) ?? size;
    if (from === null) return { events: [], end };
    const start = from <= end ? from : 0;
    if (end - start > maxBytes) throw new FileError(path, 'read', `${end - start} bytes of events to read; at most ${maxBytes} are read`);
    return { events: parseLines(readAt(fd, end - start, start).toString('utf8')), end };
  } catch (error) {
    throw asFileError(error, path, 'read');
  } finally {
    closeSync(fd);
  }
}

/** Every whole line of `text` that is a JSON object. */
export function parseLines(text: string): LoggedLine[] {
  const events: LoggedLine[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) events.push(value as LoggedLine);
    } catch {
      // not a whole JSON line: skip it
    }
  }
  return events;
}

/**
 * Appends events to `<leopoldDir>/events.jsonl`, one JSON object per line, under the lock.
 * A line torn by a killed writer (no trailing newline) is cut off before appending, so the
 * log stays one whole JSON object per line. Every write is checked; an append the disk
 * refuses half way (full, I/O error) is cut back off and thrown as a FileError.
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
      const { fd, stat } = openRegular(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 'write', newFileMode(path));
      try {
        const cut = cleanLength(fd, stat.size);
        if (cut !== undefined) ftruncateSync(fd, cut);
        const before = cut ?? stat.size;
        try {
          // O_APPEND writes land at the end whatever the offset, including after a truncate.
          writeWhole(fd, data);
          fsyncSync(fd);
        } catch (error) {
          ftruncateSync(fd, before);
          throw error;
        }
      } catch (error) {
        throw asFileError(error, path, 'write');
      } finally {
        closeSync(fd);
      }
    },
    lock,
  );
}

/** One line of `.leopold/events.jsonl`, as read back. */
export type LoggedEventLine = LoggedLine;

/**
 * Every event of `<leopoldDir>/events.jsonl`, in order; none when it is missing or cannot
 * be read (bounded, regular files only: readEventLog). A torn last line is not an event.
 */
export function readAllEvents(leopoldDir: string): LoggedEventLine[] {
  try {
    return readEventLog(leopoldDir, 0).events;
  } catch {
    return [];
  }
}

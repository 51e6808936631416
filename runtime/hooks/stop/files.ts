import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decidedForYou } from '../../decisions/decided-for-you.js';
import type { DecisionRecord } from '../../decisions/schema.js';
import { decisionsSince, readDecisions } from '../../decisions/trail.js';
import type { RunState } from '../../run/index.js';
import type { LoggedEvent } from './outcome.js';


// The Stop hook's file-system reads besides state.json (runtime/state) and PLAN.md.

/** A brief file's text, or '' when it does not exist (other errors throw: the hook fails open). */
export function readOptional(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

/** True when the kill switch `.leopold/STOP` is raised. */
export function killSwitchRaised(leopoldDir: string): boolean {
  return existsSync(join(leopoldDir, 'STOP'));
}

/**
 * The events logged after byte `offset` of events.jsonl (none when null), and the log's length now. Lines
 * that are not JSON objects are skipped (a torn last line is cut by the next writer). A
 * log shorter than `offset` (rotated by hand) is read from the start.
 */
export function eventsSince(leopoldDir: string, offset: number | null): { events: LoggedEvent[]; size: number } {
  let fd: number;
  try {
    fd = openSync(join(leopoldDir, 'events.jsonl'), 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { events: [], size: 0 };
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    if (offset === null) return { events: [], size };
    const from = offset <= size ? offset : 0;
    const buffer = Buffer.alloc(size - from);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, from + read);
      if (n === 0) break;
      read += n;
    }
    const events: LoggedEvent[] = [];
    for (const line of buffer.subarray(0, read).toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        const value = JSON.parse(line) as unknown;
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) events.push(value as LoggedEvent);
      } catch {
        // not a whole JSON line: skip it
      }
    }
    return { events, size };
  } finally {
    closeSync(fd);
  }
}

/** The decisions DECISIONS.md stamped since the run started (same rule as `leopold run finish`), in file order. */
export function decisionsOfRun(leopoldDir: string, state: RunState): DecisionRecord[] {
  const text = readOptional(join(leopoldDir, 'DECISIONS.md'));
  if (text === '') return [];
  return decisionsSince(readDecisions(text), state.started_at);
}

/** "What I decided for you" over the decisions stamped since the run started. */
export function decidedForYouOfRun(leopoldDir: string, state: RunState): string {
  const ofRun = decisionsOfRun(leopoldDir, state);
  return decidedForYou(ofRun);
}

/** The session transcript's size in bytes, or null when unknown (no path, missing, unreadable, not a file). */
export function transcriptBytes(path: string | null): number | null {
  if (path === null) return null;
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.size : null;
  } catch {
    return null;
  }
}

/** How much of a transcript's new bytes the compaction check reads; more than this counts as a compaction (the protocol is sent again). */
const COMPACTION_SCAN_BYTES = 4 * 1024 * 1024;
// The client's transcript marks a compaction with a `system` entry of this subtype (measured on 2.1.332).
const COMPACT_BOUNDARY = Buffer.from('"compact_boundary"');

/**
 * True when the session transcript gained a compaction boundary after byte `from` (the
 * size at the last block): the compacted session no longer holds the run's protocol. Reads
 * only the bytes added since, at most 4 MiB (beyond that, or a transcript that shrank, it
 * answers true: resending the protocol is the safe side). Unknown (no path, no size before,
 * unreadable) is false.
 */
export function compactedSince(path: string | null, from: number | null): boolean {
  if (path === null || from === null) return false;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const size = fstatSync(fd).size;
    if (size < from || size - from > COMPACTION_SCAN_BYTES) return true;
    const buffer = Buffer.alloc(size - from);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, from + read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).includes(COMPACT_BOUNDARY);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

import { closeSync, constants, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decidedForYou } from '../../decisions/decided-for-you.js';
import { readEventLog } from '../../decisions/events.js';
import { readDecisionsFile } from '../../decisions/file.js';
import type { DecisionRecord } from '../../decisions/schema.js';
import { decisionsSince, readDecisions } from '../../decisions/trail.js';
import { openRegular, readAt, readOptionalText } from '../../fs/read.js';
import type { RunState } from '../../run/index.js';
import type { LoggedEvent } from './outcome.js';


// The Stop hook's file-system reads besides state.json (runtime/state) and PLAN.md. Every
// one opens only a regular file, without blocking, and reads a bounded amount (runtime/fs/read.ts):
// a FIFO or a link to /dev/zero in any of these places fails the hook open, never hangs it.

/** A brief file's text, or '' when it does not exist (other failures, a FIFO included, throw: the hook fails open). */
export function readOptional(path: string): string {
  return readOptionalText(path);
}

/** True when the kill switch `.leopold/STOP` is raised. */
export function killSwitchRaised(leopoldDir: string): boolean {
  return existsSync(join(leopoldDir, 'STOP'));
}

/**
 * The events logged after byte `offset` of events.jsonl (none when null), and where the
 * log's last whole line ends now (the next turn's offset). Lines that are not JSON objects
 * are skipped; a torn or unfinished last line is not read, and the offset stops before it.
 * A log shorter than `offset` (rotated by hand) is read from the start.
 */
export function eventsSince(leopoldDir: string, offset: number | null): { events: LoggedEvent[]; size: number } {
  const { events, end } = readEventLog(leopoldDir, offset);
  return { events, size: end };
}

/** The decisions DECISIONS.md stamped since the run started (same rule as `leopold run finish`), in file order. */
export function decisionsOfRun(leopoldDir: string, state: RunState): DecisionRecord[] {
  // Only whole entries: an append in progress, or one a killed writer tore, is left out.
  const text = readDecisionsFile(leopoldDir);
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
  let size: number;
  try {
    ({ fd, stat: { size } } = openRegular(path, constants.O_RDONLY, 'read'));
  } catch {
    return false;
  }
  try {
    if (size < from || size - from > COMPACTION_SCAN_BYTES) return true;
    return readAt(fd, size - from, from).includes(COMPACT_BOUNDARY);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

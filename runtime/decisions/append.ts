import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { newFileMode, writeFileAtomic, writeWhole } from '../fs/atomic.js';
import { asFileError } from '../fs/file-error.js';
import { withLock, type LockOptions } from '../fs/lock.js';
import { openRegular } from '../fs/read.js';
import { liftedCharterRules } from '../persona/charter-rules-cache.js';
import { DecisionRefusedError, refusalOf } from './protocol.js';
import { parseDecisionInput } from './record-input.js';
import { DECISIONS_HEADING, isPersonaEntry, renderDecision } from './render.js';
import type { DecisionInput } from './schema.js';
import { DECISIONS_FILE, DECISIONS_JOURNAL, DECISIONS_LOCK, readJournal } from './file.js';
import { highestDecisionNumber } from './trail.js';

export { DECISIONS_FILE, DECISIONS_JOURNAL, DECISIONS_LOCK };

/** The new text of DECISIONS.md and the numbers given to the entries, in order. */
export interface PlannedAppend {
  text: string;
  numbers: number[];
}

/** What an append needs to know of the file it goes after: all of it is in the file's tail. */
export interface DecisionsTail {
  /** True when the file is missing or empty (then the heading is written first). */
  empty: boolean;
  /** The file's last two characters. */
  end: string;
  /** The highest D number already there. */
  highest: number;
}

/**
 * Pure half of an append: the text to add after a file with `tail`, and the numbers given
 * to the entries, numbered on from the highest D number already there. A file that does
 * not end with a newline gets one; each entry is preceded by one blank line.
 */
export function appendedText(tail: DecisionsTail, entries: readonly DecisionInput[], at: Date, rules: readonly string[] = []): PlannedAppend {
  let text = tail.empty ? DECISIONS_HEADING : tail.end.endsWith('\n') ? '' : '\n';
  // The last two characters of the file as it grows, kept apart: asking the growing text
  // would make a large batch quadratic.
  let end = (tail.empty ? text : tail.end + text).slice(-2);
  let n = tail.highest;
  const numbers: number[] = [];
  for (const entry of entries) {
    n += 1;
    numbers.push(n);
    const added = `${end === '\n\n' ? '' : '\n'}${renderDecision(entry, n, at, rules)}\n`;
    text += added;
    end = (end + added).slice(-2);
  }
  return { text, numbers };
}

/** The whole new text for `existing` (undefined when the file is missing): existing bytes are kept. */
export function planAppend(existing: string | undefined, entries: readonly DecisionInput[], at: Date, rules: readonly string[] = []): PlannedAppend {
  const before = existing ?? '';
  const added = appendedText({ empty: before === '', end: before.slice(-2), highest: highestDecisionNumber(before) }, entries, at, rules);
  return { text: before + added.text, numbers: added.numbers };
}

// An entry is well under 1 KiB; a tail this size almost always holds the last numbered line.
const TAIL_CHUNK = 8 * 1024;

/**
 * Reads what an append needs from the end of the open file: its last characters and the
 * highest D number in the last 8 KiB (further back, doubling, while that holds no numbered line).
 * The writer only ever appends ascending numbers, so the newest entries are at the end;
 * a number a person typed higher up, far from the end, is not looked for.
 */
function readTail(fd: number, size: number): DecisionsTail {
  if (size === 0) return { empty: true, end: '', highest: 0 };
  let length = Math.min(size, TAIL_CHUNK);
  for (;;) {
    const from = size - length;
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const got = readSync(fd, buffer, read, length - read, from + read);
      if (got === 0) break;
      read += got;
    }
    let text = buffer.subarray(0, read).toString('utf8');
    const end = text.slice(-2);
    // A chunk that starts mid-file starts mid-line: that line is not ours to read.
    if (from > 0) text = text.slice(text.indexOf('\n') + 1);
    const highest = highestDecisionNumber(text);
    if (highest > 0 || from === 0) return { empty: false, end, highest };
    length = Math.min(size, length * 2);
  }
}

// A journal left by a writer killed during its append: the file is back to its size
// before that append, unless the append finished (then it is kept whole).
function recoverFromJournal(leopoldDir: string, fd: number): void {
  const recorded = readJournal(leopoldDir);
  const size = fstatSync(fd).size;
  if (recorded && size > recorded.before && size !== recorded.after) {
    ftruncateSync(fd, recorded.before);
    fsyncSync(fd);
  }
  rmSync(join(leopoldDir, DECISIONS_JOURNAL), { force: true });
}

/** Writes all of `data` at the end of `fd` (opened for append); on any failure the file is cut back to `size`. */
function appendWhole(fd: number, data: Buffer, size: number): void {
  try {
    writeWhole(fd, data);
    fsyncSync(fd);
  } catch (error) {
    ftruncateSync(fd, size);
    throw error;
  }
}

/**
 * Appends decisions to `<leopoldDir>/DECISIONS.md` as the single writer: checked and
 * protocol-checked first (a refusal throws DecisionRefusedError and writes nothing), then
 * under the lock: read the file's tail for the highest number, render the whole batch and
 * append it with one write and one fsync. The cost does not grow with the file. Concurrent
 * writers never share a number; a writer killed mid-append is cut back by the next one
 * (DECISIONS_JOURNAL). Timestamps come from `now`, read inside the lock.
 * Persona-fork entries carry the charter rules lifted from `<leopoldDir>/CHARTER.md`.
 */
export async function appendDecisions(
  leopoldDir: string,
  entries: readonly DecisionInput[],
  now: () => Date = () => new Date(),
  lock: LockOptions = {},
): Promise<number[]> {
  const parsed = entries.map((e) => parseDecisionInput(e));
  const refusal = refusalOf(parsed);
  if (refusal) throw new DecisionRefusedError(refusal.message);
  if (parsed.length === 0) return [];
  const path = join(leopoldDir, DECISIONS_FILE);
  // The rules that bind a persona are lifted from CHARTER.md here, by the one writer:
  // never taken from the caller, so no engine and no model can soften them. Read before
  // the lock: CHARTER.md is not the lock's to guard, and the critical section stays short.
  // Only for persona entries, and reused while CHARTER.md is unchanged: lifting parses
  // Markdown (remark), which would otherwise be most of a scribe's cold start.
  const rules = parsed.some(isPersonaEntry) ? await liftedCharterRules(leopoldDir) : [];
  const journal = join(leopoldDir, DECISIONS_JOURNAL);
  return withLock(
    join(leopoldDir, DECISIONS_LOCK),
    () => {
      // Opened without blocking and only as a regular file: a FIFO there must not hang a scribe.
      const { fd } = openRegular(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 'write', newFileMode(path));
      try {
        recoverFromJournal(leopoldDir, fd);
        const size = fstatSync(fd).size;
        const planned = appendedText(readTail(fd, size), parsed, now(), rules);
        const data = Buffer.from(planned.text, 'utf8');
        writeFileAtomic(journal, `${size} ${size + data.length}\n`, { durable: false });
        try {
          appendWhole(fd, data, size);
        } catch (error) {
          // Cut back to its old size, the file holds no part of this append: nothing to journal.
          if (fstatSync(fd).size === size) rmSync(journal, { force: true });
          throw error;
        }
        rmSync(journal, { force: true });
        return planned.numbers;
      } catch (error) {
        throw asFileError(error, path, 'write');
      } finally {
        closeSync(fd);
      }
    },
    lock,
  );
}

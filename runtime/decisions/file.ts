import { join } from 'node:path';
import { readOptionalFile } from '../fs/read.js';

/** DECISIONS.md inside `.leopold/`. */
export const DECISIONS_FILE = 'DECISIONS.md';
/** The lock file that serializes DECISIONS.md's writers. */
export const DECISIONS_LOCK = 'DECISIONS.md.lock';
/**
 * The append journal: the lock holder writes `<size before> <size after>` here before it
 * appends and removes it after the fsync, so the next holder can cut an append that a
 * killed writer left half done, and a reader can leave it out meanwhile.
 */
export const DECISIONS_JOURNAL = '.DECISIONS.md.append';

/** The sizes an append in progress (or one a killed writer left) goes from and to, or null when none is. */
export function readJournal(leopoldDir: string): { before: number; after: number } | null {
  let text: string;
  try {
    text = readOptionalFile(join(leopoldDir, DECISIONS_JOURNAL), 256)?.toString('utf8') ?? '';
  } catch {
    return null; // not a journal Leopold wrote
  }
  const [before, after] = text.trim().split(' ').map(Number);
  return before !== undefined && after !== undefined && Number.isSafeInteger(before) && Number.isSafeInteger(after) && after > before ? { before, after } : null;
}

// A block entry's last field, as the writer renders it (render.ts): an entry without it at
// the end of the file is an append still being written, or one a killed writer tore.
const ENTRY_HEADING = /^## D\d+ — /;
const LAST_FIELD = /^Reversal:/;

/**
 * The text of DECISIONS.md a reader may trust: every whole entry, never half of one. An
 * append in progress, or one a killed writer left (its journal is still there), is left
 * out: the file is read up to the size before it. A last line without its newline is
 * left out too, and so is a last block entry that has not reached its Reversal line, which
 * covers an append that finished (and dropped its journal) while this read was going on.
 * '' when the file is missing. A FIFO or a device there is refused (FileError), never read.
 */
export function readDecisionsFile(leopoldDir: string): string {
  const bytes = readOptionalFile(join(leopoldDir, DECISIONS_FILE));
  if (bytes === null) return '';
  // The journal is asked after the file: an append that was going on during the read still has one.
  const journal = readJournal(leopoldDir);
  const trusted = journal && bytes.length > journal.before && bytes.length !== journal.after ? bytes.subarray(0, journal.before) : bytes;
  return wholeEntries(trusted.toString('utf8'));
}

/** `text` without a torn tail: an unterminated last line, and a last block entry cut before its Reversal line. */
export function wholeEntries(text: string): string {
  const lastNewline = text.lastIndexOf('\n');
  const whole = text.slice(0, lastNewline + 1);
  const lines = whole.split('\n');
  // The last entry heading, and whether its Reversal line came after it.
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (LAST_FIELD.test(line)) return whole;
    if (ENTRY_HEADING.test(line)) return lines.slice(0, i).join('\n');
  }
  return whole;
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';

/**
 * The sessions already told that another session conducts the run, so the Stop hook says
 * it once per session and run, not at every turn's end. Kept beside the run's files, never
 * in state.json: a bystander writes nothing to the run's state. One line per session,
 * `<run's started_at>\t<session id>`; lines of earlier runs are dropped when it is written.
 */
export const BYSTANDERS_FILE = '.bystanders';

function linesOf(leopoldDir: string): string[] {
  try {
    return readFileSync(join(leopoldDir, BYSTANDERS_FILE), 'utf8').split('\n').filter((line) => line !== '');
  } catch {
    return [];
  }
}

/**
 * True the first time `session` is seen as a bystander of the run started at `run`, and
 * remembers it; false after that. A file that cannot be written makes it true every time
 * (saying it again is better than never saying it).
 */
export function firstTimeBystander(leopoldDir: string, run: string, session: string): boolean {
  const ofRun = linesOf(leopoldDir).filter((line) => line.startsWith(`${run}\t`));
  const line = `${run}\t${session}`;
  if (ofRun.includes(line)) return false;
  try {
    writeFileAtomic(join(leopoldDir, BYSTANDERS_FILE), `${[...ofRun, line].join('\n')}\n`);
  } catch {
    // unwritable: the next Stop says it again
  }
  return true;
}

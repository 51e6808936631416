import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { FileError } from '../fs/file-error.js';
import { withLock, type LockOptions } from '../fs/lock.js';
import { readOptionalFile, readRegularFile } from '../fs/read.js';
import { parseState, renderState, type StateReading } from './parse.js';
import { RunStateSchema, type RunState } from '../run/schema.js';

/** The path of state.json inside a `.leopold/` directory. */
export function statePath(leopoldDir: string): string {
  return join(leopoldDir, 'state.json');
}

/** state.json is a few KiB; a file far past that is not one (and must not be read whole by a hook). */
const MAX_STATE_BYTES = 4 * 1024 * 1024;

/**
 * Reads `<leopoldDir>/state.json`; a missing or corrupt file is "no state" with a reason.
 * Only a regular file is read (a FIFO or a device there is "corrupt", never waited on).
 */
export function readState(leopoldDir: string): StateReading {
  let text: string;
  try {
    text = readRegularFile(statePath(leopoldDir), MAX_STATE_BYTES).toString('utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { state: null, problem: 'missing' };
    return { state: null, problem: `corrupt: unreadable (${error instanceof FileError ? error.reason : (error as Error).message})` };
  }
  return parseState(text);
}

/**
 * Atomic read-modify-write of state.json, serialized with `state.json.lock` so concurrent
 * writers (hooks, CLI, scribe agents) never lose an update. `fn` receives the current state
 * (null when missing or corrupt, with the reason) and returns the new one, which is
 * validated before it is written (temp file + rename). Returns what was written.
 */
export async function updateState(
  leopoldDir: string,
  fn: (current: RunState | null, problem: StateReading['problem']) => RunState,
  lock: LockOptions = {},
): Promise<RunState> {
  return updateStateAnd(leopoldDir, fn, () => undefined, lock);
}

/**
 * updateState, then `after` (what must be written with it, such as the run's `start`
 * event), still under the lock. All or nothing: when `after` fails (a full disk), state.json
 * is put back byte for byte as it was (or removed, when there was none) and the failure
 * is thrown.
 */
export async function updateStateAnd(
  leopoldDir: string,
  fn: (current: RunState | null, problem: StateReading['problem']) => RunState,
  after: (next: RunState) => void | Promise<void>,
  lock: LockOptions = {},
): Promise<RunState> {
  mkdirSync(leopoldDir, { recursive: true });
  const path = statePath(leopoldDir);
  const root = dirname(leopoldDir);
  return withLock(
    `${path}.lock`,
    async () => {
      const before = readOptionalStateBytes(path);
      const reading = readState(leopoldDir);
      const next = RunStateSchema.parse(fn(reading.state, reading.problem));
      writeFileAtomic(path, renderState(next), { root });
      try {
        await after(next);
      } catch (error) {
        try {
          if (before === null) rmSync(path, { force: true });
          else if (before !== undefined) writeFileAtomic(path, before, { root });
        } catch {
          // The disk refuses even the old bytes: the failure below still names what could not be written.
        }
        throw error;
      }
      return next;
    },
    lock,
  );
}

// state.json's bytes as they are (null when there is none), to put back: never re-rendered.
// Undefined when they cannot be read: then there is nothing that could be put back.
function readOptionalStateBytes(path: string): Buffer | null | undefined {
  try {
    return readOptionalFile(path, MAX_STATE_BYTES);
  } catch {
    return undefined;
  }
}

import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { withLock, type LockOptions } from '../fs/lock.js';
import { parseState, renderState, type StateReading } from './parse.js';
import { RunStateSchema, type RunState } from '../run/schema.js';

/** The path of state.json inside a `.leopold/` directory. */
export function statePath(leopoldDir: string): string {
  return join(leopoldDir, 'state.json');
}

/** Reads `<leopoldDir>/state.json`; a missing or corrupt file is "no state" with a reason. */
export function readState(leopoldDir: string): StateReading {
  let text: string;
  try {
    text = readFileSync(statePath(leopoldDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: null, problem: 'missing' };
    return { state: null, problem: `corrupt: unreadable (${(error as Error).message})` };
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
  mkdirSync(leopoldDir, { recursive: true });
  const path = statePath(leopoldDir);
  return withLock(
    `${path}.lock`,
    () => {
      const reading = readState(leopoldDir);
      const next = RunStateSchema.parse(fn(reading.state, reading.problem));
      writeFileAtomic(path, renderState(next));
      return next;
    },
    lock,
  );
}

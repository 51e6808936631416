import { RunStateSchema, type RunState } from '../run/schema.js';

/** The outcome of reading state.json: a state, or no state and the reason why. */
export type StateReading =
  | { state: RunState; problem: null }
  | { state: null; problem: 'missing' | `corrupt: ${string}` };

/**
 * Parses state.json text. Anything unusable (not JSON, not an object, wrong field types)
 * is "no state" with a reason, never an exception: the Stop hook must fail open and the
 * CLI must be able to say what is wrong with the file.
 */
export function parseState(text: string): StateReading {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { state: null, problem: `corrupt: not JSON (${(error as Error).message})` };
  }
  const parsed = RunStateSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'file';
    return { state: null, problem: `corrupt: ${where}: ${issue?.message ?? 'invalid'}` };
  }
  return { state: parsed.data, problem: null };
}

/** state.json text: 2-space JSON with a final newline. */
export function renderState(state: RunState): string {
  return `${JSON.stringify(state, null, 2)}\n`;
}

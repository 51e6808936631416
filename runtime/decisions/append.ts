import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { withLock, type LockOptions } from '../fs/lock.js';
import { DecisionRefusedError, firstRefusal } from './protocol.js';
import { charterRules } from '../persona/charter-rules.js';
import { DECISIONS_HEADING, isPersonaEntry, renderDecision } from './render.js';
import { DecisionInputSchema, type DecisionInput } from './schema.js';
import { highestDecisionNumber } from './trail.js';

/** DECISIONS.md inside `.leopold/`. */
export const DECISIONS_FILE = 'DECISIONS.md';
/** CHARTER.md inside `.leopold/`: where a persona's binding rules are lifted from. */
const CHARTER_FILE = 'CHARTER.md';
/** The lock file that serializes DECISIONS.md's writers. */
export const DECISIONS_LOCK = 'DECISIONS.md.lock';

/** The new text of DECISIONS.md and the numbers given to the entries, in order. */
export interface PlannedAppend {
  text: string;
  numbers: number[];
}

/**
 * Pure half of an append: `existing` (undefined when the file is missing) plus the
 * rendered entries, numbered on from the highest D number already there. Existing bytes
 * are kept; each entry is preceded by one blank line.
 */
export function planAppend(existing: string | undefined, entries: readonly DecisionInput[], at: Date, rules: readonly string[] = []): PlannedAppend {
  let text = existing === undefined || existing === '' ? DECISIONS_HEADING : existing;
  if (!text.endsWith('\n')) text += '\n';
  let n = highestDecisionNumber(text);
  const numbers: number[] = [];
  for (const entry of entries) {
    n += 1;
    numbers.push(n);
    text += `${text.endsWith('\n\n') ? '' : '\n'}${renderDecision(entry, n, at, rules)}\n`;
  }
  return { text, numbers };
}

// writeFileAtomic's temp files for DECISIONS.md. Only the lock holder writes one, so any
// found while we hold the lock was left by a writer killed mid-append: litter, not data.
function removeDeadTemps(leopoldDir: string): void {
  for (const name of readdirSync(leopoldDir)) {
    if (name.startsWith(`.${DECISIONS_FILE}.`) && name.endsWith('.tmp')) rmSync(join(leopoldDir, name), { force: true });
  }
}

function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Appends decisions to `<leopoldDir>/DECISIONS.md` as the single writer: protocol-checked
 * first (a refusal throws DecisionRefusedError and writes nothing), then under the lock,
 * read + render + atomic replace, so concurrent writers never share a number and a killed
 * writer never leaves half an entry. Timestamps come from `now`, read inside the lock.
 * Persona-fork entries carry the charter rules lifted from `<leopoldDir>/CHARTER.md`.
 */
export async function appendDecisions(
  leopoldDir: string,
  entries: readonly DecisionInput[],
  now: () => Date = () => new Date(),
  lock: LockOptions = {},
): Promise<number[]> {
  const parsed = entries.map((e) => DecisionInputSchema.parse(e));
  const refusal = firstRefusal(parsed);
  if (refusal) throw new DecisionRefusedError(refusal);
  if (parsed.length === 0) return [];
  const path = join(leopoldDir, DECISIONS_FILE);
  // The rules that bind a persona are lifted from CHARTER.md here, by the one writer:
  // never taken from the caller, so no engine and no model can soften them. Read before
  // the lock: CHARTER.md is not the lock's to guard, and the critical section stays short.
  const rules = parsed.some(isPersonaEntry) ? charterRules(readIfPresent(join(leopoldDir, CHARTER_FILE)) ?? '') : [];
  return withLock(
    join(leopoldDir, DECISIONS_LOCK),
    () => {
      removeDeadTemps(leopoldDir);
      const planned = planAppend(readIfPresent(path), parsed, now(), rules);
      writeFileAtomic(path, planned.text);
      return planned.numbers;
    },
    lock,
  );
}

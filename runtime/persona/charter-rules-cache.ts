import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { readOptionalFile, readRegularFile } from '../fs/read.js';

// `leopold record` lifts CHARTER.md's rules for every persona entry, and lifting parses
// Markdown with remark: loading and running it was most of a cold `record`. The rules
// depend only on the charter's text and on the lifter, so the last lift is kept beside
// CHARTER.md with both, and reused while both are the same. Nothing here loads remark.

/** CHARTER.md inside `.leopold/`. */
export const CHARTER_FILE = 'CHARTER.md';
/** The last lift: `{ lifter, charter, rules }` as JSON, beside CHARTER.md. */
export const CHARTER_RULES_CACHE = '.CHARTER.md.rules';

// The bundles define this as a hash of the lifter's source and the Markdown parser's
// versions (scripts/build.mjs), so a lift made by an older Leopold is never reused.
// Unbundled (tests, tsx) there is no build to name: the lifter is `source`.
declare const LEOPOLD_CHARTER_LIFTER: string | undefined;
const LIFTER = typeof LEOPOLD_CHARTER_LIFTER === 'string' ? LEOPOLD_CHARTER_LIFTER : 'source';

interface CachedLift {
  lifter: string;
  charter: string;
  rules: string[];
}

function readCache(path: string): CachedLift | undefined {
  try {
    const cached = JSON.parse(readRegularFile(path).toString('utf8')) as Partial<CachedLift> | null;
    if (typeof cached?.lifter !== 'string' || typeof cached.charter !== 'string') return undefined;
    if (!Array.isArray(cached.rules) || !cached.rules.every((rule) => typeof rule === 'string')) return undefined;
    return cached as CachedLift;
  } catch {
    return undefined; // missing, unreadable or not ours: lift again
  }
}

// The rules of the last charter text this process saw, in front of the file.
let lastLift: { charter: string; rules: readonly string[] } | undefined;

/**
 * The rules CHARTER.md binds a persona to (charterRules), for `<leopoldDir>/CHARTER.md`
 * as it is now (a missing file is an empty charter). Reused from this process's last call
 * or from CHARTER_RULES_CACHE when the charter text and the lifter are the same as for that
 * lift (the whole text is compared, not a hash); otherwise lifted with remark and kept.
 */
export async function liftedCharterRules(leopoldDir: string): Promise<readonly string[]> {
  const charter = readIfPresent(join(leopoldDir, CHARTER_FILE)) ?? '';
  if (lastLift?.charter === charter) return lastLift.rules;
  const cachePath = join(leopoldDir, CHARTER_RULES_CACHE);
  const cached = readCache(cachePath);
  let rules: readonly string[];
  if (cached && cached.lifter === LIFTER && cached.charter === charter) {
    rules = cached.rules;
  } else {
    rules = (await import('./charter-rules.js')).charterRules(charter);
    try {
      // It holds the charter's text: no one may read it who cannot read CHARTER.md.
      writeFileAtomic(cachePath, `${JSON.stringify({ lifter: LIFTER, charter, rules: [...rules] } satisfies CachedLift)}\n`, { durable: false, notWiderThan: join(leopoldDir, CHARTER_FILE) });
    } catch {
      // A cache that cannot be written (a read-only .leopold/) only costs the next call a lift.
    }
  }
  lastLift = { charter, rules };
  return rules;
}

/** A file's text, or undefined when it does not exist (other failures, a FIFO included, throw a FileError). */
function readIfPresent(path: string): string | undefined {
  return readOptionalFile(path)?.toString('utf8');
}

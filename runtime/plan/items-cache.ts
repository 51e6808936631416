import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { FileError } from '../fs/file-error.js';
import { MAX_READ_BYTES, readRegularFile } from '../fs/read.js';
import type { PlanItem } from './schema.js';

/**
 * PLAN.md parsed once and kept: `.PLAN.md.items.json` beside it holds the text it was
 * parsed from and the Plan IR items. A reader whose PLAN.md is byte for byte that text
 * (compared whole, no hash to collide) gets the items back and never loads the Markdown
 * parser; any other text is parsed again and the file rewritten. The Stop hook reads it
 * every turn (a remark parse every turn was about 12× `node -e 0` on a 1,000-item plan;
 * a plain plan is read without remark, parse/plain.ts, but still costs a parse) and
 * `leopold plan tick`, which the scribes run for every finished item, reads it and leaves
 * the ticked text's items behind. The file is only a cache: unreadable, malformed or from
 * another version, it is ignored; if it cannot be written, the next reader parses.
 */
export const PLAN_CACHE = '.PLAN.md.items.json';
const VERSION = 1;

interface CacheFile {
  version: number;
  text: string;
  items: readonly PlanItem[];
}

/**
 * The items of `text` (the PLAN.md at `planPath`, as read), from the cache or parsed (the
 * parser is loaded only then). A plan refused for nesting too deep (parse/nesting.ts) is a
 * FileError at its line and column, as `leopold graph` reports it, not a plan of no items:
 * `plan tick` says why, and the Stop hook does not take it for a finished plan.
 */
export async function planItems(planPath: string, text: string): Promise<PlanItem[]> {
  const cached = readCache(cacheOf(planPath));
  if (cached !== null && cached.text === text) return [...cached.items];
  const { parsePlan, tooDeepMessage } = await import('./parse/index.js');
  const parsed = parsePlan(text, planPath);
  const deep = parsed.tooDeep;
  if (deep) throw new FileError(planPath, 'read', tooDeepMessage(deep.depth, deep.limit), undefined, deep.span.line, deep.span.column);
  rememberItems(planPath, text, parsed.items);
  return parsed.items;
}

/** Leaves `items` as the parse of `text` (a writer that knows the new text's items, such as a tick). */
export function rememberItems(planPath: string, text: string, items: readonly PlanItem[]): void {
  // Temp file and rename, so no reader sees half a file; no fsync: a cache lost in a crash
  // costs a parse, and one that survives stale is told apart by its text.
  try {
    // It holds the plan's text: no one may read it who cannot read the plan.
    writeFileAtomic(cacheOf(planPath), JSON.stringify({ version: VERSION, text, items } satisfies CacheFile), { durable: false, notWiderThan: planPath });
  } catch {
    // A cache that cannot be written costs the next reader a parse, nothing else.
  }
}

// The cache holds the plan's text and its items: a few times the plan, which is at most MAX_READ_BYTES.
const MAX_CACHE_BYTES = 4 * MAX_READ_BYTES;

const cacheOf = (planPath: string) => join(dirname(planPath), PLAN_CACHE);

function readCache(path: string): CacheFile | null {
  try {
    // A regular file only, read without blocking: a FIFO here costs a parse, never a hang.
    const parsed = JSON.parse(readRegularFile(path, MAX_CACHE_BYTES).toString('utf8')) as Partial<CacheFile>;
    if (parsed.version !== VERSION || typeof parsed.text !== 'string' || !Array.isArray(parsed.items)) return null;
    return parsed as CacheFile;
  } catch {
    return null;
  }
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic.js';
import type { PlanItem } from '../../plan/schema.js';

/**
 * The Stop hook's parsed plan, kept between turns: `.leopold/.PLAN.md.items.json` holds the
 * PLAN.md text it was parsed from and the Plan IR items. A turn whose PLAN.md is byte for
 * byte that text (compared whole, no hash to collide) reads the items back and never loads
 * the Markdown parser; any other text is parsed again and the file rewritten. Every turn
 * would otherwise re-parse the whole plan: about 12× `node -e 0` on a 1,000-item plan.
 * The file is only a cache: unreadable, malformed or from another version, it is ignored;
 * it cannot be written (a read-only `.leopold/`), the turn goes on with the parse.
 */
export const PLAN_CACHE = '.PLAN.md.items.json';
const VERSION = 1;

interface CacheFile {
  version: number;
  text: string;
  items: PlanItem[];
}

/** The items of `text` (PLAN.md as read), from the cache or parsed (the parser is loaded only then). */
export async function planItems(leopoldDir: string, planPath: string, text: string): Promise<PlanItem[]> {
  const cachePath = join(leopoldDir, PLAN_CACHE);
  const cached = readCache(cachePath);
  if (cached !== null && cached.text === text) return cached.items;
  const { parsePlan } = await import('../../plan/parse/index.js');
  const items = parsePlan(text, planPath).items;
  try {
    writeFileAtomic(cachePath, JSON.stringify({ version: VERSION, text, items } satisfies CacheFile));
  } catch {
    // a cache that cannot be written costs the next turn a parse, nothing else
  }
  return items;
}

function readCache(path: string): CacheFile | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<CacheFile>;
    if (parsed.version !== VERSION || typeof parsed.text !== 'string' || !Array.isArray(parsed.items)) return null;
    return parsed as CacheFile;
  } catch {
    return null;
  }
}

import { dirname, join } from 'node:path';
import { readEventLog, type LoggedLine } from '../decisions/events.js';
import type { PlanItem } from '../plan/schema.js';
import { readOptionalFile } from '../fs/read.js';

/**
 * Done means verified (docs/runtime.md): a work item is ticked during a run only when a
 * passing verification was recorded for it (`leopold record`'s `verified` event, which the
 * CLI stamps with the working tree's fingerprint) and the tree has not changed since.
 */

/** A passing verification as events.jsonl keeps it. */
export interface Receipt {
  item: number;
  commands: string[];
  fingerprint: string;
  ts: string;
}

/** The last `verified` event recorded for `item`, or null. */
export function lastReceipt(events: readonly LoggedLine[], item: number): Receipt | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.event !== 'verified' || e.item !== item || typeof e.fingerprint !== 'string') continue;
    const commands = Array.isArray(e.commands) ? e.commands.filter((c): c is string => typeof c === 'string') : [];
    return { item, commands, fingerprint: e.fingerprint, ts: typeof e.ts === 'string' ? e.ts : '' };
  }
  return null;
}

/**
 * The evidence behind a run's ticks, for its report: each item's last receipt among `events`
 * (the run's), in item order, and the items ticked `--unverified`.
 */
export function runEvidence(events: readonly LoggedLine[]): { verified: { item: number; commands: string[] }[]; unverified: number[] } {
  const last = new Map<number, string[]>();
  const unverified = new Set<number>();
  for (const e of events) {
    if (typeof e.item !== 'number') continue;
    if (e.event === 'verified') last.set(e.item, Array.isArray(e.commands) ? e.commands.filter((c): c is string => typeof c === 'string') : []);
    if (e.event === 'unverified-tick') unverified.add(e.item);
  }
  const verified = [...last].sort(([a], [b]) => a - b).map(([item, commands]) => ({ item, commands }));
  return { verified, unverified: [...unverified].sort((a, b) => a - b) };
}

/** Whether a tick of `item` may go ahead: yes outside a run and for non-work nodes; else the receipt must match the tree. */
export type TickVerdict = { ok: true; receipt: Receipt | null } | { ok: false; message: string };

/** The one-line instruction a refusal ends with. */
const HOW = `run the item's tests, record {"events":[{"event":"verified","item":N,"commands":["<the test commands, each passing>"]}]} with leopold record (as the run's protocol records everything), then tick it; a receipt says those commands passed after the last edit`;

/** The fingerprint module (node:crypto, git) is loaded only when a receipt is compared: `plan tick` outside a run loads neither. */
export async function checkTick(leopoldDir: string, item: PlanItem): Promise<TickVerdict> {
  if (item.kind !== 'work') return { ok: true, receipt: null };
  if (!runActive(leopoldDir)) return { ok: true, receipt: null };
  const receipt = lastReceipt(readEventLog(leopoldDir, 0).events, item.index);
  const how = HOW.replace('"item":N', `"item":${item.index}`);
  if (receipt === null) return { ok: false, message: `item ${item.index} has no passing verification recorded: ${how}` };
  const { treeFingerprint } = await import('./fingerprint.js');
  if (receipt.fingerprint !== treeFingerprint(dirname(leopoldDir))) {
    return { ok: false, message: `item ${item.index} was edited after its last verification (${receipt.ts}: ${receipt.commands.join(', ')}): ${how}` };
  }
  return { ok: true, receipt };
}

/**
 * Whether state.json says a run is active: read as plain JSON (plan tick loads no schema
 * library); missing or not JSON is no run. A FIFO, a device or a directory in its place is
 * refused (a FileError), never waited on nor taken for "no run".
 */
function runActive(leopoldDir: string): boolean {
  const bytes = readOptionalFile(join(leopoldDir, 'state.json'));
  if (bytes === null) return false;
  try {
    const state = JSON.parse(bytes.toString('utf8')) as { active?: unknown } | null;
    return state !== null && typeof state === 'object' && state.active === true;
  } catch {
    return false;
  }
}

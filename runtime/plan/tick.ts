import type { PlanItem } from './schema.js';

/** The result of ticking: new bytes, or why nothing changed. */
export type TickResult = { changed: true; bytes: Buffer } | { changed: false; reason: 'already-done' };

/**
 * Marks `item` done in PLAN.md's raw bytes by turning the space inside its `[ ]` into `x`.
 * Exactly one byte changes; BOM, CRLF and invalid UTF-8 elsewhere survive because the
 * bytes are patched, never re-encoded. `text` is the decoded file (BOM included), which
 * `checkOffset` indexes in UTF-16 units.
 */
export function tickBytes(bytes: Buffer, text: string, item: PlanItem): TickResult {
  const char = text[item.checkOffset];
  if (char === 'x' || char === 'X' || item.done) return { changed: false, reason: 'already-done' };
  const at = Buffer.byteLength(text.slice(0, item.checkOffset), 'utf8');
  // A decoded prefix that re-encodes to different bytes (invalid UTF-8 before the item)
  // would put the offset elsewhere; refuse rather than flip the wrong byte.
  if (!bytes.subarray(0, at).equals(Buffer.from(text.slice(0, item.checkOffset), 'utf8')) || bytes[at] !== 0x20) {
    throw new Error(`item ${item.index}: the checkbox at line ${item.line} is not "[ ]" in the file's bytes`);
  }
  const out = Buffer.from(bytes);
  out[at] = 0x78; // 'x'
  return { changed: true, bytes: out };
}

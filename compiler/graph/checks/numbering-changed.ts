import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Span } from '../../../runtime/plan/schema.js';
import type { CheckContext } from '../context.js';

// Enough lines to find the spot; the full picture is in the plan itself.
const LISTED_LINES = 10;

/**
 * `numbering-changed`: one warning when the items are not on the lines the old `- [ ]`
 * line rule counted, since every `(after: N)` written against the old numbers may now
 * point elsewhere. Positioned at the first line where the two numberings part.
 */
export function numberingChanged(ctx: CheckContext): Diagnostic[] {
  const { items, legacyItemLines: legacy } = ctx.ir;
  let first = 0;
  while (first < items.length && first < legacy.length && items[first]!.line === legacy[first]) first += 1;
  if (first === items.length && first === legacy.length) return [];

  const itemLines = new Set(items.map((item) => item.line));
  const legacyNumber = new Map(legacy.map((line, position) => [line, position + 1]));
  const dropped = legacy.filter((line) => !itemLines.has(line));
  const added = items.filter((item) => !legacyNumber.has(item.line)).map((item) => item.line);
  const renumbered = items.filter((item) => legacyNumber.get(item.line) !== item.index).map((item) => item.index);

  const parts: string[] = [];
  if (dropped.length > 0) parts.push(`counted before but not items now: ${lines(dropped)}`);
  if (added.length > 0) parts.push(`items now but not counted before: ${lines(added)}`);
  const partedAt = Math.min(items[first]?.line ?? Infinity, legacy[first] ?? Infinity);
  const at: Span =
    items[first]?.line === partedAt
      ? items[first]!.span
      : { line: partedAt, column: 1, endLine: partedAt, endColumn: 1 };
  return [
    diagnostic(
      'numbering-changed',
      ctx.ir.file,
      at,
      `item numbers differ from the old "- [ ]" line rule from line ${partedAt} on (${parts.join('; ')}); expected the same lines, so (after: N) written for the old numbers may now name other items`,
      renumbered,
    ),
  ];
}

function lines(list: number[]): string {
  const shown = list.slice(0, LISTED_LINES).join(', ');
  const more = list.length > LISTED_LINES ? ` and ${list.length - LISTED_LINES} more` : '';
  return `${list.length === 1 ? 'line' : 'lines'} ${shown}${more}`;
}

import type { Span } from '../schema.js';
import { isMarkerLine, isScenarioLine, markerName, scenarioContinues, type WrittenMarker } from './marker-lines.js';
import { spanOf, trimmedRange, type SourceText } from './source.js';

/** A marker line and the item it attaches to (null: no item above it). */
export interface PlacedMarker extends WrittenMarker {
  item: number | null;
}

/** What the pass over source lines finds. */
export interface LineFacts {
  markers: PlacedMarker[];
  /** 1-based lines the old `- [ ]`-only rule counted as items. */
  legacyItemLines: number[];
  /** List lines with a box that is not a checkbox (`- [~] skipped`), outside code. */
  notCheckboxes: NotCheckbox[];
}

/** A line that looks like a task item but whose box holds something other than ` `, `x`, `X`. */
export interface NotCheckbox {
  /** 1-based line. */
  line: number;
  /** The character inside the box, e.g. `~`. */
  mark: string;
  /** The trimmed line. */
  text: string;
  span: Span;
}

/**
 * One pass over the source lines: marker lines (outside code and HTML blocks), attached to
 * the nearest item above by line, and the lines the old line rule took for items.
 * `itemLines` are the 1-based checkbox lines of the items, in document order.
 */
export function scanLines(
  source: SourceText,
  codeLineRanges: ReadonlyArray<readonly [number, number]>,
  itemLines: readonly number[],
): LineFacts {
  const { body, lineStarts, lineEnds } = source;
  const inCode = new Uint8Array(lineStarts.length);
  for (const [first, last] of codeLineRanges) inCode.fill(1, first, last + 1);

  const facts: LineFacts = { markers: [], legacyItemLines: [], notCheckboxes: [] };
  let above = -1; // position in itemLines of the nearest item above the current line
  let scenario: { marker: PlacedMarker; indent: number } | null = null; // a @scenario line that may wrap
  const isItemLine = new Set(itemLines);
  for (let line = 0; line < lineStarts.length; line++) {
    const { start, end } = trimmedRange(body, lineStarts[line] as number, lineEnds[line] as number);
    if (isLegacyItemLine(body, start, end)) facts.legacyItemLines.push(line + 1);
    if (inCode[line]) {
      scenario = null;
      continue;
    }
    // A wrapped @scenario: the deeper-indented lines below it are the rest of its text.
    const indent = start - (lineStarts[line] as number);
    const wraps =
      scenario !== null &&
      !isItemLine.has(line + 1) &&
      !LIST_ITEM.test(body.slice(start, Math.min(end, start + 12))) &&
      !isMarkerLine(body, start, end) &&
      scenarioContinues(scenario.indent, indent, start === end);
    if (scenario && wraps) {
      scenario.marker.text = `${scenario.marker.text} ${body.slice(start, end)}`;
      scenario.marker.span = { ...scenario.marker.span, endLine: line + 1, endColumn: end - (lineStarts[line] as number) + 1 };
      continue;
    }
    scenario = null;
    const box = NOT_A_CHECKBOX.exec(body.slice(start, Math.min(end, start + 16)));
    if (box) {
      facts.notCheckboxes.push({ line: line + 1, mark: box[1] as string, text: body.slice(start, end), span: spanOf(source, start, end) });
    }
    if (!isMarkerLine(body, start, end)) continue;
    while (above + 1 < itemLines.length && (itemLines[above + 1] as number) < line + 1) above++;
    const text = body.slice(start, end);
    const marker: PlacedMarker = {
      name: markerName(text),
      text,
      span: spanOf(source, start, end),
      item: above >= 0 ? above + 1 : null,
    };
    facts.markers.push(marker);
    if (isScenarioLine(text)) scenario = { marker, indent };
  }
  return facts;
}

// The start of a list item: a bullet or an ordered marker, then a blank or the line end.
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])(?:\s|$)/;

// A list marker, then a one-character box that GFM does not take for a checkbox.
const NOT_A_CHECKBOX = /^(?:[-*+]|\d{1,9}[.)]) \[([^ xX\]\\])\](?:\s|$)/;

// The old engine's rule, /^\s*- \[[ xX]\]/, checked on the trimmed line without a regex.
function isLegacyItemLine(body: string, start: number, end: number): boolean {
  if (end - start < 5 || body[start] !== '-' || body[start + 1] !== ' ' || body[start + 2] !== '[') return false;
  const check = body[start + 3];
  return (check === ' ' || check === 'x' || check === 'X') && body[start + 4] === ']';
}

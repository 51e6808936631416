import type { PlanIR, PlanItem, Span, StrayMarker } from '../schema.js';
import { CHUNK_LIMITS, type ChunkLimits } from './chunks.js';
import { readItemLine } from './item-line.js';
import { scanLines, type NotCheckbox, type PlacedMarker } from './line-scan.js';
import { readMarkdown, type MarkdownFacts } from './markdown.js';
import { readMarker } from './marker-lines.js';
import { MAX_NESTING, tooDeepLine, type TooDeep } from './nesting.js';
import { referencedIndex, type AnchorTable } from './references.js';
import { plainMarkdownFacts } from './plain.js';
import { lineIndexAt, readSource, spanOf, type SourceText } from './source.js';
import { toolCommand } from './tool-command.js';

export { CHUNK_LIMITS, WHOLE_DOCUMENT, type ChunkLimits } from './chunks.js';
export type { NotCheckbox } from './line-scan.js';
export { MAX_NESTING, tooDeepMessage, type TooDeep } from './nesting.js';

/**
 * The Plan IR plus facts only the compiler's checks read. `notCheckboxes` (lines such as
 * `- [~] skipped`, which are not items) is present only when there are some, so the IR of
 * an ordinary plan is exactly a PlanIR. `tooDeep` is there when a line nests past
 * MAX_NESTING (nesting.ts): such a plan is not parsed at all, so it has no items, and the
 * graph phase reports `nesting-too-deep` at `span`.
 */
export type ParsedPlan = PlanIR & { notCheckboxes?: NotCheckbox[]; tooDeep?: RefusedNesting };

/** Where and how deep a refused plan nests. */
export interface RefusedNesting extends TooDeep {
  limit: number;
  span: Span;
}

/**
 * Parses PLAN.md text into the Plan IR. Pure and total: any string gives an IR, never an
 * exception. Problems are left as facts (strays, depRefs, legacy lines) for the graph phase.
 */
export function parsePlan(text: string, file: string, onProgress?: ParseProgress): ParsedPlan {
  const source = readSource(text);
  // A plain plan (headings, prose, checkbox items and their marker lines) is read line by
  // line (plain.ts); anything else goes through remark.
  const plain = plainMarkdownFacts(source);
  if (plain === null) return refusedForNesting(source, file) ?? planOf(source, file, readMarkdown(source, CHUNK_LIMITS, onProgress));
  onProgress?.(source.body.length, source.body.length);
  return planOf(source, file, plain);
}

/** Told, after each Markdown piece, how many of the body's characters are parsed (for a progress line). */
export type ParseProgress = (parsed: number, total: number) => void;

/**
 * `parsePlan` with the Markdown parse cut into pieces at `limits` (see chunks.ts). For
 * tests: `WHOLE_DOCUMENT` is the one-piece oracle, tiny limits cut at every cut point.
 */
export function parsePlanWith(text: string, file: string, limits: ChunkLimits, onProgress?: ParseProgress): ParsedPlan {
  const source = readSource(text);
  return refusedForNesting(source, file) ?? planOf(source, file, readMarkdown(source, limits, onProgress));
}

/**
 * A plan with no items and the line that nests past MAX_NESTING, or null when none does.
 * Checked before remark sees the text, in one linear pass: remark's cost grows faster than
 * the text on deep nesting. A plain plan (plain.ts) nests one level at most.
 */
function refusedForNesting(source: SourceText, file: string): ParsedPlan | null {
  const deep = tooDeepLine(source);
  if (deep === null) return null;
  const at = (source.lineStarts[deep.line - 1] as number) + deep.column - 1;
  return { file, items: [], strays: [], legacyItemLines: [], tooDeep: { ...deep, limit: MAX_NESTING, span: spanOf(source, at, at + 1) } };
}

/** The Plan IR from the text and its Markdown facts. */
function planOf(source: SourceText, file: string, markdown: MarkdownFacts): ParsedPlan {
  // 1. Each item's own first paragraph: text, anchor and leading markers.
  const written = markdown.items.map((item) => ({ item, line: readItemLine(source, item) }));
  const anchors = anchorTable(written.map((w) => w.line.anchor));

  const items: PlanItem[] = written.map(({ item, line }, position) => {
    const index = position + 1;
    const depRefs = line.depRefs.map((ref) => ({ ...ref, index: existingItem(ref.ref, anchors, written.length) }));
    return {
      index,
      id: `i${index}`,
      text: line.text,
      done: item.done,
      kind: line.kind ?? 'work',
      label: line.label,
      command: null,
      anchor: line.anchor,
      depRefs,
      deps: earlierDependencies(depRefs, index),
      routes: [],
      emits: [],
      needs: [],
      scenarios: [],
      writes: [],
      line: lineIndexAt(source, item.checkOffset) + 1,
      span: spanOf(source, item.markerOffset, item.paragraphEnd),
      textSpan: line.textSpan,
      kindSpan: line.kindSpan,
      checkOffset: item.checkOffset + source.bomLength,
    };
  });

  // 2. Marker lines anywhere below an item, outside code; they may name any anchor.
  const lines = scanLines(
    source,
    markdown.codeLineRanges,
    items.map((item) => item.line),
  );
  const strays: StrayMarker[] = [];
  const toolCommands = new Map<number, string>();
  for (const marker of lines.markers) {
    const item = marker.item === null ? undefined : items[marker.item - 1];
    if (!item) strays.push(stray(marker, 'orphan'));
    else attachMarker(item, marker, anchors, strays, toolCommands);
  }

  // 3. Kind is settled only now (a kind line may override the item line), so is the command.
  for (const item of items) {
    if (item.kind === 'tool') {
      item.command = toolCommands.get(item.index) ?? toolCommand(item.text);
    }
  }

  const ir: ParsedPlan = { file, items, strays, legacyItemLines: lines.legacyItemLines };
  if (lines.notCheckboxes.length > 0) ir.notCheckboxes = lines.notCheckboxes;
  return ir;
}

function attachMarker(
  item: PlanItem,
  marker: PlacedMarker,
  anchors: AnchorTable,
  strays: StrayMarker[],
  toolCommands: Map<number, string>,
): void {
  const meaning = readMarker(marker, anchors);
  switch (meaning.type) {
    case 'route':
      item.routes.push(meaning.route);
      break;
    case 'emit':
      item.emits.push(meaning.emit);
      break;
    case 'needs':
      // A key needed twice is needed once: first mention wins (its span is the one reported).
      for (const need of meaning.needs) if (!item.needs.some((known) => known.key === need.key)) item.needs.push(need);
      break;
    case 'scenario':
      item.scenarios.push(meaning.scenario);
      break;
    case 'writes':
      item.writes.push(...meaning.globs);
      break;
    case 'kind':
      // The last kind written wins: a kind line below the item overrides the item line.
      // A kind line without a label keeps the label already written (as the original does).
      item.kind = meaning.kind;
      if (meaning.label !== null) item.label = meaning.label;
      item.kindSpan = meaning.span;
      if (meaning.command !== null) toolCommands.set(item.index, meaning.command);
      else toolCommands.delete(item.index);
      break;
    case 'unknown':
      strays.push(stray(marker, 'unknown'));
      break;
  }
}

function stray(marker: PlacedMarker, reason: StrayMarker['reason']): StrayMarker {
  return { reason, name: marker.name, text: marker.text, span: marker.span, item: marker.item };
}

/** Anchor name -> index of the first item declaring it (duplicates are the graph phase's error). */
function anchorTable(anchors: ReadonlyArray<string | null>): AnchorTable {
  const table = new Map<string, number>();
  anchors.forEach((anchor, position) => {
    if (anchor !== null && !table.has(anchor)) table.set(anchor, position + 1);
  });
  return table;
}

/** The item a dependency reference names, or null when no such item exists. */
function existingItem(ref: string, anchors: AnchorTable, itemCount: number): number | null {
  const index = referencedIndex(ref, anchors);
  return index !== null && index >= 1 && index <= itemCount ? index : null;
}

/** Dependencies that can hold: earlier items only, first-seen order, no repeats. */
function earlierDependencies(depRefs: ReadonlyArray<{ index: number | null }>, index: number): number[] {
  const deps: number[] = [];
  for (const ref of depRefs) {
    if (ref.index !== null && ref.index < index && !deps.includes(ref.index)) deps.push(ref.index);
  }
  return deps;
}

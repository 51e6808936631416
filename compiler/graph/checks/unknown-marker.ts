import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { NODE_KINDS, type StrayMarker } from '../../../runtime/plan/schema.js';
import type { CheckContext } from '../context.js';
import { itemLineKind, markerLineNearMiss } from '../near-miss.js';

const KIND_CHOICES = `@node ${NODE_KINDS.slice(0, -1).join(', ')} or ${NODE_KINDS[NODE_KINDS.length - 1]}`;

/**
 * `unknown-marker`: an `@word` marker line the plan language does not define, or a
 * `@node` kind line whose kind it does not define (the word is known, so say which kind),
 * also when `@node <kind>` starts the item line, where the item silently stays work.
 * A near miss (`@write`) is `did-you-mean`'s, which names the word it was close to.
 */
export function unknownMarkers(ctx: CheckContext): Diagnostic[] {
  return [...markerLines(ctx), ...itemLines(ctx)];
}

function itemLines(ctx: CheckContext): Diagnostic[] {
  return ctx.ir.items.flatMap((item) => {
    const kind = itemLineKind(item);
    if (kind?.type !== 'unknown-node-kind') return [];
    const { line, column } = item.textSpan;
    return [
      diagnostic(
        'unknown-marker',
        ctx.ir.file,
        { line, column, endLine: line, endColumn: column + kind.length },
        `unknown kind "${kind.kind}" in "${item.text.slice(0, kind.length)}" on ${itemName(item.index, item.text)}, so it was read as text and the item runs as work; expected ${KIND_CHOICES}`,
        [item.index],
      ),
    ];
  });
}

function markerLines(ctx: CheckContext): Diagnostic[] {
  return ctx.ir.strays
    .filter((stray) => stray.reason === 'unknown' && !(stray.item !== null && markerLineNearMiss(stray)))
    .map((stray) => {
      const owner = stray.item === null ? undefined : ctx.items.get(stray.item);
      const where = owner ? ` under ${itemName(owner.index, owner.text)}` : '';
      return diagnostic(
        'unknown-marker',
        ctx.ir.file,
        stray.span,
        `${whatIsUnknown(stray)}${where} was ignored; ${expected(stray)}`,
        owner ? [owner.index] : [],
      );
    });
}

function isKindLine(stray: StrayMarker): boolean {
  return stray.name === 'node';
}

function whatIsUnknown(stray: StrayMarker): string {
  if (!isKindLine(stray)) return `unknown marker "@${stray.name}"`;
  const kind = /^@node\s+(\S+)/i.exec(stray.text)?.[1];
  return kind === undefined ? `unknown kind in "${stray.text}"` : `unknown kind "${kind}" in "${stray.text}"`;
}

function expected(stray: StrayMarker): string {
  return isKindLine(stray) ? `expected ${KIND_CHOICES}` : 'expected a known marker';
}

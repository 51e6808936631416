import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { PlanItem, Route, Span } from '../../../runtime/plan/schema.js';
import type { CheckContext } from '../context.js';
import { dependencySlip, itemLineKind, itemLineMarkerWord, markerLineNearMiss, misplacedDependency, routeNearMiss } from '../near-miss.js';

/**
 * `did-you-mean`: a marker written so that it is not read, or a word one slip away from a
 * kind, a marker, or a status word or key the item produces. As written, each one silently
 * changes what runs (a work item instead of a gate, a dependency that is text, an ignored
 * line, a route never taken), so say what was probably meant. References that name no item
 * are `dropped-dependency` and `dangling-edge`, whose hint names the near miss.
 */
export function didYouMean(ctx: CheckContext): Diagnostic[] {
  return [
    ...markerLines(ctx),
    ...ctx.ir.items.flatMap((item) => [...itemLine(ctx, item), ...itemLineMarkers(ctx, item), ...routes(ctx, item)]),
  ];
}

function hint(meant: string): string {
  return `Did you mean "${meant}"?`;
}

function markerLines(ctx: CheckContext): Diagnostic[] {
  return ctx.ir.strays.flatMap((stray) => {
    const miss = markerLineNearMiss(stray);
    const owner = stray.item === null ? undefined : ctx.items.get(stray.item);
    if (!miss || !owner) return [];
    const where = `under ${itemName(owner.index, owner.text)}`;
    if (stray.name === 'node') {
      return [
        diagnostic(
          'did-you-mean',
          ctx.ir.file,
          stray.span,
          `unknown kind "${miss.written}" in "${stray.text}" ${where} was ignored; expected a kind such as "${miss.meant}"`,
          [owner.index],
          hint(`@node ${miss.meant}`),
        ),
      ];
    }
    return [
      diagnostic(
        'did-you-mean',
        ctx.ir.file,
        stray.span,
        `unknown marker "@${miss.written}" ${where} was ignored; expected a known marker such as "@${miss.meant}"`,
        [owner.index],
        hint(`@${miss.meant}`),
      ),
    ];
  });
}

function itemLine(ctx: CheckContext, item: PlanItem): Diagnostic[] {
  const kind = itemLineKind(item);
  if (kind?.type !== 'near-miss') return [];
  return [
    diagnostic(
      'did-you-mean',
      ctx.ir.file,
      textStart(item, kind.length),
      `${itemName(item.index, item.text)} starts with "${item.text.slice(0, kind.length)}", which is not a kind marker, so it runs as a work item; expected a kind such as "${kind.meant}"`,
      [item.index],
      hint(kind.viaNode ? `@node ${kind.meant}` : `@${kind.meant}`),
    ),
  ];
}

/**
 * What the item line was meant to say but does not: a dependency marker misspelt, without
 * its colon or its `)`, or in the middle of the text; a marker-line word on the item line.
 */
function itemLineMarkers(ctx: CheckContext, item: PlanItem): Diagnostic[] {
  const found: Diagnostic[] = [];
  const name = itemName(item.index, item.text);
  const slip = dependencySlip(item, ctx.anchors);
  if (slip) {
    found.push(
      diagnostic(
        'did-you-mean',
        ctx.ir.file,
        textStart(item, slip.length),
        `${name} starts with "${item.text.slice(0, slip.length)}", but ${slip.problem}, so it is text and the item has no such dependency; expected a dependency marker such as "${slip.replacement}"`,
        [item.index],
        hint(slip.replacement),
      ),
    );
  }
  const misplaced = slip ? undefined : misplacedDependency(item, ctx.anchors);
  if (misplaced) {
    found.push(
      diagnostic(
        'did-you-mean',
        ctx.ir.file,
        item.textSpan,
        `${name} has "${misplaced}" after the start of its text, where it is not read, so the item has no such dependency; expected it first on the item line`,
        [item.index],
        `Move it to the start: "- [ ] ${misplaced} ${item.text.replace(misplaced, '').replace(/\s+/g, ' ').trim()}".`,
      ),
    );
  }
  const word = itemLineMarkerWord(item);
  if (word) {
    const written = item.text.slice(0, word.length);
    found.push(
      word.markerLine
        ? diagnostic(
            'did-you-mean',
            ctx.ir.file,
            textStart(item, word.length),
            `${name} starts with "${written}", but @${word.meant} is a marker line and the item line reads only dependencies and kinds, so it is text; expected it on a line of its own below the item`,
            [item.index],
            `Put "@${word.meant} …" on its own line below the item.`,
          )
        : diagnostic(
            'did-you-mean',
            ctx.ir.file,
            textStart(item, word.length),
            `${name} starts with "${written}", which is not a kind marker, so it runs as a work item; expected "@${word.meant}"`,
            [item.index],
            hint(`@${word.meant}`),
          ),
    );
  }
  return found;
}

function routes(ctx: CheckContext, item: PlanItem): Diagnostic[] {
  return item.routes.flatMap((route) => {
    const miss = routeNearMiss(item, route);
    if (!miss) return [];
    const what =
      route.kind === 'status'
        ? `routes on status "${route.when}", which it never produces`
        : `routes on "${route.when}", but it emits no key "${miss.written}"`;
    return [
      diagnostic(
        'did-you-mean',
        ctx.ir.file,
        route.span,
        `${itemName(item.index, item.text)} ${what}, so the route is never taken; expected "${miss.meant}"`,
        [item.index],
        hint(`@on ${correctedCondition(route, miss.meant)} -> ${route.targetText || '…'}`),
      ),
    ];
  });
}

function correctedCondition(route: Route, meant: string): string {
  if (route.kind === 'status') return meant;
  return `${meant}${route.op === '!=' ? '!=' : '='}${route.value ?? ''}`;
}

/**
 * The first `length` characters of the item text. The text joins its lines with one blank,
 * so a finding longer than the first line cannot be placed within it: then the whole text.
 */
function textStart(item: PlanItem, length: number): Span {
  const { line, column } = item.textSpan;
  if (item.textSpan.endLine === line) return { line, column, endLine: line, endColumn: Math.min(item.textSpan.endColumn, column + length) };
  return length <= firstLineLength(item) ? { line, column, endLine: line, endColumn: column + length } : item.textSpan;
}

/** How much of the item text is on its checkbox line, when the text goes on below: up to its first joining blank, at most. */
function firstLineLength(item: PlanItem): number {
  const blank = item.text.indexOf(' ');
  return blank < 0 ? item.text.length : blank;
}

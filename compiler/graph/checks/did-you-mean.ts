import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { PlanItem, Route, Span } from '../../../runtime/plan/schema.js';
import type { CheckContext } from '../context.js';
import { anchorNearMiss, itemLineKind, markerLineNearMiss, NearMisses, routeNearMiss } from '../near-miss.js';

/**
 * `did-you-mean`: a word one slip away from a kind, a marker, an anchor or a status word
 * or key the item produces. As written, each one silently changes what runs (a work item
 * instead of a gate, an ignored line, a route never taken), so say what was probably meant.
 */
export function didYouMean(ctx: CheckContext): Diagnostic[] {
  const anchors = new NearMisses(ctx.ir.items.flatMap((item) => (item.anchor === null ? [] : [item.anchor])));
  return [
    ...markerLines(ctx),
    ...ctx.ir.items.flatMap((item) => [...itemLine(ctx, item), ...routes(ctx, item), ...anchorRefs(ctx, item, anchors)]),
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

function anchorRefs(ctx: CheckContext, item: PlanItem, anchors: NearMisses): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const route of item.routes) {
    const miss = route.target === 0 ? anchorNearMiss(route.targetText, anchors) : undefined;
    if (!miss) continue;
    found.push(
      diagnostic(
        'did-you-mean',
        ctx.ir.file,
        route.span,
        `${itemName(item.index, item.text)} routes "${route.when}" to "#${miss.written}", which names no item; expected an anchor such as "#${miss.meant}"`,
        [item.index],
        hint(`#${miss.meant}`),
      ),
    );
  }
  for (const ref of item.depRefs) {
    const miss = ref.index === null ? anchorNearMiss(ref.ref, anchors) : undefined;
    if (!miss) continue;
    found.push(
      diagnostic(
        'did-you-mean',
        ctx.ir.file,
        ref.span,
        `${itemName(item.index, item.text)} depends on "#${miss.written}", which names no item; expected an anchor such as "#${miss.meant}"`,
        [item.index],
        hint(`#${miss.meant}`),
      ),
    );
  }
  return found;
}

/** The first `length` characters of the item text, on its first line. */
function textStart(item: PlanItem, length: number): Span {
  const { line, column } = item.textSpan;
  const endColumn = item.textSpan.endLine === line ? Math.min(item.textSpan.endColumn, column + length) : column + length;
  return { line, column, endLine: line, endColumn };
}

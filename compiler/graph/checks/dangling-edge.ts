import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { CheckContext } from '../context.js';
import { meantAnchor } from '../near-miss.js';

/** `dangling-edge`: a route whose target is missing, unknown, or not an item. */
export function danglingEdges(ctx: CheckContext): Diagnostic[] {
  const count = ctx.ir.items.length;
  return ctx.ir.items.flatMap((item) =>
    item.routes
      .filter((route) => !ctx.items.has(route.target))
      .map((route) => {
        const target = route.targetText === '' ? 'no target' : `"${route.targetText}"`;
        return diagnostic(
          'dangling-edge',
          ctx.ir.file,
          route.span,
          `${itemName(item.index, item.text)} routes "${route.when}" to ${target}, which is not an item; expected an item number from 1 to ${count} or a known #anchor`,
          [item.index],
          meantAnchor(ctx, route.targetText),
        );
      }),
  );
}

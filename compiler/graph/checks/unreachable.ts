import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { PlanItem } from '../../../runtime/plan/schema.js';
import type { CheckContext } from '../context.js';

/**
 * `unreachable`: an open item the reachability fix-point never reaches, unless a cycle or
 * unmet-need diagnostic already names it (one cause, one error).
 */
export function unreachableItems(ctx: CheckContext): Diagnostic[] {
  return ctx.ir.items
    .filter(
      (item) =>
        !item.done && !ctx.reach.items.has(item.index) && !ctx.onLoop.has(item.index) && !ctx.unmetNeeders.has(item.index),
    )
    .map((item) =>
      diagnostic(
        'unreachable',
        ctx.ir.file,
        item.textSpan,
        `${itemName(item.index, item.text)} can never be dispatched: ${whyBlocked(ctx, item)}; expected every open item to become ready from the done items`,
        [item.index],
      ),
    );
}

/** The first condition of the fix-point the item fails, in the order the runtime checks them. */
function whyBlocked(ctx: CheckContext, item: PlanItem): string {
  const dep = item.deps.find((index) => ctx.items.has(index) && !ctx.reach.items.has(index));
  if (dep !== undefined) return `its dependency item ${dep} is never reached`;
  const need = item.needs.find((n) => !ctx.reach.keys.has(n.key));
  if (need) return `needed key "${need.key}" is emitted only by items that are never reached`;
  const sources = (ctx.graph.inEdges(item.id) ?? [])
    .filter((edge) => edge.v !== item.id && ctx.graph.edge(edge).kind === 'route')
    .map((edge) => ctx.graph.node(edge.v).index)
    .sort((a, b) => a - b);
  return `only routes can dispatch it and none of their sources (item ${sources.join(', item ')}) is ever reached`;
}

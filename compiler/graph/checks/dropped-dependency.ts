import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { DepRef, PlanItem } from '../../../runtime/plan/schema.js';
import type { CheckContext } from '../context.js';
import { meantAnchor } from '../near-miss.js';

/** `dropped-dependency`: a dependency reference the parser had to drop (self, later, unknown, 0). */
export function droppedDependencies(ctx: CheckContext): Diagnostic[] {
  return ctx.ir.items.flatMap((item) =>
    item.depRefs.flatMap((ref) => {
      const problem = whyDropped(ctx, item, ref);
      return problem === null
        ? []
        : [
            diagnostic(
              'dropped-dependency',
              ctx.ir.file,
              ref.span,
              `${itemName(item.index, item.text)} depends on ${problem}, so the dependency was dropped; expected an earlier item`,
              [item.index],
              /^#?\d+$/.test(ref.ref) ? (ctx.items.has(ref.index ?? 0) ? undefined : numbered(ctx.ir.items.length)) : meantAnchor(ctx, ref.ref),
            ),
          ];
    }),
  );
}

function whyDropped(ctx: CheckContext, item: PlanItem, ref: DepRef): string | null {
  const target = ref.index === null ? undefined : ctx.items.get(ref.index);
  if (!target) return ref.ref.startsWith('#') ? `"${ref.ref}", which names no item` : `"${ref.ref}", which is not an item`;
  if (target.index === item.index) return `itself ("${ref.ref}")`;
  if (target.index > item.index) return `"${ref.ref}", the later ${itemName(target.index, target.text)}`;
  return null;
}

/** The hint for a number past the last item: what the numbers are. */
function numbered(count: number): string {
  return `Items are numbered 1 to ${count}, counting every checkbox from the top, done ones too; name an earlier one by number or by its {#anchor}.`;
}

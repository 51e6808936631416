import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { PlanItem } from '../../../runtime/plan/schema.js';
import type { CheckContext } from '../context.js';

/** `duplicate-anchor`: a `{#name}` anchor already used by an earlier item. */
export function duplicateAnchors(ctx: CheckContext): Diagnostic[] {
  const firstWith = new Map<string, PlanItem>();
  const found: Diagnostic[] = [];
  for (const item of ctx.ir.items) {
    if (item.anchor === null) continue;
    const first = firstWith.get(item.anchor);
    if (!first) {
      firstWith.set(item.anchor, item);
      continue;
    }
    found.push(
      diagnostic(
        'duplicate-anchor',
        ctx.ir.file,
        item.textSpan,
        `${itemName(item.index, item.text)} reuses anchor "#${item.anchor}" of ${itemName(first.index, first.text)}; expected each anchor to name one item`,
        [first.index, item.index],
      ),
    );
  }
  return found;
}

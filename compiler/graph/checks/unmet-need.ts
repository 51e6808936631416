import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { CheckContext } from '../context.js';
import { NearMisses } from '../near-miss.js';

/**
 * `unmet-need`: a `@needs` key that no item emits (a `@tool` item emits `exit`). When the
 * key is one slip away from a key some item does emit, the hint names that key.
 */
export function unmetNeeds(ctx: CheckContext): Diagnostic[] {
  const emitted = new NearMisses(ctx.emitters.keys());
  return ctx.ir.items.flatMap((item) =>
    item.needs
      .filter((need) => !ctx.emitters.has(need.key))
      .map((need) => {
        const meant = emitted.closest(need.key);
        return diagnostic(
          'unmet-need',
          ctx.ir.file,
          need.span,
          `${itemName(item.index, item.text)} needs key "${need.key}", which no item emits; expected an item with "@emit ${need.key}"`,
          [item.index],
          meant === undefined ? undefined : `Did you mean "@needs ${meant}"? Item ${ctx.emitters.get(meant)?.[0]} emits "${meant}".`,
        );
      }),
  );
}

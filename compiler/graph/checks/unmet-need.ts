import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { CheckContext } from '../context.js';

/** `unmet-need`: a `@needs` key that no item emits (a `@tool` item emits `exit`). */
export function unmetNeeds(ctx: CheckContext): Diagnostic[] {
  return ctx.ir.items.flatMap((item) =>
    item.needs
      .filter((need) => !ctx.emitters.has(need.key))
      .map((need) =>
        diagnostic(
          'unmet-need',
          ctx.ir.file,
          need.span,
          `${itemName(item.index, item.text)} needs key "${need.key}", which no item emits; expected an item with "@emit ${need.key}"`,
          [item.index],
        ),
      ),
  );
}

import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { CheckContext } from '../context.js';

/** `unknown-marker`: an `@word` marker line the plan language does not define. */
export function unknownMarkers(ctx: CheckContext): Diagnostic[] {
  return ctx.ir.strays
    .filter((stray) => stray.reason === 'unknown')
    .map((stray) => {
      const owner = stray.item === null ? undefined : ctx.items.get(stray.item);
      const where = owner ? ` under ${itemName(owner.index, owner.text)}` : '';
      return diagnostic(
        'unknown-marker',
        ctx.ir.file,
        stray.span,
        `unknown marker "@${stray.name}"${where} was ignored; expected a known marker`,
        owner ? [owner.index] : [],
      );
    });
}

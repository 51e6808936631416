import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { CheckContext } from '../context.js';

/** `orphan-marker`: a marker line before the first item, so it belongs to nothing. */
export function orphanMarkers(ctx: CheckContext): Diagnostic[] {
  return ctx.ir.strays
    .filter((stray) => stray.reason === 'orphan')
    .map((stray) =>
      diagnostic(
        'orphan-marker',
        ctx.ir.file,
        stray.span,
        `marker line "${stray.text}" comes before the first item and was ignored; expected it below the item it belongs to`,
      ),
    );
}

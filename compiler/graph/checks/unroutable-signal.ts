import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { PlanItem, Route } from '../../../runtime/plan/schema.js';
import type { CheckContext } from '../context.js';
import { emittedKeysOf, statusWordsOf } from '../../../runtime/plan/kind-facts.js';

/**
 * `unroutable-signal`: a route on a status word its source never produces, or on a key its
 * source never emits; the runtime would never take it.
 */
export function unroutableSignals(ctx: CheckContext): Diagnostic[] {
  return ctx.ir.items.flatMap((item) =>
    item.routes.flatMap((route) => {
      const problem = route.kind === 'status' ? unknownStatus(item, route) : unknownKey(item, route);
      return problem === null
        ? []
        : [diagnostic('unroutable-signal', ctx.ir.file, route.span, `${itemName(item.index, item.text)} ${problem}`, [item.index])];
    }),
  );
}

function unknownStatus(item: PlanItem, route: Route): string | null {
  const words = statusWordsOf(item);
  // The runtime matches ok / pass / fail in any case (runtime/routing/conditions.ts).
  if (words.includes(route.when.trim().toLowerCase())) return null;
  return `routes on status "${route.when}", which it never produces; expected one of ${words.join(', ')}`;
}

function unknownKey(item: PlanItem, route: Route): string | null {
  const keys = emittedKeysOf(item);
  const key = route.key ?? route.when;
  if (keys.includes(key)) return null;
  const expected = keys.length > 0 ? `expected one of its keys: ${keys.join(', ')}` : 'it emits no keys';
  return `routes on "${route.when}", but it emits no key "${key}"; ${expected}`;
}

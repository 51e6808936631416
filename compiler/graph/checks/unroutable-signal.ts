import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { PlanItem, Route } from '../../../runtime/plan/schema.js';
import type { CheckContext } from '../context.js';
import { emittedKeysOf, statusWordsOf } from '../../../runtime/plan/kind-facts.js';
import { routeNearMiss } from '../near-miss.js';

/**
 * `unroutable-signal`: a route on a status word its source never produces, or on a key its
 * source never emits; the runtime would never take it. A near miss (`failed` for `fail`)
 * is `did-you-mean`'s; a bare word that is one of the item's own keys gets advice of its own.
 */
export function unroutableSignals(ctx: CheckContext): Diagnostic[] {
  return ctx.ir.items.flatMap((item) =>
    item.routes.flatMap((route) => {
      if (routeNearMiss(item, route)) return [];
      const bareKey = route.kind === 'status' ? bareWordKey(item, route) : null;
      if (bareKey !== null) {
        const message = `${itemName(item.index, item.text)} routes on the bare word "${route.when}", which tests its status, not its signal "${bareKey}"; expected a status word (${statusWordsOf(item).join(', ')}) or a signal test such as "${bareKey}=${valueOf(item, bareKey)}"`;
        const hint = `A bare word is a status test; to route on the emitted signal write "@on ${bareKey}=${valueOf(item, bareKey)} -> ${route.targetText || '…'}".`;
        return [diagnostic('unroutable-signal', ctx.ir.file, route.span, message, [item.index], hint)];
      }
      const problem = route.kind === 'status' ? unknownStatus(item, route) : unknownKey(item, route);
      return problem === null
        ? []
        : [diagnostic('unroutable-signal', ctx.ir.file, route.span, `${itemName(item.index, item.text)} ${problem}`, [item.index])];
    }),
  );
}

/** `@emit ready=true` then `@on ready -> 3`: the bare word is one of the item's own keys. */
function bareWordKey(item: PlanItem, route: Route): string | null {
  const word = route.when.trim();
  if (statusWordsOf(item).includes(word.toLowerCase())) return null;
  return emittedKeysOf(item).includes(word) ? word : null;
}

function valueOf(item: PlanItem, key: string): string {
  return item.emits.find((emit) => emit.key === key)?.value ?? 'true';
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

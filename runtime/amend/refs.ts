import type { PlanIR, PlanItem, Route } from '../plan/schema.js';
import type { RouteProposal } from './schema.js';

/**
 * The item index a reference names: `3`, `#3` or `#anchor`. `extra` counts items appended
 * earlier in the same batch (indices after the plan's last item). Null when it names nothing.
 */
export function resolveRef(ir: PlanIR, ref: string, extra = 0): number | null {
  const number = /^#?(\d+)$/.exec(ref);
  if (number) {
    const index = Number(number[1]);
    return index >= 1 && index <= ir.items.length + extra ? index : null;
  }
  const anchor = /^#([a-z][a-z0-9-]*)$/.exec(ref);
  if (anchor) return ir.items.find((item) => item.anchor === anchor[1])?.index ?? null;
  return null;
}

/** The plan item a reference names, if it exists in the plan as parsed. */
export function itemOf(ir: PlanIR, ref: string): PlanItem | null {
  const index = resolveRef(ir, ref);
  return index === null ? null : (ir.items.find((item) => item.index === index) ?? null);
}

/** A condition in comparable form: no spaces, `==` as `=`, status words lower-cased. */
export function normalizeCondition(condition: string): string {
  const compact = condition.replace(/\s+/g, '').replace(/==/g, '=');
  return /[=!]/.test(compact) ? compact : compact.toLowerCase();
}

/**
 * The route a ROUTE proposal re-points: the item's route with that condition. When the
 * item declares the condition more than once, a dangling one (target 0 or missing) is the
 * one a repair means; otherwise the first.
 */
export function routeOf(ir: PlanIR, proposal: RouteProposal): { item: PlanItem; route: Route; position: number } | null {
  const item = itemOf(ir, proposal.item);
  if (!item) return null;
  const wanted = normalizeCondition(proposal.condition);
  const candidates = item.routes
    .map((route, position) => ({ item, route, position }))
    .filter(({ route }) => normalizeCondition(route.when) === wanted);
  const known = new Set(ir.items.map((other) => other.index));
  return candidates.find(({ route }) => !known.has(route.target)) ?? candidates[0] ?? null;
}

import { resolveRef } from '../plan/refs.js';
import type { PlanIR, PlanItem, Route } from '../plan/schema.js';
import type { RouteProposal } from './schema.js';

export { resolveRef };

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

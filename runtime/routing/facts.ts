import type { PlanItem } from '../plan/schema.js';

export { declaredValues, emittedKeysOf, implicitKeysOf } from '../plan/kind-facts.js';

/** True for a status that means success (`pass` is how a judge says ok). */
export function isSuccess(status: string | undefined): boolean {
  const word = status?.toLowerCase();
  return word === 'ok' || word === 'pass';
}

/** True for the failure status. */
export function isFailure(status: string | undefined): boolean {
  return status?.toLowerCase() === 'fail';
}

/** True when the plan declares a graph (routes, signals, needs or a non-work kind); else the wave loop runs. */
export function hasGraph(items: readonly PlanItem[]): boolean {
  return items.some(
    (item) => item.routes.length > 0 || item.emits.length > 0 || item.needs.length > 0 || item.kind !== 'work',
  );
}

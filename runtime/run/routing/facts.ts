import type { PlanItem } from '../../plan/schema.js';

export { declaredValues, emittedKeysOf, implicitKeysOf } from '../../plan/kind-facts.js';

/**
 * Reported signal values as plain strings (numbers and booleans spelt out, anything else
 * dropped), or undefined when none are left: an agent's answer's `signals` or a session's
 * `signals` event. `trim` strips typed strings (the session writes them by hand).
 */
export function signalStrings(raw: unknown, trim = false): Record<string, string> | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value === 'string') out[key] = trim ? value.trim() : value;
    else if (typeof value === 'number' || typeof value === 'boolean') out[key] = String(value);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** True for a status that means success (`pass` is how a judge says ok). */
export function isSuccess(status: string | undefined): boolean {
  const word = status?.toLowerCase();
  return word === 'ok' || word === 'pass';
}

/** True for the failure status. */
export function isFailure(status: string | undefined): boolean {
  return status?.toLowerCase() === 'fail';
}

// Asked at every dispatch of the same items array (the engines replace the array, never
// change it, when work is appended), so answered once per array.
const graphs = new WeakMap<readonly PlanItem[], boolean>();

/** True when the plan declares a graph (routes, signals, needs or a non-work kind); else the wave loop runs. */
export function hasGraph(items: readonly PlanItem[]): boolean {
  let graph = graphs.get(items);
  if (graph === undefined) {
    graph = items.some((item) => item.routes.length > 0 || item.emits.length > 0 || item.needs.length > 0 || item.kind !== 'work');
    graphs.set(items, graph);
  }
  return graph;
}

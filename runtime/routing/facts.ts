import type { NodeKind, PlanItem } from '../plan/schema.js';

// Signal keys a kind emits without an `@emit` line; the compiler's node-facts table agrees.
const IMPLICIT_EMITS: Record<NodeKind, readonly string[]> = {
  work: [],
  gate: [],
  verify: [],
  tool: ['exit'],
  human: [],
  feedback: [],
};

/** Keys this item's kind emits whatever its outcome (`exit` for @tool). */
export function implicitKeysOf(item: PlanItem): readonly string[] {
  return IMPLICIT_EMITS[item.kind];
}

/** Every key the item can put on the channel: its `@emit` keys plus the implicit ones. */
export function emittedKeysOf(item: PlanItem): string[] {
  return [...new Set([...implicitKeysOf(item), ...item.emits.map((emit) => emit.key)])];
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

/** True when the plan declares a graph (routes, signals, needs or a non-work kind); else the wave loop runs. */
export function hasGraph(items: readonly PlanItem[]): boolean {
  return items.some(
    (item) => item.routes.length > 0 || item.emits.length > 0 || item.needs.length > 0 || item.kind !== 'work',
  );
}

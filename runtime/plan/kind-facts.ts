import type { NodeKind, PlanItem } from './schema.js';

/**
 * What each node kind can produce, in one table, so checks ask an item for a fact instead
 * of switching on its kind. Shared by the compiler's checks and the runtime's routeDecision,
 * so both engines and the validator agree on what a node can emit and route on.
 */
interface KindFacts {
  /** Status words a route on this node can test. */
  readonly statuses: readonly string[];
  /** Signal keys the node emits without an `@emit` line. */
  readonly implicitEmits: readonly string[];
  /** Whether the node's text is a command that must not be empty. */
  readonly runsCommand: boolean;
}

const EVERY_NODE = ['ok', 'fail'] as const;
// `pass` is how a judge says ok; routing treats the two alike.
const JUDGE = ['ok', 'fail', 'pass'] as const;

const KIND_FACTS: Record<NodeKind, KindFacts> = {
  work: { statuses: EVERY_NODE, implicitEmits: [], runsCommand: false },
  gate: { statuses: JUDGE, implicitEmits: [], runsCommand: false },
  verify: { statuses: JUDGE, implicitEmits: [], runsCommand: false },
  tool: { statuses: EVERY_NODE, implicitEmits: ['exit'], runsCommand: true },
  human: { statuses: EVERY_NODE, implicitEmits: [], runsCommand: false },
  feedback: { statuses: EVERY_NODE, implicitEmits: [], runsCommand: false },
};

/** The status words a route from this item can test (`ok`, `fail`, and `pass` for judges). */
export function statusWordsOf(item: PlanItem): readonly string[] {
  return KIND_FACTS[item.kind].statuses;
}

/** Keys this item's kind emits whatever its outcome (`exit` for @tool). */
export function implicitKeysOf(item: PlanItem): readonly string[] {
  return KIND_FACTS[item.kind].implicitEmits;
}

/** Every signal key the item emits: its `@emit` keys plus the kind's implicit ones, deduplicated. */
export function emittedKeysOf(item: PlanItem): string[] {
  const keys = new Set<string>(KIND_FACTS[item.kind].implicitEmits);
  for (const emit of item.emits) keys.add(emit.key);
  return [...keys];
}

/**
 * Each `@emit` key of an item with its declared values, in declaration order, duplicates
 * dropped. The first value is the default; a key with several values is a steering choice
 * (the node reports one of them and routes test it).
 */
export function declaredValues(item: { readonly emits: readonly { readonly key: string; readonly value: string }[] }): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const emit of item.emits) {
    const list = values.get(emit.key) ?? [];
    if (!list.includes(emit.value)) list.push(emit.value);
    values.set(emit.key, list);
  }
  return values;
}

/** True when the item's text is a command to run (a `@tool` node). */
export function runsCommand(item: PlanItem): boolean {
  return KIND_FACTS[item.kind].runsCommand;
}

import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { PlanItem } from '../../runtime/plan/schema.js';
import type { ParsedPlan } from '../../runtime/plan/parse/index.js';
import { buildGraph, itemsByIndex, type PlanDag } from './build-graph.js';
import { findLoops, type Loop } from './loops.js';
import { emittedKeysOf } from '../../runtime/plan/kind-facts.js';
import { reachableFrom, type Reach } from './reachability.js';
import { wavesOf } from './waves.js';
import { NearMisses } from './near-miss.js';

/** What every check may ask, computed once per plan. */
export interface CheckContext {
  /** The plan; `notCheckboxes` is there when the parser found any. */
  ir: ParsedPlan;
  graph: PlanDag;
  /** Items by index. */
  items: Map<number, PlanItem>;
  /** Each emitted key and the items that emit it (explicitly or by kind), in plan order. */
  emitters: Map<string, number[]>;
  /** The loops over after + route edges, by first member. */
  loops: Loop[];
  /** Indices of the items on some loop. */
  onLoop: Set<number>;
  /** Indices of the items with a `@needs` key nobody emits. */
  unmetNeeders: Set<number>;
  /** The reachability fix-point from the done items. */
  reach: Reach;
  /** The waves, as item ids. */
  waves: string[][];
  /** Whether items of one wave may run side by side (GUARDRAILS `parallel_items: on`). */
  parallelItems: boolean;
  /** The plan's anchors, for near misses of references that name no item (indexed on first use). */
  anchors: NearMisses;
  /** Each anchor and the first item that declares it. */
  anchorItems: Map<string, number>;
}

/** What the checks know about the brief beyond the plan itself. */
export interface CheckOptions {
  /** GUARDRAILS `parallel_items: on`: items of one wave may run together (default off). */
  parallelItems?: boolean;
}

/** A check: one diagnostic code's rule, from the shared facts to diagnostics. */
export type Check = (ctx: CheckContext) => Diagnostic[];

/** Computes the shared facts of a plan once, for all checks. */
export function checkContext(ir: ParsedPlan, options: CheckOptions = {}): CheckContext {
  const { graph } = buildGraph(ir);
  const emitters = new Map<string, number[]>();
  for (const item of ir.items) {
    for (const key of emittedKeysOf(item)) {
      const list = emitters.get(key);
      if (list) list.push(item.index);
      else emitters.set(key, [item.index]);
    }
  }
  const anchorItems = new Map<string, number>();
  for (const item of ir.items) if (item.anchor !== null && !anchorItems.has(item.anchor)) anchorItems.set(item.anchor, item.index);
  const loops = findLoops(graph);
  const onLoop = new Set(loops.flatMap((loop) => loop.members.map((item) => item.index)));
  const unmetNeeders = new Set(
    ir.items.filter((item) => item.needs.some((need) => !emitters.has(need.key))).map((item) => item.index),
  );
  return {
    ir,
    graph,
    items: itemsByIndex(ir),
    emitters,
    loops,
    onLoop,
    unmetNeeders,
    reach: reachableFrom(ir),
    waves: wavesOf(ir),
    parallelItems: options.parallelItems === true,
    anchors: new NearMisses(anchorItems.keys()),
    anchorItems,
  };
}

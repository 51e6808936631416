import type { PlanItem } from '../../plan/schema.js';
import type { RoutingMemory as RoutingState, TakenRoute } from '../schema.js';
import { routeMatches } from './conditions.js';
import { declaredValues, emittedKeysOf, implicitKeysOf, isSuccess } from './facts.js';

/** How a node finished: its status and the signals it reported (e.g. `exit` for @tool). */
export interface NodeOutcome {
  index: number;
  /** `ok` / `pass` (success), `fail`, or another word a route may test verbatim. */
  status: string;
  /** Reported values for the node's own keys (`exit`, or values for its `@emit` keys). */
  signals?: Readonly<Record<string, string>>;
}

/** Why nothing is left to dispatch. */
export interface Completion {
  /** plan_complete: every item succeeded; routed_complete: the rest can no longer run; deadlock: items wait on each other. */
  reason: 'plan_complete' | 'routed_complete' | 'deadlock';
  /** Open items blocked for good by a failed or dead dependency, or a need nobody can still emit. */
  stranded: number[];
  /** Open route-gated items none of whose routes was taken, and none still can be. */
  routedAround: number[];
  /** Items that finished with a status other than success. */
  failed: number[];
  /** Open items still waiting on something that waits on them (deadlock only). */
  waiting: number[];
}

/** The inputs of one routing step: plain values, no I/O. */
export interface RouteDecisionInput {
  items: readonly PlanItem[];
  routing: RoutingState;
  /** The node that just finished, or null/absent for the first dispatch or a resume. */
  finished?: NodeOutcome | null;
  /**
   * Where an eligible item stands in dispatch order before its index (lower first). A plain
   * checklist passes its wave, so items run wave by wave, plan order inside a wave; waves
   * are a view, never a barrier: an item left open blocks only what depends on it.
   */
  rank?: (index: number) => number;
}

/** What to do next. */
export interface RouteDecision {
  /** Every eligible open item in dispatch order: routed targets (in the order taken), then ascending index. */
  next: number[];
  /** Routes latched by this step, in the order taken. */
  taken: TakenRoute[];
  /** The routing state to persist. */
  routing: RoutingState;
  /** Set when `next` is empty. */
  complete: Completion | null;
}

/**
 * THE routing step both engines call. Records the finished node's outcome and signals,
 * latches every route whose condition holds (fan-out), then lists the eligible open items:
 * all deps done, every `@needs` key on the channel, and (when route-gated) some route into
 * it latched. A checked item with no recorded outcome counts as finished `ok`.
 */
export function routeDecision(input: RouteDecisionInput): RouteDecision {
  const shape = shapeOf(input.items);
  const { items, byIndex } = shape;
  // Copied only when this step records something: an outcome, or a checked item routing has not seen.
  const recording = input.finished != null || items.some((item) => item.done && input.routing.statuses[key(item.index)] === undefined);
  const routing = recording ? cloneRouting(input.routing) : input.routing;
  const taken: TakenRoute[] = [];

  if (input.finished) {
    const item = byIndex.get(input.finished.index);
    if (!item) throw new RangeError(`routeDecision: no item ${input.finished.index} finished`);
    finish(item, input.finished, routing, byIndex, taken);
  }
  for (const item of items) {
    if (item.done && routing.statuses[key(item.index)] === undefined) {
      finish(item, { index: item.index, status: 'ok' }, routing, byIndex, taken);
    }
  }

  const facts = planFacts(shape, routing);
  const eligible = orderOf(shape, input.rank)
    .filter((item) => facts.eligible(item))
    .map((item) => item.index);
  // Routed targets first, each once; a target is asked about directly, not looked up in a
  // set of every eligible item (a checklist of thousands has thousands eligible at once).
  const placed = new Set<number>();
  const routedFirst: number[] = [];
  for (const route of routing.taken) {
    const target = byIndex.get(route.to);
    if (target && !placed.has(route.to) && facts.eligible(target)) {
      routedFirst.push(route.to);
      placed.add(route.to);
    }
  }
  const next = placed.size === 0 ? eligible : [...routedFirst, ...eligible.filter((index) => !placed.has(index))];

  return { next, taken, routing, complete: next.length === 0 ? completion(items, facts) : null };
}

/** The item with `index` in `items` (looked up in the plan's shape, made once per items array), or undefined. */
export function itemAt(items: readonly PlanItem[], index: number): PlanItem | undefined {
  return shapeOf(items).byIndex.get(index);
}

// Item indexes as routing memory's record keys, made once per index (every step asks for thousands).
const KEYS: string[] = [];
function key(index: number): string {
  return (KEYS[index] ??= String(index));
}

/**
 * Records one node's outcome (status, signals, the routes it latches) without asking what
 * is eligible next: the run model's `finished` event. `routeDecision` with `finished` does
 * the same and then lists the next items.
 */
export function recordOutcome(items: readonly PlanItem[], routingState: RoutingState, outcome: NodeOutcome): RoutingState {
  const { byIndex } = shapeOf(items);
  const item = byIndex.get(outcome.index);
  if (!item) throw new RangeError(`recordOutcome: no item ${outcome.index} finished`);
  const routing = cloneRouting(routingState);
  finish(item, outcome, routing, byIndex, []);
  return routing;
}

/**
 * Records items the plan shows done that routing has not seen finish (ticked in PLAN.md
 * before the run, or by the session) as finished `ok`, in one copy: the run model's
 * `ticked` event. Their routes latch and their `@emit` keys are sent, as for any success.
 */
export function recordTicked(items: readonly PlanItem[], routingState: RoutingState, indexes: readonly number[]): RoutingState {
  const { byIndex } = shapeOf(items);
  const routing = cloneRouting(routingState);
  for (const index of indexes) {
    const item = byIndex.get(index);
    if (item && routing.statuses[key(index)] === undefined) finish(item, { index, status: 'ok' }, routing, byIndex, []);
  }
  return routing;
}

/** The items the plan shows done whose finish routing has not recorded, in index order. */
export function unseenTicks(items: readonly PlanItem[], routing: RoutingState): number[] {
  return shapeOf(items).items.filter((item) => item.done && routing.statuses[key(item.index)] === undefined).map((item) => item.index);
}

/** How many items are done: shown done in the plan, or finished with a success this run. */
export function doneCount(items: readonly PlanItem[], routing: RoutingState): number {
  let done = 0;
  for (const item of items) if (item.done || isSuccess(routing.statuses[key(item.index)])) done += 1;
  return done;
}

// A copy to record into. Routing memory is a value: `finish` replaces an item's signal record
// and appends taken routes, never changing one in place, so the records and routes inside
// are shared with the original (copying them at every step was most of a long run's cost).
function cloneRouting(routing: RoutingState): RoutingState {
  return { statuses: { ...routing.statuses }, signals: { ...routing.signals }, channel: { ...routing.channel }, taken: [...routing.taken] };
}

/** Records one outcome and latches its matching routes (never un-latching one). */
function finish(
  item: PlanItem,
  outcome: NodeOutcome,
  routing: RoutingState,
  byIndex: ReadonlyMap<number, PlanItem>,
  taken: TakenRoute[],
): void {
  const reported = outcome.signals ?? {};
  const signals: Record<string, string> = {};
  // @emit keys are sent on success only. A key declared with one value sends it unless a
  // value was reported; a key declared with several is a steering choice: the reported
  // value when it is one of them, else the first declared (so exactly one branch is taken).
  if (isSuccess(outcome.status)) {
    for (const [emitKey, values] of declaredValues(item)) {
      const value = Object.hasOwn(reported, emitKey) ? reported[emitKey]! : undefined;
      signals[emitKey] = value !== undefined && (values.length === 1 || values.includes(value)) ? value : values[0]!;
    }
  }
  // Implicit keys (`exit`) are sent whatever the status, when reported.
  for (const implicit of implicitKeysOf(item)) {
    if (Object.hasOwn(reported, implicit)) signals[implicit] = reported[implicit]!;
  }
  routing.statuses[key(item.index)] = outcome.status;
  routing.signals[key(item.index)] = signals;
  Object.assign(routing.channel, signals);

  item.routes.forEach((route, position) => {
    if (!byIndex.has(route.target)) return; // dangling: the validator names it
    if (routing.taken.some((t) => t.from === item.index && t.route === position)) return;
    if (!routeMatches(route, outcome.status, signals)) return;
    const latched: TakenRoute = { from: item.index, route: position, to: route.target, when: route.when };
    routing.taken.push(latched);
    taken.push(latched);
  });
}

interface PlanFacts {
  closed(index: number): boolean;
  succeeded(index: number): boolean;
  gated(index: number): boolean;
  latched(index: number): boolean;
  eligible(item: PlanItem): boolean;
  /**
   * Open items that can never become eligible, and why. Worked out when first asked: only
   * a step with nothing eligible needs it (completion), and every other step would pay a
   * pass over the whole plan for it.
   */
  dead(): ReadonlyMap<number, 'stranded' | 'routedAround'>;
}

/**
 * What a plan's shape says, whatever has run: items in index order, by index, the sources of
 * each route target and the emitters of each `@needs` key. Computed once per plan (the
 * engines hand the same items array to every dispatch until work is appended), so a routing
 * step never rescans every item per unmet need (docs/architecture.md, the run model).
 */
interface PlanShape {
  items: readonly PlanItem[];
  byIndex: ReadonlyMap<number, PlanItem>;
  sources: ReadonlyMap<number, number[]>;
  emitters: ReadonlyMap<string, number[]>;
  /** The items in dispatch order for a given rank (sorted once per rank, not per step). */
  orders: WeakMap<(index: number) => number, readonly PlanItem[]>;
}

const shapes = new WeakMap<readonly PlanItem[], PlanShape>();

function shapeOf(input: readonly PlanItem[]): PlanShape {
  const cached = shapes.get(input);
  if (cached) return cached;
  const items = [...input].sort((a, b) => a.index - b.index);
  const byIndex = new Map(items.map((item) => [item.index, item]));
  const sources = new Map<number, number[]>();
  const emitters = new Map<string, number[]>();
  for (const item of items) {
    for (const route of item.routes) {
      // A route into itself cannot be what first dispatches a node (same rule as the compiler).
      if (route.target === item.index || !byIndex.has(route.target)) continue;
      sources.set(route.target, [...(sources.get(route.target) ?? []), item.index]);
    }
    for (const emitted of new Set(emittedKeysOf(item))) emitters.set(emitted, [...(emitters.get(emitted) ?? []), item.index]);
  }
  const shape = { items, byIndex, sources, emitters, orders: new WeakMap() };
  shapes.set(input, shape);
  return shape;
}

/** The plan's items by rank, then index (plain index order without a rank), sorted once per rank. */
function orderOf(shape: PlanShape, rank: ((index: number) => number) | undefined): readonly PlanItem[] {
  if (!rank) return shape.items;
  let order = shape.orders.get(rank);
  if (!order) {
    order = [...shape.items].sort((a, b) => rank(a.index) - rank(b.index) || a.index - b.index);
    shape.orders.set(rank, order);
  }
  return order;
}

function planFacts(shape: PlanShape, routing: RoutingState): PlanFacts {
  const { items, byIndex, sources, emitters } = shape;
  const latchedTargets = new Set(routing.taken.map((route) => route.to));
  const status = (index: number) => routing.statuses[key(index)];
  const closed = (index: number) => (byIndex.get(index)?.done ?? false) || status(index) !== undefined;
  const succeeded = (index: number) => (byIndex.get(index)?.done ?? false) || isSuccess(status(index));
  const gated = (index: number) => sources.has(index);
  const latched = (index: number) => latchedTargets.has(index);
  const onChannel = (needKey: string) => Object.hasOwn(routing.channel, needKey);
  // The item at hand is its own `byIndex` entry: `closed` without the lookup.
  const open = (item: PlanItem) => !item.done && status(item.index) === undefined;
  const eligible = (item: PlanItem) =>
    open(item) &&
    item.deps.every(succeeded) &&
    item.needs.every((need) => onChannel(need.key)) &&
    (!gated(item.index) || latched(item.index));

  // Fix-point: an open item is dead once what it waits for can no longer happen.
  let found: Map<number, 'stranded' | 'routedAround'> | undefined;
  const dead = () => {
    if (found) return found;
    const known = new Map<number, 'stranded' | 'routedAround'>();
    const gone = (index: number) => (closed(index) && !succeeded(index)) || known.has(index);
    const spent = (index: number) => closed(index) || known.has(index);
    for (let changed = true; changed; ) {
      changed = false;
      for (const item of items) {
        if (!open(item) || known.has(item.index) || eligible(item)) continue;
        let why: 'stranded' | 'routedAround' | null = null;
        if (gated(item.index) && !latched(item.index) && sources.get(item.index)!.every(spent)) why = 'routedAround';
        else if (item.deps.some(gone)) why = 'stranded';
        else if (item.needs.some((need) => !onChannel(need.key) && (emitters.get(need.key) ?? []).every(spent))) why = 'stranded';
        if (why) {
          known.set(item.index, why);
          changed = true;
        }
      }
    }
    found = known;
    return known;
  };
  return { closed, succeeded, gated, latched, eligible, dead };
}

function completion(items: readonly PlanItem[], facts: PlanFacts): Completion {
  const open = items.filter((item) => !facts.closed(item.index)).map((item) => item.index);
  const failed = items.filter((item) => facts.closed(item.index) && !facts.succeeded(item.index)).map((item) => item.index);
  const dead = facts.dead();
  const stranded = open.filter((index) => dead.get(index) === 'stranded');
  const routedAround = open.filter((index) => dead.get(index) === 'routedAround');
  const waiting = open.filter((index) => !dead.has(index));
  const reason = waiting.length > 0 ? 'deadlock' : open.length === 0 && failed.length === 0 ? 'plan_complete' : 'routed_complete';
  return { reason, stranded, routedAround, failed, waiting };
}

/** What the stage view needs of an item (a PlanItem or an embedded node). */
export interface StagedItem {
  readonly index: number;
  readonly done: boolean;
  readonly deps: readonly number[];
  readonly needs: readonly unknown[];
  readonly routes: readonly { readonly target: number; readonly when: string }[];
}

/** A route into an open item: where from and on what. */
export interface RouteIn {
  from: number;
  when: string;
}

/** A routed plan as it will run: stages in order, the entry items, the route-only targets. */
export interface Stages {
  /** Open item indexes by stage, in plan order inside a stage. */
  stages: number[][];
  /** Open item index -> its stage (1-based). */
  stageOf: Map<number, number>;
  /** Open items the run can dispatch first: dependencies done, no `@needs`, no route into them. */
  entry: number[];
  /** Route-gated open items (they run only when a route into them is taken), with those routes. */
  routeOnly: Map<number, RouteIn[]>;
}

/**
 * The stages of a routed plan: open items layered by their open dependencies AND the
 * routes into them (a route target comes after its source), so a target that only a route
 * reaches reads after what routes to it, unlike a wave (docs/plan-language.md: dependencies only).
 * A route into itself orders nothing; an item on a cycle goes one stage after what it waits
 * on that is placed. For a plan without routes the stages are its waves.
 */
export function stagesOf(items: readonly StagedItem[]): Stages {
  const sorted = [...items].sort((a, b) => a.index - b.index);
  const open = new Map(sorted.filter((item) => !item.done).map((item) => [item.index, item]));
  const before = new Map<number, Set<number>>([...open.keys()].map((index) => [index, new Set<number>()]));
  const routeOnly = new Map<number, RouteIn[]>();
  for (const item of sorted) {
    for (const route of item.routes) {
      if (route.target === item.index || !open.has(route.target)) continue;
      routeOnly.set(route.target, [...(routeOnly.get(route.target) ?? []), { from: item.index, when: route.when }]);
      if (open.has(item.index)) before.get(route.target)!.add(item.index);
    }
  }
  for (const item of open.values()) for (const dep of item.deps) if (open.has(dep) && dep !== item.index) before.get(item.index)!.add(dep);

  const stageOf = new Map<number, number>();
  // Kahn's layering; what a cycle leaves is placed in plan order after what it waits on that is placed.
  let pending = [...open.keys()];
  while (pending.length > 0) {
    const ready = pending.filter((index) => [...before.get(index)!].every((dep) => stageOf.has(dep)));
    const batch = ready.length > 0 ? ready : [pending[0]!];
    const stages = batch.map((index) => 1 + Math.max(0, ...[...before.get(index)!].map((dep) => stageOf.get(dep) ?? 0)));
    batch.forEach((index, i) => stageOf.set(index, stages[i]!));
    const placed = new Set(batch);
    pending = pending.filter((index) => !placed.has(index));
  }
  const stages: number[][] = [];
  for (const index of open.keys()) (stages[stageOf.get(index)! - 1] ??= []).push(index);
  const doneItems = new Set(sorted.filter((item) => item.done).map((item) => item.index));
  const done = (index: number) => doneItems.has(index);
  const entry = [...open.values()]
    .filter((item) => !routeOnly.has(item.index) && item.needs.length === 0 && item.deps.every(done))
    .map((item) => item.index);
  return { stages: stages.filter((stage) => stage !== undefined), stageOf, entry, routeOnly };
}

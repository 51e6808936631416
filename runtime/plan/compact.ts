import type { CompiledPlan, GraphNode } from './compiled.js';
import { COMPILED_PLAN_VERSION } from './kinds.js';

export { COMPILED_PLAN_VERSION };

/**
 * The CompiledPlan as the workflow script embeds it (docs/compile.md): the same plan, but each
 * item leaves out every field at its default (`NODE_DEFAULTS`), its `index` when it is the
 * item's position + 1 and its `id` when it is `i<index>`; a signal route leaves out its
 * `kind` (its key says it tests a signal) and its `when` when that is just
 * `<key><op><value>`. A status route is embedded whole. A plain checklist item is then
 * just `{"text":"…"}`: the 512 KiB script limit holds a plan of thousands of items.
 * Zod-free, so the workflow script bundles it: `expandPlan` is where the run fills the
 * defaults back in, once, when it starts.
 */


/** Every item field with a default, and the default; an embedded item omits a field at its default. */
export const NODE_DEFAULTS = {
  kind: 'work',
  label: null,
  command: null,
  deps: [],
  needs: [],
  emits: [],
  routes: [],
  scenarios: [],
  writes: [],
  done: false,
  effort: 'medium',
  critical: false,
  sensitive: false,
} as const satisfies Partial<GraphNode>;

/** One embedded item: its text, and whichever other fields differ from their defaults. */
export type CompactNode = Pick<GraphNode, 'text'> & Partial<Omit<GraphNode, 'routes'>> & { routes?: CompactRoute[] };

/** The plan as the script embeds it. A full CompiledPlan is one too (nothing left out). */
export type CompactPlan = Omit<CompiledPlan, 'items'> & { items: CompactNode[] };

type Field = keyof typeof NODE_DEFAULTS;
const FIELDS = Object.keys(NODE_DEFAULTS) as Field[];

function isDefault(field: Field, value: unknown): boolean {
  const fallback: unknown = NODE_DEFAULTS[field];
  return Array.isArray(fallback) ? Array.isArray(value) && value.length === 0 : value === fallback;
}

type Route = GraphNode['routes'][number];
/** A route as embedded: a signal route without its `kind`, and without a `when` that only repeats it. */
export type CompactRoute = Omit<Route, 'when' | 'kind'> & Partial<Pick<Route, 'when' | 'kind'>>;

const conditionOf = (route: CompactRoute) => `${route.key}${route.op}${route.value}`;

function compactRoute(route: Route): CompactRoute {
  if (route.kind !== 'signal' || route.key === undefined) return route;
  const { when, kind: _kind, ...rest } = route;
  return when === conditionOf(route) ? rest : { when, ...rest };
}

function expandRoute(route: CompactRoute): Route {
  const { when, kind, ...rest } = route;
  const signal = route.key !== undefined;
  return { when: when ?? conditionOf(route), kind: kind ?? (signal ? 'signal' : 'status'), ...rest } as Route;
}

/** The item without its defaults, keys in the node's own order. `position` is its place in the plan (0-based). */
export function compactNode(node: GraphNode, position: number): CompactNode {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'index' && value === position + 1) continue;
    if (key === 'id' && value === `i${node.index}`) continue;
    if ((FIELDS as string[]).includes(key) && isDefault(key as Field, value)) continue;
    out[key] = key === 'routes' ? node.routes.map(compactRoute) : value;
  }
  return out as CompactNode;
}

/** The item with every default filled back in, in the CompiledPlan's key order. */
export function expandNode(compact: CompactNode, position: number): GraphNode {
  const index = compact.index ?? position + 1;
  const node: Record<string, unknown> = { id: compact.id ?? `i${index}`, index, text: compact.text };
  for (const field of FIELDS) {
    const fallback: unknown = NODE_DEFAULTS[field];
    // A fresh array each time: no two items share one default the run may change.
    node[field] = compact[field] ?? (Array.isArray(fallback) ? [] : fallback);
  }
  if (compact.routes) node.routes = compact.routes.map(expandRoute);
  return node as unknown as GraphNode;
}

/** The plan as embedded: every item compact. */
export function compactPlan(plan: CompiledPlan): CompactPlan {
  return { ...plan, items: plan.items.map(compactNode) };
}

/**
 * The embedded plan as the run reads it: every item whole. Throws on a plan another
 * version of Leopold compiled, whose items this runtime would misread.
 */
export function expandPlan(plan: CompactPlan): CompiledPlan {
  if (plan.version !== COMPILED_PLAN_VERSION) {
    throw new Error(`the embedded plan is CompiledPlan version ${String(plan.version)}, this runtime reads version ${COMPILED_PLAN_VERSION}; run \`leopold compile\` again`);
  }
  return { ...plan, items: plan.items.map(expandNode) };
}

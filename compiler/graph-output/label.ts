import type { NodeKind, PlanItem, Route } from '../../runtime/plan/schema.js';

/** Labels longer than this many characters are clipped: a diagram is an overview. */
const MAX_LABEL = 60;

/** The words a node shows: `N · kind label · text` (plain text; each view escapes it). */
export function nodeLabel(item: PlanItem): string {
  const kind = item.kind === 'work' ? '' : `@${item.kind}${item.label ? ` ${item.label}` : ''} · `;
  const done = item.done ? '✓ ' : '';
  const body = item.kind === 'tool' && item.command ? item.command : item.text;
  return `${done}${item.index} · ${kind}${clip(flatten(body))}`;
}

/** The words a placeholder for a dangling route target shows. */
export function danglingLabel(route: Route): string {
  const target = route.targetText.trim() === '' ? 'no target' : flatten(route.targetText);
  return `missing: ${clip(target)}`;
}

/** A route's edge label: its condition as written. */
export function routeLabel(route: Route): string {
  // Mermaid rejects an empty edge label; an empty condition is still worth seeing.
  return clip(flatten(route.when)) || '(no condition)';
}

/** Newlines and other line-breaking characters would end a statement in both languages. */
function flatten(text: string): string {
  return text.replace(/[\r\n\u0085\u2028\u2029\t]+/g, ' ').trim();
}

function clip(text: string): string {
  const chars = [...text];
  return chars.length > MAX_LABEL ? `${chars.slice(0, MAX_LABEL - 1).join('')}…` : text;
}

/** Route targets that name no item in the plan (drawn as placeholders). */
export function isDangling(route: Route, indexes: ReadonlySet<number>): boolean {
  return route.target < 1 || !indexes.has(route.target);
}

/** Every kind, for views that map kinds to shapes (a Record keeps the maps exhaustive). */
export type ByKind<T> = Record<NodeKind, T>;

import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { PlanItem } from '../../../runtime/plan/schema.js';
import type { CheckContext } from '../context.js';
import { globsOverlap, literalHead } from '../glob-overlap.js';

/**
 * `write-scope-overlap`: two items of one wave whose declared `@writes` globs can match a
 * common path, so they cannot safely run side by side. Items without `@writes` never are.
 */
export function writeScopeOverlaps(ctx: CheckContext): Diagnostic[] {
  const found: Diagnostic[] = [];
  ctx.waves.forEach((wave, level) => {
    const writers = wave.map((id) => ctx.graph.node(id)).filter((item) => item.writes.length > 0);
    for (const [a, b] of candidatePairs(writers)) {
      const overlap = firstOverlap(a, b);
      if (!overlap) continue;
      found.push(
        diagnostic(
          'write-scope-overlap',
          ctx.ir.file,
          b.textSpan,
          `${itemName(a.index, a.text)} (@writes ${overlap[0]}) and ${itemName(b.index, b.text)} (@writes ${overlap[1]}) are both in wave ${level + 1} and their scopes can match the same path; expected disjoint @writes within a wave`,
          [a.index, b.index],
        ),
      );
    }
  });
  return found;
}

/**
 * Pairs worth comparing, in plan order: globs whose first segments are different plain
 * names cannot overlap, so only items sharing a first name, or with a wildcard first
 * segment, are paired. This keeps wide waves of disjoint scopes near linear.
 */
function candidatePairs(writers: PlanItem[]): [PlanItem, PlanItem][] {
  const byHead = new Map<string, PlanItem[]>();
  const anyHead: PlanItem[] = [];
  for (const item of writers) {
    const heads = new Set(item.writes.map(literalHead));
    if (heads.has(null)) anyHead.push(item);
    for (const head of heads) {
      if (head === null) continue;
      const group = byHead.get(head);
      if (group) group.push(item);
      else byHead.set(head, [item]);
    }
  }
  const pairs = new Map<string, [PlanItem, PlanItem]>();
  const add = (x: PlanItem, y: PlanItem): void => {
    if (x.index === y.index) return;
    const [a, b] = x.index < y.index ? [x, y] : [y, x];
    pairs.set(`${a.index}:${b.index}`, [a, b]);
  };
  for (const group of byHead.values()) {
    for (let i = 0; i < group.length; i += 1) for (let j = i + 1; j < group.length; j += 1) add(group[i]!, group[j]!);
  }
  for (const wild of anyHead) for (const other of writers) add(wild, other);
  return [...pairs.values()].sort(([a1, b1], [a2, b2]) => a1.index - a2.index || b1.index - b2.index);
}

/** The first pair of globs, one from each item, that can match a common path. */
function firstOverlap(a: PlanItem, b: PlanItem): [string, string] | null {
  for (const left of a.writes) for (const right of b.writes) if (globsOverlap(left, right)) return [left, right];
  return null;
}

import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { PlanItem } from '../../../runtime/plan/schema.js';
import type { CheckContext } from '../context.js';
import { compileWriteGlob } from '../glob-overlap.js';
import { WriteScopeIndex } from '../write-scope-index.js';

/**
 * `write-scope-overlap`: an item whose declared `@writes` globs can match a path an earlier
 * item of the same wave may also write, so the two cannot safely run side by side. One
 * warning per such item, naming the earliest scope before it that overlaps, which keeps the output
 * linear however many items share a directory. Items without `@writes` never are reported.
 * Only when GUARDRAILS allows items to run in parallel (`parallel_items: on`): run one at a
 * time, as they are by default, two items never write at once, so the warning cannot apply.
 */
export function writeScopeOverlaps(ctx: CheckContext): Diagnostic[] {
  if (!ctx.parallelItems) return [];
  const found: Diagnostic[] = [];
  ctx.waves.forEach((wave, level) => {
    const index = new WriteScopeIndex<PlanItem>();
    for (const id of wave) {
      const item = ctx.graph.node(id);
      const globs = item.writes.map(compileWriteGlob);
      for (const glob of globs) {
        const earlier = index.firstOverlap(glob);
        if (!earlier) continue;
        const first = earlier.owner;
        found.push(
          diagnostic(
            'write-scope-overlap',
            ctx.ir.file,
            item.textSpan,
            `${itemName(first.index, first.text)} (@writes ${earlier.glob.text}) and ${itemName(item.index, item.text)} (@writes ${glob.text}) are both in wave ${level + 1}, which parallel_items runs side by side, and their scopes can match the same path; expected disjoint @writes within a wave`,
            [first.index, item.index],
          ),
        );
        break;
      }
      for (const glob of globs) index.add(item, glob);
    }
  });
  return found;
}

import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { PlanItem, Span } from '../../../runtime/plan/schema.js';
import type { NotCheckbox } from '../../../runtime/plan/parse/index.js';
import type { CheckContext } from '../context.js';

const NUMBER = /^#?0*(\d{1,9})$/;

/**
 * `not-a-checkbox`: `- [~] skipped` is not an item (only `[ ]`, `[x]`, `[X]` are
 * checkboxes), so every item below it is numbered one lower than a reader counting that
 * line expects. Reported where a number in `(after: N)` or `@on … -> N` would name such a
 * line if it were counted: that is where the difference changes what runs. A plan that
 * only uses `[~]` as a note says nothing.
 */
export function notACheckbox(ctx: CheckContext): Diagnostic[] {
  const lines = ctx.ir.notCheckboxes ?? [];
  if (lines.length === 0) return [];
  // Items and non-checkbox lines together, in line order: the numbering a reader may count.
  const counted: Array<{ line: number; box?: NotCheckbox }> = [
    ...ctx.ir.items.map((item) => ({ line: item.line })),
    ...lines.map((box) => ({ line: box.line, box })),
  ].sort((a, b) => a.line - b.line);
  const found: Diagnostic[] = [];
  for (const item of ctx.ir.items) {
    for (const ref of item.depRefs) {
      const box = countedBox(counted, ref.ref);
      if (box) found.push(report(ctx, item, `depends on "${ref.ref}"`, ref.ref, ref.index, box, ref.span));
    }
    for (const route of item.routes) {
      const box = countedBox(counted, route.targetText);
      if (box) found.push(report(ctx, item, `routes "${route.when}" to "${route.targetText}"`, route.targetText, route.target || null, box, route.span));
    }
  }
  return found;
}

function countedBox(counted: ReadonlyArray<{ box?: NotCheckbox }>, ref: string): NotCheckbox | undefined {
  const number = NUMBER.exec(ref);
  return number ? counted[Number(number[1]) - 1]?.box : undefined;
}

function report(
  ctx: CheckContext,
  item: PlanItem,
  what: string,
  ref: string,
  index: number | null,
  box: NotCheckbox,
  span: Span,
): Diagnostic {
  const target = index === null ? undefined : ctx.items.get(index);
  const meaning = target ? `"${ref}" names ${itemName(target.index, target.text)}` : `"${ref}" names no item`;
  return diagnostic(
    'not-a-checkbox',
    ctx.ir.file,
    span,
    `${itemName(item.index, item.text)} ${what}; counting line ${box.line} ("${box.text}") it would be that line, but "[${box.mark}]" is not a checkbox, so that line is not an item, and ${meaning}; expected "[ ]", "[x]" or "[X]" there`,
    [item.index],
  );
}

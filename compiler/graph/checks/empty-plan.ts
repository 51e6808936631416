import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { CheckContext } from '../context.js';

const TOP_OF_FILE = { line: 1, column: 1, endLine: 1, endColumn: 1 };

/** `empty-plan`: a plan without a single task item. */
export function emptyPlan(ctx: CheckContext): Diagnostic[] {
  // A plan refused for its nesting was never read: nesting-too-deep says so instead.
  if (ctx.ir.items.length > 0 || ctx.ir.tooDeep) return [];
  return [
    diagnostic('empty-plan', ctx.ir.file, TOP_OF_FILE, 'found no task items; expected at least one "- [ ]" item'),
  ];
}

import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { tooDeepMessage } from '../../../runtime/plan/parse/index.js';
import type { CheckContext } from '../context.js';

/**
 * `nesting-too-deep`: a line nests lists or block quotes past MAX_NESTING
 * (runtime/plan/parse/nesting.ts). The parser refuses such a plan before the Markdown
 * parser sees it, so it has no items; this is the one error it gets (`empty-plan` stays
 * quiet), at the marker where the limit is passed.
 */
export function nestingTooDeep(ctx: CheckContext): Diagnostic[] {
  const deep = ctx.ir.tooDeep;
  if (!deep) return [];
  return [diagnostic('nesting-too-deep', ctx.ir.file, deep.span, tooDeepMessage(deep.depth, deep.limit))];
}

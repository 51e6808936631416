import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Span } from '../../../runtime/plan/schema.js';
import type { CheckContext } from '../context.js';
import type { Loop } from '../loops.js';

/** `cycle`: one error per strongly connected set (or self-loop) over after + route edges. */
export function cycles(ctx: CheckContext): Diagnostic[] {
  return ctx.loops.map((loop) => {
    const first = loop.members[0]!;
    const path = clipped(loop.path.map((item) => `item ${item.index}`), ' → ');
    const wider =
      loop.members.length > loop.path.length - 1
        ? ` (items ${clipped(loop.members.map((item) => `${item.index}`), ', ')} all lie on loops through each other)`
        : '';
    return diagnostic(
      'cycle',
      ctx.ir.file,
      closingSpan(loop),
      `${itemName(first.index, first.text)} leads back to itself: ${path}${wider}; expected dependencies and routes never to return to an item`,
      loop.members.map((item) => item.index),
    );
  });
}

/**
 * Where to point: the marker of the edge that closes the loop. Dependencies only point
 * backwards, so in a real plan that edge is a route; a hand-built dependency loop points
 * at the dependency reference instead.
 */
function closingSpan(loop: Loop): Span {
  const start = loop.path[0]!;
  if (loop.closing.route) return loop.closing.route.span;
  const from = loop.path[loop.path.length - 2]!;
  return start.depRefs.find((ref) => ref.index === from.index)?.span ?? start.textSpan;
}

// A loop through a long chain would otherwise put every item of it into one message line.
const SHOWN_AT_EACH_END = 6;

/** Joins the parts, eliding the middle of a long list but keeping both ends. */
function clipped(parts: string[], separator: string): string {
  if (parts.length <= 2 * SHOWN_AT_EACH_END + 1) return parts.join(separator);
  const hidden = parts.length - 2 * SHOWN_AT_EACH_END;
  return [...parts.slice(0, SHOWN_AT_EACH_END), `… ${hidden} more …`, ...parts.slice(-SHOWN_AT_EACH_END)].join(separator);
}

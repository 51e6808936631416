import type { Bound } from './bound.js';

/**
 * ROUTE re-points the graph, which only a repair may do: the compile repair (`repair`) or
 * the runtime deadlock repair (`runtime`), never a `@feedback` node, whose job is to add work.
 */
export const repairOnly: Bound = {
  code: 'repair-only',
  check(proposal, { context }) {
    return proposal.verb === 'ROUTE' && context === 'feedback'
      ? 'ROUTE is only allowed in a repair (compile or deadlock), not from a @feedback node'
      : null;
  },
};

import type { Bound } from './bound.js';

/** Nothing is ever deleted from a plan: a deletion would move every later index. */
export const noDelete: Bound = {
  code: 'no-delete',
  check(proposal) {
    return proposal.verb === 'DELETE' ? `"${proposal.word}" would remove plan text; items are never deleted` : null;
  },
};

import { itemOf } from '../refs.js';
import type { Bound } from './bound.js';

/** Done items are history: no re-pointing their routes, no editing them, no (un)ticking anything. */
export const noTouchDone: Bound = {
  code: 'no-touch-done',
  check(proposal, { ir }) {
    if (proposal.verb === 'TICK') {
      return `"${proposal.word}" changes a checkbox; items are ticked by the run when their work is accepted, never by an amendment`;
    }
    const ref = proposal.verb === 'ROUTE' ? proposal.item : proposal.verb === 'EDIT' ? (proposal.rest.split(/\s+/)[0] ?? '') : null;
    const item = ref === null ? null : itemOf(ir, ref);
    return item?.done ? `item ${item.index} is done; done items are not changed` : null;
  },
};

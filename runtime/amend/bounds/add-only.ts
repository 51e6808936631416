import type { Bound } from './bound.js';

/** Existing plan text is never edited; the only changes are ROUTE re-points and ADD appends. */
export const addOnly: Bound = {
  code: 'add-only',
  check(proposal) {
    return proposal.verb === 'EDIT' ? `"${proposal.word}" would edit existing text; only ROUTE and ADD are allowed` : null;
  },
};

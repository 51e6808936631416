import type { Bound } from './bound.js';

const LEADING_MARKER = /^@([A-Za-z]+)/;

/** An ADD appends a plain work item: it may not start with a kind (or any other) marker. */
export const workOnly: Bound = {
  code: 'work-only',
  check(proposal) {
    if (proposal.verb !== 'ADD') return null;
    const marker = LEADING_MARKER.exec(proposal.text);
    return marker ? `ADD text starts with "@${marker[1]}"; an added item is plain work, without a kind marker` : null;
  },
};

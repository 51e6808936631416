import { AMENDMENT_BUDGET } from '../limits.js';
import type { Bound } from './bound.js';

/** At most three plan changes per run, shared by repairs, `@feedback` and runtime repairs. */
export const addBudget: Bound = {
  code: 'add-budget',
  check(_proposal, { used, accepted }) {
    const spent = used + accepted.length;
    return spent >= AMENDMENT_BUDGET
      ? `the run's ${AMENDMENT_BUDGET} plan changes are spent (${used} earlier this run, ${accepted.length} in this batch)`
      : null;
  },
};

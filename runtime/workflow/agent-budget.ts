import type { EmbeddedNode } from './plan.js';
import { MAX_ESCALATIONS, reviewersOf } from './work-item.js';

/** Claude Code's cap on agent() calls in one workflow run (docs/host-contract.md); nested workflow() calls share it. */
export const RUN_AGENT_CAP = 1000;

/**
 * The most agent() calls one dispatch of `node` can make, scribe calls included, so the run
 * can end at an item boundary (`run_budget`) before the host's cap cuts an item off midway.
 * Counted from the code paths of work-item.ts, nodes.ts and fork.ts; a test drives each
 * worst path and checks the count never exceeds this:
 *
 * - a work item's attempt: per review round (maxReviewRounds + 1 of them) an implementer, a
 *   verifier asked twice, and each reviewer asked twice; each escalation it settles is a
 *   persona, a decision, a scribe call and one more implementer; the rescue, when this
 *   dispatch is it, a persona, the rescue answer and a scribe call;
 * - a gate, verify or tool node: its agent asked twice;
 * - a @feedback node: its agent asked twice and the scribe call that applies the changes;
 * - a @human node: a persona, the decision and its scribe call;
 * - every node: the scribe call that records how it ended.
 */
export function worstCaseAgents(node: EmbeddedNode, maxReviewRounds: number, rescue: boolean): number {
  const finish = 1;
  switch (node.kind) {
    case 'work': {
      const round = 1 + 2 + 2 * reviewersOf(node).length;
      const escalations = MAX_ESCALATIONS * (1 + 1 + 1 + 1);
      return (rescue ? 3 : 0) + (maxReviewRounds + 1) * round + escalations + finish;
    }
    case 'gate':
    case 'verify':
    case 'tool':
      return 2 + finish;
    case 'feedback':
      return 2 + 1 + finish;
    case 'human':
      return 3 + finish;
  }
}

import type { EmbeddedNode } from './plan.js';
import { MAX_ESCALATIONS, reviewersOf } from './work-item.js';

/** Claude Code's cap on agent() calls in one workflow run (docs/host-contract.md); nested workflow() calls share it. */
export const RUN_AGENT_CAP = 1000;

/**
 * The most agent() calls one dispatch of `node` can make, scribe calls included, so the run
 * can end at an item boundary (`run_budget`) before the host's cap cuts an item off midway.
 * Counted from the code paths of work-item.ts, nodes.ts and fork.ts; a test drives each
 * worst path and checks the count never exceeds this. An agent that gives no answer costs
 * one scribe call more (the check for an API error, RunContext.noAnswer): one per agent
 * asked on its own, one per review panel.
 *
 * - a work item's attempt: per review round (maxReviewRounds + 1 of them) an implementer, a
 *   verifier asked twice (its first null looked into), and each reviewer asked twice (the
 *   panel's nulls looked into once); in the last round each re-asked reviewer's null is
 *   looked into too, which fails the attempt (its record waits for the item's end, so
 *   this takes the place of the finishing scribe call); each escalation it settles is a persona (its
 *   null looked into), a decision, a scribe call and one more implementer; the rescue, when
 *   this dispatch is it, a persona (its null looked into), the rescue answer and a scribe call;
 * - a gate, verify or tool node: its agent asked twice, each null looked into;
 * - a @feedback node: the same, and the scribe call that applies the changes;
 * - a @human node: a persona (its null looked into), the decision and its scribe call;
 * - every node: the scribe call that records how it ended (a work item: when it ended).
 */
export function worstCaseAgents(node: EmbeddedNode, maxReviewRounds: number, rescue: boolean): number {
  const finish = 1;
  switch (node.kind) {
    case 'work': {
      const reviewers = reviewersOf(node).length;
      const round = 1 + (2 + 1) + (2 * reviewers + 1);
      const escalations = MAX_ESCALATIONS * (1 + 1 + 1 + 1 + 1);
      return (rescue ? 4 : 0) + (maxReviewRounds + 1) * round + Math.max(reviewers, finish) + escalations;
    }
    case 'gate':
    case 'verify':
    case 'tool':
      return 2 + 2 + finish;
    case 'feedback':
      return 2 + 2 + 1 + finish;
    case 'human':
      return 4 + finish;
  }
}

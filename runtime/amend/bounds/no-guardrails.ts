import type { Bound } from './bound.js';

// GUARDRAILS.md and the limits it sets: an amendment must not be a way to raise them.
const GUARDRAIL_WORDS =
  /\bguardrails?\b|\b(?:max_iterations|max_failures|max_no_progress|max_review_rounds|max_context_mb|max_windows|parallel_items|notify_webhook)\b/i;

/** No proposal may touch GUARDRAILS.md or the limits it sets. */
export const noGuardrails: Bound = {
  code: 'no-guardrails',
  check(proposal) {
    const found = GUARDRAIL_WORDS.exec(proposal.raw);
    return found ? `mentions "${found[0]}"; GUARDRAILS.md and its limits are the owner's, never amended` : null;
  },
};

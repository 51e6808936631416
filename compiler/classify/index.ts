import { z } from 'zod';
import { EffortSchema, type Effort } from '../../runtime/plan/compiled.js';
import {
  CRITICAL_PATTERNS,
  HIGH_RISK_CHARTER_PATTERNS,
  MAX_EFFORT_PATTERNS,
  SENSITIVE_PATTERNS,
  TRIVIAL_PATTERNS,
} from './keywords.js';
import { keywordMatcher, wordsOf } from './words.js';

/**
 * Classification (SPEC-PLAN §5): how much effort an item deserves and which reviewers it
 * needs, from its text and the charter. Precedence, documented in docs/classification.md:
 *
 *   critical + a max-effort word -> max
 *   critical                     -> high   (risk beats triviality: "Deploy docs" is high)
 *   trivial                      -> low    (even under a high-risk charter)
 *   high-risk charter            -> high
 *   otherwise                    -> medium
 */

export { EFFORTS, EffortSchema, type Effort } from '../../runtime/plan/compiled.js';

export const ClassificationSchema = z.strictObject({
  effort: EffortSchema,
  /** High-impact work: the review panel adds a does-it-actually-work reviewer. */
  critical: z.boolean(),
  /** Security-touching work: the review panel adds a security reviewer. */
  sensitive: z.boolean(),
});
export type Classification = z.infer<typeof ClassificationSchema>;

const criticalWords = keywordMatcher([...CRITICAL_PATTERNS, ...MAX_EFFORT_PATTERNS]);
const maxEffortWords = keywordMatcher(MAX_EFFORT_PATTERNS);
const trivialWords = keywordMatcher(TRIVIAL_PATTERNS);
const sensitiveWords = keywordMatcher(SENSITIVE_PATTERNS);
const highRiskCharterWords = keywordMatcher(HIGH_RISK_CHARTER_PATTERNS);

/** True when the charter names live users, money or regulated data (keywords.ts). */
export function isHighRiskCharter(charter: string): boolean {
  return highRiskCharterWords(wordsOf(charter)).length > 0;
}

/** Effort, critical and sensitive for one item's text under a charter. */
export function classifyItem(text: string, charter: string): Classification {
  const words = wordsOf(text);
  const critical = criticalWords(words).length > 0;
  const sensitive = sensitiveWords(words).length > 0;
  return { effort: effortOf(words, critical, charter), critical, sensitive };
}

function effortOf(words: readonly string[], critical: boolean, charter: string): Effort {
  if (critical) return maxEffortWords(words).length > 0 ? 'max' : 'high';
  if (trivialWords(words).length > 0) return 'low';
  return isHighRiskCharter(charter) ? 'high' : 'medium';
}

import { z } from 'zod';
import { EffortSchema, type Effort } from '../../runtime/plan/compiled.js';
import { HIGH_RISK_CHARTER_PATTERNS, RISK_CLASSES, TRIVIAL_PATTERNS, type RiskClass, type RiskClassName } from './keywords.js';
import { keywordMatcher, wordsOf } from './words.js';

/**
 * Classification (docs/classification.md): how much effort an item deserves and which reviewers it
 * needs, from the risk classes its text falls into (keywords.ts) and the charter.
 * Precedence, documented in docs/classification.md:
 *
 *   critical + a max-effort class -> max
 *   critical                      -> high   (risk beats triviality: "Deploy docs" is high)
 *   trivial                       -> low    (even under a high-risk charter)
 *   high-risk charter             -> high
 *   otherwise                     -> medium
 */

export { EFFORTS, EffortSchema, type Effort } from '../../runtime/plan/compiled.js';
export { RISK_CLASSES, type RiskClass, type RiskClassName } from './keywords.js';

export const ClassificationSchema = z.strictObject({
  effort: EffortSchema,
  /** High-impact work: the review panel adds a does-it-actually-work reviewer. */
  critical: z.boolean(),
  /** Security-touching work: the review panel adds a security reviewer. */
  sensitive: z.boolean(),
});
export type Classification = z.infer<typeof ClassificationSchema>;

const CLASSES = Object.entries(RISK_CLASSES) as [RiskClassName, RiskClass][];
// One matcher over every class's patterns (each pattern is in one class only), so an item's
// words are scanned once; a matched pattern names its class.
const classOfPattern = new Map(CLASSES.flatMap(([name, risk]) => risk.patterns.map((pattern) => [pattern, name] as const)));
const riskWords = keywordMatcher([...classOfPattern.keys()]);
const trivialWords = keywordMatcher(TRIVIAL_PATTERNS);
const highRiskCharterWords = keywordMatcher(HIGH_RISK_CHARTER_PATTERNS);

/** The risk classes an item's text falls into (docs/classification.md), in catalog order. */
export function riskClassesOf(text: string): RiskClassName[] {
  return riskClassesIn(wordsOf(text));
}

function riskClassesIn(words: readonly string[]): RiskClassName[] {
  const found = new Set(riskWords(words).map((pattern) => classOfPattern.get(pattern)!));
  return CLASSES.map(([name]) => name).filter((name) => found.has(name));
}

/** True when the charter names live users, money or regulated data (keywords.ts). */
export function isHighRiskCharter(charter: string): boolean {
  return highRiskCharterWords(wordsOf(charter)).length > 0;
}

/** Effort, critical and sensitive for one item's text under a charter: what its risk classes add up to. */
export function classifyItem(text: string, charter: string): Classification {
  const words = wordsOf(text);
  const risks = riskClassesIn(words).map((name) => RISK_CLASSES[name] as RiskClass);
  const critical = risks.some((risk) => risk.critical);
  const sensitive = risks.some((risk) => risk.sensitive);
  const maxEffort = risks.some((risk) => risk.maxEffort);
  return { effort: effortOf(words, critical, maxEffort, charter), critical, sensitive };
}

function effortOf(words: readonly string[], critical: boolean, maxEffort: boolean, charter: string): Effort {
  if (critical) return maxEffort ? 'max' : 'high';
  if (trivialWords(words).length > 0) return 'low';
  return isHighRiskCharter(charter) ? 'high' : 'medium';
}

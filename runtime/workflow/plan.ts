/**
 * The embedded plan as the workflow loop reads it: a structural view of the compiler's
 * CompiledPlan (compiler/emit/schema.ts). runtime/ never imports compiler/ (DESIGN.md), so
 * the fields the loop uses are restated here; a test assigns a CompiledPlan to this type,
 * so the two cannot drift apart unnoticed.
 */

export type Effort = 'low' | 'medium' | 'high' | 'max';

/** One open item of the wave loop. */
export interface EmbeddedItem {
  id: string;
  index: number;
  text: string;
  scenarios: string[];
  effort: Effort;
  critical: boolean;
  sensitive: boolean;
  writes: string[];
}

export interface EmbeddedPlan {
  version: number;
  source: { plan: string; sha256: string };
  mission: string;
  charter: string;
  charterRules: string[];
  maxReviewRounds: number;
  autonomy: 'full' | 'ask';
  limits: { maxIterations: number; maxFailures: number };
  waves: EmbeddedItem[][];
  /** Present when the plan declares a graph; the minimal loop still runs the waves. */
  graph?: unknown;
}

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

export type NodeKind = 'work' | 'gate' | 'verify' | 'tool' | 'human' | 'feedback';

/** One route as embedded (compiler/emit GraphRouteSchema). */
export interface EmbeddedRoute {
  when: string;
  kind: 'status' | 'signal';
  key?: string | undefined;
  op?: '=' | '!=' | undefined;
  value?: string | undefined;
  target: number;
}

/** One node of the routed loop (compiler/emit GraphNodeSchema): every item, done ones too. */
export interface EmbeddedNode extends EmbeddedItem {
  kind: NodeKind;
  label: string | null;
  command: string | null;
  deps: number[];
  needs: string[];
  emits: { key: string; value: string }[];
  routes: EmbeddedRoute[];
  done: boolean;
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
  /** Present when the plan declares a graph: then the routed loop runs. */
  graph?: { nodes: EmbeddedNode[] } | undefined;
}

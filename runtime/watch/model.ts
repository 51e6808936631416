import type { RunState } from '../run/index.js';

/**
 * runtime/watch: what `leopold run status --watch` shows of a run, from the run's own files
 * (state.json, events.jsonl, PLAN.md, DECISIONS.md). The fold and the rendering are pure;
 * reading only what changed is watch/files.ts's job.
 */

/** What the event log says about the current run, folded line by line as it grows. */
export interface EventFacts {
  /** The last `turn` event: the item handed out, and the iteration it was. */
  current: { item: number; iteration: number } | null;
  /** How many times each item was handed out (its attempts). */
  attempts: Record<number, number>;
  /** The highest iteration any event of the run names (a workflow run writes no state.json). */
  iteration: number;
  /**
   * Subagents started for the run's items, as the subagent cap counts them (GUARDRAILS
   * `max_subagents`): a session's `subagent` events (one per Task/Agent call the guard let
   * through), a workflow's journaled `subagents` run events (their `count`), and a numeric
   * `agents` field elsewhere; null while none does.
   */
  agents: number | null;
  /** Tokens spent, where events say (numeric `tokens` fields); null while none does. */
  tokens: number | null;
  /** The `stop` event, once one came. */
  stop: { reason: string; detail: string } | null;
  /** Failures reported (`failure` events). */
  failures: number;
}

/** Before the run's first event. */
export function noEventFacts(): EventFacts {
  return { current: null, attempts: {}, iteration: 0, agents: null, tokens: null, stop: null, failures: 0 };
}

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/** `facts` with one more logged event. A `start` event begins a new run: everything before it is forgotten. Pure. */
export function foldEvent(facts: EventFacts, event: Record<string, unknown>): EventFacts {
  if (event.event === 'start') return noEventFacts();
  const next: EventFacts = { ...facts };
  const iteration = count(event.iteration);
  if (iteration !== null) next.iteration = Math.max(next.iteration, iteration);
  const item = count(event.item);
  if (event.event === 'turn' && item !== null && Number.isInteger(item) && item >= 1) {
    next.current = { item, iteration: iteration ?? next.iteration };
    next.attempts = { ...next.attempts, [item]: (next.attempts[item] ?? 0) + 1 };
  }
  if (event.event === 'failure') next.failures += 1;
  const journaled = event.event === 'run' && event.run !== null && typeof event.run === 'object' ? (event.run as Record<string, unknown>) : null;
  const agents = event.event === 'subagent' ? 1 : journaled?.type === 'subagents' ? count(journaled.count) : count(event.agents);
  if (agents !== null) next.agents = (next.agents ?? 0) + agents;
  const tokens = count(event.tokens);
  if (tokens !== null) next.tokens = (next.tokens ?? 0) + tokens;
  if (event.event === 'stop' && typeof event.reason === 'string') next.stop = { reason: event.reason, detail: typeof event.detail === 'string' ? event.detail : '' };
  return next;
}

/** One plan item as the view needs it. */
export interface ViewItem {
  index: number;
  text: string;
  done: boolean;
}

/** Everything one frame shows. */
export interface WatchView {
  /** null: no state.json (or an unreadable one: `problem`). */
  state: RunState | null;
  problem: string | null;
  items: readonly ViewItem[] | null;
  events: EventFacts;
  /** The run's decisions, in file order (number and title). */
  decisions: readonly { n: number; title: string }[];
  /** GUARDRAILS' max_iterations, to say "of at most N". */
  maxIterations: number;
}

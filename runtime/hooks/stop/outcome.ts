import type { PlanItem } from '../../plan/schema.js';
import type { NodeOutcome } from '../../routing/decide.js';

/** One line of `.leopold/events.jsonl` as the hook reads it. */
export type LoggedEvent = Record<string, unknown> & { event?: unknown; item?: unknown };

/** What the session reported about the item it was handed. */
export interface Reported {
  /** The node finished (routing records it and its routes latch), or null: still open. */
  finished: NodeOutcome | null;
  /** Failed attempts, by kind, in order (each charges the failure streak). */
  failures: string[];
  /** A work item was accepted: the failure streak ends. */
  succeeded: boolean;
  /** The session reported a fork it could not settle (an `escalation` event): the run stops with `escalation`. */
  escalated: boolean;
  /** What the escalation said could not be settled, when it said. */
  question: string | null;
}

const numberOf = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN);

/**
 * Reads the outcome of one dispatched item from PLAN.md (its checkbox) and the events the
 * session recorded since the dispatch, in the vocabulary the workflow's scribe writes:
 * `failure` (kind), `item-open`, `gate` / `verify` (verdict), `tool` (exit), and
 * `escalation` (a fork the session could not settle: the item stays open). A ticked
 * checkbox is acceptance; nothing reported means the item is still open (same item again).
 */
export function reportedOutcome(item: PlanItem, events: readonly LoggedEvent[]): Reported {
  const mine = events.filter((e) => numberOf(e.item) === item.index);
  const named = (name: string) => mine.filter((e) => e.event === name);
  const failures = item.kind === 'work' ? named('failure').map((e) => (typeof e.kind === 'string' && e.kind.trim() !== '' ? e.kind.trim() : 'implementer')) : [];
  // A fork nobody could settle outweighs anything else the turn reported, a tick included.
  const escalation = named('escalation').at(-1);
  const escalated = escalation !== undefined;
  const question = typeof escalation?.question === 'string' && escalation.question.trim() !== '' ? escalation.question.trim() : null;
  const open = { finished: null, failures, succeeded: false, escalated, question };
  if (escalated) return open;
  switch (item.kind) {
    case 'work':
      if (item.done) return { ...open, finished: { index: item.index, status: 'ok' }, succeeded: true };
      if (named('item-open').length > 0) return { ...open, finished: { index: item.index, status: 'fail' } };
      return open;
    case 'gate':
    case 'verify': {
      const verdict = [...named('gate'), ...named('verify')].at(-1)?.verdict;
      if (verdict === 'pass' || verdict === 'fail') return { ...open, finished: { index: item.index, status: verdict } };
      return item.done ? { ...open, finished: { index: item.index, status: 'pass' } } : open;
    }
    case 'tool': {
      const exit = numberOf(named('tool').at(-1)?.exit);
      if (Number.isInteger(exit)) return { ...open, finished: { index: item.index, status: exit === 0 ? 'ok' : 'fail', signals: { exit: String(exit) } } };
      return item.done ? { ...open, finished: { index: item.index, status: 'ok', signals: { exit: '0' } } } : open;
    }
    case 'human':
    case 'feedback':
      return item.done ? { ...open, finished: { index: item.index, status: 'ok' } } : open;
  }
}

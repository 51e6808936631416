import type { PlanItem } from '../plan/schema.js';
import { initialModel, reduce, type RunEvent } from './model.js';
import type { RunModel } from './schema.js';

/**
 * A run's journal: every run-model event an engine folded in, logged in `.leopold/events.jsonl`
 * as `{"event":"run","run":<RunEvent>}` (the workflow's scribe writes them with its batches;
 * the script has no file system, so they are how far a workflow run got). Folding them with
 * the one reducer rebuilds the run model: `leopold run status` and `run finish` read a
 * workflow run's counters from it, and `leopold run continue` hands the model to the next
 * launch of a run whose client died.
 */

/** One line of `.leopold/events.jsonl`, as read back. */
export type LoggedEvent = Record<string, unknown> & { event?: unknown };

const TYPES = new Set<RunEvent['type']>(['dispatched', 'rescue-granted', 'failed', 'succeeded', 'finished', 'ticked', 'escalated', 'needs-person', 'no-approach', 'amended', 'repair-tried', 'subagents', 'subagent-cap', 'final-review', 'final-blocked']);
const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;

/** The run event a journal line holds, or null when it holds none (another event, or a malformed one). */
export function runEventOf(line: LoggedEvent): RunEvent | null {
  if (line.event !== 'run' || line.run === null || typeof line.run !== 'object') return null;
  const event = line.run as Record<string, unknown>;
  if (!TYPES.has(event.type as RunEvent['type'])) return null;
  switch (event.type) {
    case 'dispatched':
    case 'rescue-granted':
    case 'succeeded':
    case 'no-approach':
    case 'failed':
    case 'escalated':
    case 'needs-person':
      return isIndex(event.item) ? (event as unknown as RunEvent) : null;
    case 'finished': {
      const outcome = event.outcome as Record<string, unknown> | undefined;
      return outcome && isIndex(outcome.index) && typeof outcome.status === 'string' ? (event as unknown as RunEvent) : null;
    }
    case 'ticked':
    case 'repair-tried':
      return Array.isArray(event.items ?? event.waiting) ? (event as unknown as RunEvent) : null;
    case 'amended':
      return typeof event.count === 'number' ? (event as unknown as RunEvent) : null;
    case 'subagents':
      return (event.item === null || isIndex(event.item)) && typeof event.count === 'number' && Number.isInteger(event.count) && event.count >= 0 ? (event as unknown as RunEvent) : null;
    case 'final-review':
      return event as unknown as RunEvent;
    case 'subagent-cap':
    case 'final-blocked':
      return isIndex(event.item) && typeof event.detail === 'string' ? (event as unknown as RunEvent) : null;
    default:
      return null;
  }
}

/** The journal lines of the current run: those after the last `start` event (`leopold run start`), all when there is none. */
export function eventsOfRun(events: readonly LoggedEvent[]): LoggedEvent[] {
  const start = events.map((e) => e.event).lastIndexOf('start');
  return events.slice(start + 1);
}

/**
 * The run model a run's journal rebuilds: its `run` lines folded in order by the one
 * reducer, over the plan as it is now (items a run appended are in PLAN.md). A line the
 * reducer cannot take (an item the plan no longer has) is skipped: the fold never throws.
 */
export function foldJournal(events: readonly LoggedEvent[], items: readonly PlanItem[]): RunModel {
  let model = initialModel();
  for (const line of events) {
    const event = runEventOf(line);
    if (event === null) continue;
    try {
      model = reduce(model, event, items);
    } catch {
      // an event about an item PLAN.md no longer holds: nothing to fold
    }
  }
  return model;
}

/**
 * The last `stop` event of a run's journal: the condition the engine stopped at, its
 * one-line why, and for an `api_error` stop the error it names.
 */
export function stopOf(events: readonly LoggedEvent[]): { reason: string; detail: string; error?: string } | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.event === 'stop' && typeof e.reason === 'string') return { reason: e.reason, detail: typeof e.detail === 'string' ? e.detail : '', ...(typeof e.error === 'string' ? { error: e.error } : {}) };
  }
  return null;
}

/** One line of `.leopold/events.jsonl`, as read back. */
export type LoggedEvent = Record<string, unknown> & { event?: unknown };

/** What a workflow run's own events say about it: the counters the script could not write to state.json. */
export interface WorkflowCounters {
  /** Dispatches over every workflow run since the run started (each script counts from 0). */
  iteration: number;
  /** Failures by kind. */
  failures: Record<string, number>;
  /** The one rescue was bought. */
  rescueUsed: boolean;
  /** The last `stop` event: the condition that ended the script, and its one-line why. */
  stop: { reason: string; detail: string } | null;
}

const numeric = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Folds a workflow run's events (those logged since `leopold run start`) into its counters.
 * The script has no file system: its scribe records `workflow-start`, `failure`, `rescue`,
 * `item-done` and `stop` events, and these are the only record of how far it got. Each
 * `workflow-start` opens a script run whose dispatches count from 0 (a continuing one,
 * marked `continued`, counts on from the run it continues); the iterations are the
 * highest `iteration` each of them logged, summed. Pure.
 */
export function workflowCounters(events: readonly LoggedEvent[]): WorkflowCounters {
  const failures: Record<string, number> = {};
  let iteration = 0;
  let segment = 0;
  let rescueUsed = false;
  let stop: WorkflowCounters['stop'] = null;
  for (const e of events) {
    if (e.event === 'workflow-start') {
      // A continuing launch (after `run_budget`) counts on from the iteration it carried.
      if (numeric(e.continued) === null) {
        iteration += segment;
        segment = 0;
      }
      continue;
    }
    segment = Math.max(segment, numeric(e.iteration) ?? 0);
    if (e.event === 'failure') {
      const kind = typeof e.kind === 'string' && e.kind.trim() !== '' ? e.kind.trim() : 'unknown';
      failures[kind] = (failures[kind] ?? 0) + 1;
    } else if (e.event === 'rescue') {
      rescueUsed = true;
    } else if (e.event === 'stop' && typeof e.reason === 'string') {
      stop = { reason: e.reason, detail: typeof e.detail === 'string' ? e.detail : '' };
    }
  }
  return { iteration: iteration + segment, failures, rescueUsed, stop };
}

/** The events of the current run: those after the last `start` event (`leopold run start`), all when there is none. */
export function eventsOfRun(events: readonly LoggedEvent[]): LoggedEvent[] {
  const start = events.map((e) => e.event).lastIndexOf('start');
  return events.slice(start + 1);
}

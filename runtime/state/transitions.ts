import { emptyState, type Engine, type RunState } from './schema.js';

/** A new active run: every counter, the rescue, the add budget and routing zeroed. */
export function startedState(engine: Engine, now: Date): RunState {
  return { ...emptyState(), active: true, engine, started_at: now.toISOString() };
}

/** The run ended: inactive, stamped, with the stop condition (kept if one was already set). */
export function finishedState(state: RunState, now: Date, reason: string | null): RunState {
  return { ...state, active: false, finished_at: now.toISOString(), stop_reason: state.stop_reason ?? reason };
}

/**
 * One more turn. `doneCount` is how many plan items are done now; a turn that did not
 * change it counts toward `no_progress`, a turn that did resets it.
 */
export function turnTaken(state: RunState, doneCount: number): RunState {
  const progressed = doneCount !== state.last_done;
  return {
    ...state,
    iteration: state.iteration + 1,
    no_progress: progressed ? 0 : state.no_progress + 1,
    last_done: doneCount,
  };
}

/** A failure of `kind`: counted for the run, and the streak grows (or restarts on a new kind). */
export function failureRecorded(state: RunState, kind: string): RunState {
  const streak = state.consecutive_failures;
  return {
    ...state,
    failures: { ...state.failures, [kind]: (state.failures[kind] ?? 0) + 1 },
    consecutive_failures: { kind, count: streak.kind === kind ? streak.count + 1 : 1 },
  };
}

/** A success ends any failure streak (and with it a granted rescue's hold). */
export function successRecorded(state: RunState): RunState {
  return { ...state, consecutive_failures: { kind: null, count: 0 }, rescue_for: null };
}

/** A context window closed; `closedItems` is how many items it finished. */
export function windowClosed(state: RunState, closedItems: number): RunState {
  return {
    ...state,
    windows: state.windows + 1,
    windows_without_progress: closedItems > 0 ? 0 : state.windows_without_progress + 1,
  };
}

import type { RunState } from './schema.js';

/** The run ended: inactive, stamped, with the stop condition (kept if one was already set). */
export function finishedState(state: RunState, now: Date, reason: string | null): RunState {
  return { ...state, active: false, finished_at: now.toISOString(), stop_reason: state.stop_reason ?? reason };
}

/** A context window closed; `closedItems` is how many items it finished. */
export function windowClosed(state: RunState, closedItems: number): RunState {
  return {
    ...state,
    windows: state.windows + 1,
    windows_without_progress: closedItems > 0 ? 0 : state.windows_without_progress + 1,
  };
}

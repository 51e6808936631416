import type { RunModel } from './schema.js';

/** What to do about the current failure streak. */
export type RescueVerdict = 'continue' | 'rescue' | 'stop';

/** The inputs of the rescue rule. */
export interface RescueInput {
  state: Pick<RunModel, 'consecutive_failures' | 'rescue_used' | 'rescue_for'>;
  /** GUARDRAILS max_failures (consecutive failures of one kind allowed). */
  maxFailures: number;
  /** Under `ask` rescues are off: the ceiling stops the run. */
  autonomy: 'full' | 'ask';
}

/**
 * The once-per-run rescue rule. Below the ceiling: continue. On the last allowed failure:
 * `rescue` when the run's one rescue is unused (under full), else `stop`
 * (repeated_failure). While a granted rescue's attempt is pending, continue; when that
 * attempt fails too, stop.
 */
export function rescueVerdict({ state, maxFailures, autonomy }: RescueInput): RescueVerdict {
  const streak = state.consecutive_failures;
  if (streak.kind === null || streak.count < maxFailures) return 'continue';
  const grant = state.rescue_for;
  if (grant && grant.kind === streak.kind && streak.count === grant.failures) return 'continue';
  if (state.rescue_used || autonomy === 'ask') return 'stop';
  return 'rescue';
}

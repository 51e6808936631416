import { LeopoldError } from '../diagnostics/error.js';
import { PLAN_LOCK_TIMEOUT_MS, rewritePlan as rewritePlanFile, type LockedPlan } from '../../runtime/plan/plan-file.js';

export type { LockedPlan };

/**
 * The one PLAN.md writer (runtime/plan/plan-file.ts), for the commands: the same, with a
 * lock that was never released said as a user-facing condition (someone holds it), not a bug.
 */
export async function rewritePlan<T>(planPath: string, edit: (plan: LockedPlan) => T | Promise<T>): Promise<T> {
  try {
    return await rewritePlanFile(planPath, edit);
  } catch (error) {
    if (error instanceof Error && !(error instanceof LeopoldError) && error.message.startsWith(`timed out after ${PLAN_LOCK_TIMEOUT_MS} ms waiting for the lock`)) {
      throw new LeopoldError(`${error.message}; another leopold command is changing the plan (remove ${planPath}.lock if no such command is running)`);
    }
    throw error;
  }
}

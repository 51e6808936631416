import { readLockRecord, sandboxAvailability } from '../../../runtime/lock/index.js';
import { fail, pass, warn, type DoctorCheck, type DoctorContext } from '../check.js';

/**
 * Claude Code's Bash sandbox, which holds a run's lock at the operating system's level
 * (runtime/lock/sandbox.ts). Without it only the git guard holds the lock: a warning, or a
 * failure when the armed lock requires the sandbox (`run start --require-sandbox`).
 */
export function checkSandbox(ctx: DoctorContext): DoctorCheck {
  const sandbox = sandboxAvailability(ctx.env);
  if (sandbox.available) return pass('sandbox', `Claude Code's sandbox can run here (${sandbox.via}): a run's lock is held by the operating system`);
  const required = ctx.leopoldDir !== null && readLockRecord(ctx.leopoldDir)?.require_sandbox === true;
  const detail = `Claude Code's sandbox cannot run here: ${sandbox.why}; during a run only the git guard holds the lock`;
  return required ? fail('sandbox', `${detail}, and the armed lock requires the sandbox (Claude Code refuses commands)`, sandbox.fix) : warn('sandbox', detail, sandbox.fix);
}

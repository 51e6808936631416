import { LeopoldError } from '../diagnostics/diagnostic.js';
import { fail, type DoctorCheck, type DoctorContext } from './check.js';
import { checkDuplicates } from './checks/duplicates.js';
import { checkHooks } from './checks/hooks.js';
import { checkNode } from './checks/node.js';
import { checkPackage } from './checks/package.js';
import { checkPlan } from './checks/plan.js';
import { checkRun } from './checks/run.js';
import { checkSandbox } from './checks/sandbox.js';
import { checkSettings } from './checks/settings.js';

export type { DoctorCheck, DoctorContext } from './check.js';

/**
 * `leopold doctor` (docs/doctor.md): each link of the chain from Claude Code to a conducted
 * run, in the order a run needs them: the `node` the hooks run, the registration in the
 * settings, each registered hook started as the client starts it, one of each hook, the
 * project's install, the sandbox, the plan, the run. A check that cannot even look (a file
 * it cannot read) fails with why; a bug is left to throw.
 */
export function runDoctor(ctx: DoctorContext): DoctorCheck[] {
  const checks: [string, (ctx: DoctorContext) => DoctorCheck][] = [
    ['node', checkNode],
    ['settings', checkSettings],
    ['hooks', checkHooks],
    ['duplicates', checkDuplicates],
    ['package', checkPackage],
    ['sandbox', checkSandbox],
    ['plan', checkPlan],
    ['run', checkRun],
  ];
  return checks.map(([id, check]) => {
    try {
      return check(ctx);
    } catch (error) {
      if (error instanceof LeopoldError) return fail(id, error.message, 'fix what the line names, then run npx leopold doctor again');
      throw error;
    }
  });
}

/** The report: one line per check (`pass`, `warn`, `fail`), the detail's further lines and the fix indented under it, then the verdict. */
export function renderDoctor(root: string, checks: readonly DoctorCheck[]): string {
  const lines = [`Leopold doctor: ${root}`];
  for (const check of checks) {
    const [first, ...rest] = check.detail.split('\n');
    lines.push(`${check.status.padEnd(5)} ${check.id.padEnd(11)}${first}`);
    for (const line of rest) lines.push(`${' '.repeat(17)}${line}`);
    if (check.fix && check.status !== 'pass') lines.push(`${' '.repeat(17)}fix: ${check.fix}`);
  }
  const failed = checks.filter((c) => c.status === 'fail').length;
  const warned = checks.filter((c) => c.status === 'warn').length;
  const warnings = warned > 0 ? ` (${warned} warning${warned === 1 ? '' : 's'})` : '';
  lines.push(failed === 0 ? `All ${checks.length} checks passed${warnings}.` : `${failed} of ${checks.length} checks failed${warnings}.`);
  return `${lines.join('\n')}\n`;
}

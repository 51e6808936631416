import { runWorkflowScript, type HostRun, type RunOptions } from '../../runtime/host/index.js';
import type { WorkflowResult } from '../../runtime/workflow/index.js';

/**
 * Runs a compiled workflow script in the stand-in host launch after launch, as the
 * /leopold-workflow skill does: a launch that stops at run_budget is launched again with its
 * result's continuation beside the same args, until one stops for another reason or fails,
 * or `maxLaunches` have run. Every launch, the last one last.
 */
export async function runLaunches(script: string, options: RunOptions, maxLaunches: number): Promise<HostRun[]> {
  const runs: HostRun[] = [];
  const base = (options.args ?? {}) as Record<string, unknown>;
  for (let args = options.args; ; ) {
    const run = await runWorkflowScript(script, { ...options, args });
    runs.push(run);
    const ended = run.ok ? (run.result as WorkflowResult) : null;
    if (ended?.stop !== 'run_budget' || ended.continue === undefined || runs.length >= maxLaunches) return runs;
    args = { ...base, continue: ended.continue };
  }
}

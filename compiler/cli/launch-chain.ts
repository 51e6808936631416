import { runWorkflowScript, type HostRun, type HostRunStats, type RunOptions } from '../../runtime/host/index.js';
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

/**
 * A chain of launches as one run (what `leopold simulate` reports): the last launch's stop,
 * the items every launch finished, what the run set out to do (all it finished plus what the
 * last launch left open), every decision, outcome, follow-up and item routed around, and
 * each launch's "What I decided for you" block in launch order. The launches that stopped at
 * run_budget only passed the run on, so their stops are not the run's. Null when the last
 * launch failed (the report shows its error instead).
 */
export function chainResult(runs: readonly HostRun[]): WorkflowResult | null {
  const last = runs.at(-1);
  if (!last?.ok) return null;
  const ended = runs.map((run) => run.result as WorkflowResult);
  const final = ended.at(-1)!;
  if (ended.length === 1) return final;
  const done = ended.reduce((sum, result) => sum + result.done, 0);
  const blocks = ended.flatMap((result, n) => (result.decidedForYou === '' ? [] : [{ launch: n + 1, block: result.decidedForYou }]));
  return {
    ...final,
    done,
    total: done + final.total - final.done,
    decisions: ended.flatMap((result) => result.decisions),
    decidedForYou: blocks.length <= 1 ? (blocks[0]?.block ?? '') : blocks.map(({ launch, block }) => `Launch ${launch}: ${block}`).join('\n\n'),
    routedAround: [...new Set(ended.flatMap((result) => result.routedAround))].sort((a, b) => a - b),
    outcomes: ended.flatMap((result) => result.outcomes),
    followUps: ended.flatMap((result) => result.followUps),
  };
}

/** The host's counters summed over a chain's launches (the most agents at once: the highest any launch saw). */
export function chainStats(runs: readonly HostRun[]): HostRunStats {
  return runs.reduce(
    (sum, run) => ({
      agents: sum.agents + run.stats.agents,
      maxConcurrency: Math.max(sum.maxConcurrency, run.stats.maxConcurrency),
      tokensSpent: sum.tokensSpent + run.stats.tokensSpent,
      logsDropped: sum.logsDropped + run.stats.logsDropped,
      virtualMs: sum.virtualMs + run.stats.virtualMs,
    }),
    { agents: 0, maxConcurrency: 0, tokensSpent: 0, logsDropped: 0, virtualMs: 0 },
  );
}

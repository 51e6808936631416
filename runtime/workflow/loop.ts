import type { WorkflowHost } from './host.js';
import type { EmbeddedPlan } from './plan.js';
import { itemPrompt } from './prompt.js';
import type { WorkflowResult } from './result.js';

/**
 * THE MINIMAL LOOP (issue #4 stand-in; the workflow-loop issue replaces this file).
 *
 * One agent() call per open item, wave by wave, in plan order: a non-null answer counts
 * the item done, null counts it incomplete. It does not verify, review, route, decide or
 * record anything. Later waves may depend on an unfinished item and the loop cannot tell,
 * so a wave that left an item incomplete ends the run (`deadlock`: open items remain and
 * nothing more may be dispatched); so do the iteration limit
 * (`iteration_budget`) and `maxFailures` nulls in a row (`repeated_failure`).
 */
export async function runMinimalLoop(plan: EmbeddedPlan, args: unknown, host: WorkflowHost): Promise<WorkflowResult> {
  const items = plan.waves.flat();
  const maxIterations = Math.min(plan.limits.maxIterations, requestedIterations(args) ?? Infinity);
  const finished = new Set<number>();
  let dispatched = 0;
  let failuresInARow = 0;
  let stop = 'plan_complete';

  run: for (const [n, wave] of plan.waves.entries()) {
    const title = `Wave ${n + 1}`;
    host.phase(title);
    for (const item of wave) {
      if (dispatched >= maxIterations) {
        stop = 'iteration_budget';
        break run;
      }
      dispatched += 1;
      const answer = await host.agent(itemPrompt(plan, item), { label: `${item.id}: ${clip(item.text)}`, phase: title, effort: item.effort });
      if (answer === null || answer === undefined) {
        failuresInARow += 1;
        host.log(`item ${item.index}: no answer (skipped or failed)`);
        if (failuresInARow >= plan.limits.maxFailures) {
          stop = 'repeated_failure';
          break run;
        }
        continue;
      }
      failuresInARow = 0;
      finished.add(item.index);
    }
    if (wave.some((item) => !finished.has(item.index))) {
      stop = 'deadlock';
      break;
    }
  }
  const incomplete = items.map((item) => item.index).filter((index) => !finished.has(index));
  return { stop, done: finished.size, total: items.length, incomplete, decisions: [], decidedForYou: '', stranded: [], routedAround: [] };
}

/** `args.maxIterations` when the caller gave a whole number ≥ 1; it can only lower the plan's limit. */
function requestedIterations(args: unknown): number | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const value = (args as { maxIterations?: unknown }).maxIterations;
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined;
}

function clip(text: string): string {
  const chars = [...text];
  return chars.length > 60 ? `${chars.slice(0, 59).join('')}…` : text;
}

import { decidedForYou, rankDecisions } from '../decisions/decided-for-you.js';
import { renderDecision } from '../decisions/render.js';
import { readDecisions } from '../decisions/trail.js';
import { parseAutonomy } from '../autonomy/spellings.js';
import { isSuccess } from '../run/index.js';
import { decideNext, reviewReport } from '../run/index.js';
import { renderEvidence } from '../run/index.js';
import type { AgentJsonSchemas } from './agent-schemas.js';
import { ApiErrorReported, NeedsPerson, RunContext, RunStop, Unsettled } from './context.js';
import type { WorkflowHost } from './host.js';
import { runNode } from './nodes.js';
import { phaseTitle } from './phases.js';
import type { CompactPlan, EmbeddedPlan } from './plan.js';
import { expandPlan } from '../plan/compact.js';
import type { ResultDecision, WorkflowResult, WorkflowStop } from './result.js';
import { repairDeadlock } from './repair.js';
import { finalReview } from './final-review.js';
import { rescueItem, type ItemMemory } from './work-item.js';
import { RUN_AGENT_CAP, worstCaseAgents } from './agent-budget.js';
import { continuationOf, resumeFrom, type Continuation } from './continuation.js';

// The script reads no clock: entries rendered for the result carry this stamp, which the
// result never shows (the scribe's `leopold record` stamps the real ones).
const EPOCH = new Date(0);

interface Ending {
  stop: WorkflowStop;
  detail: string;
  stranded: number[];
  routedAround: number[];
}

/**
 * THE workflow loop (docs/workflow.md), a thin driver of the run model both engines share
 * (runtime/run): ask `decideNext` what happens next (the next item, a rescue, or a stop),
 * turn a dispatch into agent() calls, fold what they answered into the model as events,
 * and hand the writes to the scribe. The Stop hook drives the same model with the
 * session's reports. Every stop records a `stop` event (unless the scribe or the budget is
 * what stopped it) and the result carries the ranked decisions and "What I decided for
 * you". Agent calls happen in one fixed order for the same plan and answers. The plan comes
 * as the script embeds it; its items' defaults are filled back in here, once.
 */
export async function runWorkflow(packed: CompactPlan, args: unknown, host: WorkflowHost, schemas: AgentJsonSchemas): Promise<WorkflowResult> {
  const embedded = expandPlan(packed);
  const options = runOptions(embedded, args);
  // A continuing launch (args.continue) resumes the run model and the work earlier launches did.
  const resumed = options.continue === undefined ? null : resumeFrom(embedded, options.continue);
  // The run's own plan: amendments append work to it, never to the embedded one.
  const plan: EmbeddedPlan = resumed?.plan ?? { ...embedded, items: [...embedded.items], waves: embedded.waves.map((wave) => [...wave]) };
  const ctx = new RunContext(plan, host, schemas, options);
  const carried = resumed ? plan.items.filter((node) => node.index > embedded.items.length) : [];
  if (resumed) {
    ctx.model = resumed.model;
    ctx.lastDecisionBefore = resumed.lastDecision;
  }
  const launch = resumed?.launch ?? 1;
  const memory = resumed?.memory ?? new Map<number, ItemMemory>();
  const open = plan.items.filter((node) => !node.done).map((node) => node.index);
  const done = new Set<number>();
  ctx.event({
    event: 'workflow-start',
    plan: plan.source.plan,
    sha256: plan.source.sha256,
    autonomy: options.autonomy,
    open: open.length,
    ...(resumed ? { continued: launch, iteration: ctx.iteration } : {}),
    ...(options.timestamp ? { requested_at: options.timestamp } : {}),
  });

  let ending: Ending;
  try {
    ending = await runLoop(ctx, done, memory, options.maxAgents);
  } catch (error) {
    if (!(error instanceof RunStop)) throw error;
    ending = { stop: error.reason, detail: error.detail, stranded: [], routedAround: [] };
  }
  // Work a @feedback node added is part of what the run set out to do.
  open.push(...ctx.added);
  const next: Continuation | null =
    ending.stop === 'run_budget' ? continuationOf(embedded, launch, ctx.model, [...carried, ...ctx.added.map((index) => ctx.node(index))], memory, ctx.lastDecision()) : null;
  ending = await recordStop(ctx, ending, done.size, open.length, next);
  host.log(`stop: ${ending.stop} (${ending.detail})`);

  // The decisions as DECISIONS.md holds them: rendered by the one writer's renderer and
  // read back by its reader, so the ranking and the block are the ones `run finish` and
  // the Stop hook compute from the file.
  const records = readDecisions(ctx.decisions.map(({ n, input }) => renderDecision(input, n, EPOCH, plan.charterRules)).join('\n\n'));
  const itemOf = new Map(ctx.decisions.map(({ n, input }) => [n, input.item]));
  const decisions: ResultDecision[] = rankDecisions(records).map((d) => ({
    n: d.n,
    title: d.title,
    fork: d.fork,
    item: itemOf.get(d.n) ?? 0,
    persona: d.persona ? `${d.persona.name} — ${d.persona.role}` : null,
    class: d.class ?? 'reversible',
    decision: d.decision,
    reversal: d.reversal,
    score: d.score,
    reasons: d.reasons,
  }));
  return {
    // First, so the host's 8,000-character preview of the result never cuts it.
    ...(next && ending.stop === 'run_budget' ? { continue: next } : {}),
    stop: ending.stop,
    detail: ending.detail,
    done: done.size,
    total: open.length,
    incomplete: open.filter((index) => !done.has(index)).sort((a, b) => a - b),
    decisions,
    decidedForYou: decidedForYou(records),
    stranded: ending.stranded,
    routedAround: ending.routedAround,
    ...reviewReport(ctx.reviewed),
  };
}

interface RunOptions {
  autonomy: 'full' | 'ask';
  maxIterations: number;
  /** Agents this launch may start (the host's cap, or lower through args.maxAgents). */
  maxAgents: number;
  timestamp: string | null;
  /** args.continue: the previous launch's result.continue (a run that continues). */
  continue?: unknown;
}

/**
 * The posture and limits for this run: args may set `autonomy`, lower `maxIterations` or
 * `maxAgents`, pass `timestamp`, and `continue` a run that stopped at `run_budget`.
 */
function runOptions(plan: EmbeddedPlan, args: unknown): RunOptions {
  const record = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  const fromText = typeof args === 'string' ? parseAutonomy(args) : undefined;
  const autonomy = (typeof record.autonomy === 'string' ? parseAutonomy(record.autonomy) : undefined) ?? fromText ?? plan.autonomy;
  const requested = record.maxIterations;
  const lower = typeof requested === 'number' && Number.isInteger(requested) && requested >= 1 ? requested : Infinity;
  const timestamp = typeof record.timestamp === 'string' ? record.timestamp : null;
  const agents = record.maxAgents;
  const maxAgents = Math.min(RUN_AGENT_CAP, typeof agents === 'number' && Number.isInteger(agents) && agents >= 1 ? agents : Infinity);
  return { autonomy, maxIterations: Math.min(plan.limits.maxIterations, lower), maxAgents, timestamp, ...(record.continue !== undefined ? { continue: record.continue } : {}) };
}

/**
 * Dispatch until the run model says stop. Each dispatch is one iteration: a work item's
 * attempt (a rescued one when the model grants the run's one rescue), or one node of
 * another kind. A fork nobody could settle becomes the model's `escalated` event.
 */
async function runLoop(ctx: RunContext, done: Set<number>, memory: Map<number, ItemMemory>, maxAgents: number): Promise<Ending> {
  let phase = '';
  for (;;) {
    const step = decideNext({
      model: ctx.model,
      plan: { items: ctx.items(), waves: ctx.plan.waves },
      limits: ctx.limits,
      autonomy: ctx.autonomy,
      facts: {
        budgetExceeded: ctx.budgetSpent(),
        apiError: ctx.apiError,
        // A launch that has started no agent never stops for its agent budget (it would never get further).
        ...(ctx.agentsUsed > 0
          ? {
              agents: {
                // The stop's own scribe call is set aside.
                left: maxAgents - ctx.agentsUsed - 1,
                worstCase: (item: { index: number }, rescue: boolean) => worstCaseAgents(ctx.node(item.index), ctx.plan.maxReviewRounds, rescue),
              },
            }
          : {}),
      },
    });
    ctx.applyAll(step.events);
    const effect = step.effect;
    if (effect.type === 'repair') {
      ctx.item = null;
      try {
        await cutShortByApiError(repairDeadlock(ctx, effect.waiting, effect.left));
      } finally {
        ctx.journalSubagents();
      }
      continue;
    }
    if (effect.type === 'final-review') {
      await cutShortByApiError(finalReview(ctx, effect.left));
      continue;
    }
    if (effect.type === 'stop') {
      return {
        stop: effect.verdict.reason as WorkflowStop,
        detail: effect.verdict.detail,
        stranded: effect.completion?.stranded ?? [],
        routedAround: effect.completion?.routedAround ?? [],
      };
    }
    const node = ctx.node(effect.item.index);
    const title = phaseTitle(ctx.plan, node.index, phase);
    if (title !== phase) {
      ctx.host.phase(title);
      phase = title;
    }
    const mine = memory.get(node.index) ?? { evidence: [] };
    memory.set(node.index, mine);
    if (effect.rescue) ctx.event({ event: 'rescue', item: node.index, kind: effect.rescue.kind, failures: effect.rescue.failures, rescue_used: true });
    // The Stop hook logs the same line for each block: the two engines' dispatches compare line for line.
    ctx.event({ event: 'turn', item: node.index, iteration: effect.turn, ...(effect.rescue ? { rescue: true } : {}) });
    ctx.item = node.index;
    try {
      const rescue = effect.rescue ? await rescueItem(ctx, node, mine, effect.rescue) : null;
      if (!effect.rescue || rescue) await runNode(ctx, node, mine, rescue, renderEvidence(effect.evidence, ctx.items(), node.index));
    } catch (error) {
      if (error instanceof ApiErrorReported) {
        // The scribe reported the API error an agent died on: decideNext stops the run.
      } else if (error instanceof NeedsPerson) {
        ctx.apply({ type: 'needs-person', item: error.item, reason: error.reason, question: error.question });
        ctx.event({ event: 'needs-person', item: error.item, reason: error.reason, question: error.question });
      } else {
        if (!(error instanceof Unsettled)) throw error;
        ctx.apply({ type: 'escalated', item: error.item, question: error.question });
        ctx.event({ event: 'escalation', item: error.item, question: error.question });
      }
    } finally {
      // Also when a stop (the cap, the budget) cut the dispatch short: the stop's record carries the count.
      ctx.journalSubagents();
      ctx.item = null;
    }
    const status = ctx.model.routing.statuses[String(node.index)];
    if (isSuccess(status)) done.add(node.index);
    // A finished node's writes go now; a failed attempt's wait for the item's end (or the stop).
    if (status !== undefined) await ctx.flush();
  }
}

/** A run-level step (the deadlock repair, the final review) that an agent's API error may cut short; the loop's next step stops the run. */
async function cutShortByApiError(step: Promise<unknown>): Promise<void> {
  try {
    await step;
  } catch (error) {
    if (!(error instanceof ApiErrorReported)) throw error;
  }
}

/**
 * Records the stop event through the scribe, unless the scribe or the budget is what
 * stopped the run. An `api_error` stop names the error; a scribe that dies recording it
 * died of the same refusals most likely, so the stop stays `api_error`, saying the event
 * went unrecorded (`leopold run finish` ends the run from state.json all the same).
 */
async function recordStop(ctx: RunContext, ending: Ending, done: number, total: number, next: Continuation | null): Promise<Ending> {
  if (ctx.scribeBroken) return ending;
  const failed = ending.stop === 'api_error' && ctx.apiError ? { error: ctx.apiError.error, retryable: ctx.apiError.retryable } : {};
  ctx.event({ event: 'stop', reason: ending.stop, detail: ending.detail, ...failed, iteration: ctx.iteration, done, total, ...(next ? { continue: next } : {}) });
  try {
    await ctx.flush();
    return ending;
  } catch (error) {
    if (!(error instanceof RunStop)) throw error;
    if (error.reason === 'budget_exceeded') {
      ctx.host.log(`the stop event could not be recorded: ${error.detail}`);
      return ending;
    }
    if (ending.stop === 'api_error') {
      ctx.host.log(`the stop event could not be recorded: ${error.detail}`);
      return { ...ending, detail: `${ending.detail} (the stop event went unrecorded: ${error.detail})` };
    }
    return { ...ending, stop: error.reason, detail: `${error.detail} (the run had stopped: ${ending.stop}, ${ending.detail})` };
  }
}

import { decidedForYou, rankDecisions } from '../decisions/decided-for-you.js';
import { renderDecision } from '../decisions/render.js';
import { readDecisions } from '../decisions/trail.js';
import { parseAutonomy } from '../autonomy/spellings.js';
import { routeDecision, type NodeOutcome } from '../routing/decide.js';
import type { RoutingState } from '../state/schema.js';
import type { AgentJsonSchemas } from './agent-schemas.js';
import { RunContext, RunStop } from './context.js';
import type { WorkflowHost } from './host.js';
import { irOf, runNode } from './nodes.js';
import type { EmbeddedPlan } from './plan.js';
import type { ResultDecision, WorkflowResult, WorkflowStop } from './result.js';
import { runWorkItem } from './work-item.js';

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
 * THE workflow loop (SPEC-RUNTIME §5): the wave loop for a plain checklist, the routed
 * loop (routeDecision, one node at a time) for a plan with a graph. Every durable write
 * goes through the scribe; every stop records a `stop` event (unless the scribe or the
 * budget is what stopped it) and the result carries the ranked decisions and "What I
 * decided for you". Agent calls happen in one fixed order for the same plan and answers.
 */
export async function runWorkflow(embedded: EmbeddedPlan, args: unknown, host: WorkflowHost, schemas: AgentJsonSchemas): Promise<WorkflowResult> {
  const options = runOptions(embedded, args);
  // The run's own plan: amendments append work to it, never to the embedded one.
  const plan: EmbeddedPlan = { ...embedded, waves: embedded.waves.map((wave) => [...wave]), graph: embedded.graph && { nodes: [...embedded.graph.nodes] } };
  const ctx = new RunContext(plan, host, schemas, options);
  const open = plan.graph ? plan.graph.nodes.filter((node) => !node.done).map((node) => node.index) : plan.waves.flat().map((item) => item.index);
  const done = new Set<number>();
  ctx.event({
    event: 'workflow-start',
    plan: plan.source.plan,
    sha256: plan.source.sha256,
    autonomy: options.autonomy,
    open: open.length,
    ...(options.timestamp ? { requested_at: options.timestamp } : {}),
  });

  let ending: Ending;
  try {
    ending = plan.graph ? await routedLoop(ctx, done) : await waveLoop(ctx, done);
  } catch (error) {
    if (!(error instanceof RunStop)) throw error;
    ending = { stop: error.reason, detail: error.detail, stranded: [], routedAround: [] };
  }
  // Work a @feedback node added is part of what the run set out to do.
  open.push(...ctx.added);
  ending = await recordStop(ctx, ending, done.size, open.length);
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
    stop: ending.stop,
    detail: ending.detail,
    done: done.size,
    total: open.length,
    incomplete: open.filter((index) => !done.has(index)).sort((a, b) => a - b),
    decisions,
    decidedForYou: decidedForYou(records),
    stranded: ending.stranded,
    routedAround: ending.routedAround,
  };
}

/** The posture and limits for this run: args may set `autonomy`, lower `maxIterations`, pass `timestamp`. */
function runOptions(plan: EmbeddedPlan, args: unknown): { autonomy: 'full' | 'ask'; maxIterations: number; timestamp: string | null } {
  const record = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  const fromText = typeof args === 'string' ? parseAutonomy(args) : undefined;
  const autonomy = (typeof record.autonomy === 'string' ? parseAutonomy(record.autonomy) : undefined) ?? fromText ?? plan.autonomy;
  const requested = record.maxIterations;
  const lower = typeof requested === 'number' && Number.isInteger(requested) && requested >= 1 ? requested : Infinity;
  const timestamp = typeof record.timestamp === 'string' ? record.timestamp : null;
  return { autonomy, maxIterations: Math.min(plan.limits.maxIterations, lower), timestamp };
}

/**
 * The wave loop: waves in order, items in plan order; a wave that leaves an item open
 * strands the later waves. Work appended by an amendment is a final wave (the iteration
 * sees waves pushed while it runs).
 */
async function waveLoop(ctx: RunContext, done: Set<number>): Promise<Ending> {
  const waves = ctx.plan.waves;
  for (const [w, wave] of waves.entries()) {
    ctx.host.phase(`Wave ${w + 1}`);
    const leftOpen: number[] = [];
    for (const item of wave) {
      const status = await runWorkItem(ctx, item);
      if (status === 'ok') done.add(item.index);
      else leftOpen.push(item.index);
      await ctx.flush();
    }
    if (leftOpen.length > 0) {
      // A plain checklist's items carry no dependency list, so every later wave may depend on it.
      const stranded = waves.slice(w + 1).flat().map((item) => item.index);
      return { stop: 'routed_complete', detail: `items ${leftOpen.join(', ')} were left open after review; later waves cannot run`, stranded, routedAround: [] };
    }
  }
  return { stop: 'plan_complete', detail: 'every item is done', stranded: [], routedAround: [] };
}

/** The routed loop: routeDecision picks the next node (routed targets first, then ascending); routes latch. */
async function routedLoop(ctx: RunContext, done: Set<number>): Promise<Ending> {
  const nodes = ctx.plan.graph!.nodes;
  let view = viewOf(ctx);
  let routing: RoutingState = { statuses: {}, signals: {}, channel: {}, taken: [] };
  let finished: NodeOutcome | null = null;
  let phase = '';
  for (;;) {
    // A @feedback node may have appended work: route over the plan as it is now.
    if (view.count !== nodes.length) view = viewOf(ctx);
    const { byIndex, items, waveOf } = view;
    const step = routeDecision({ items, routing, finished });
    routing = step.routing;
    for (const taken of step.taken) ctx.event({ event: 'route', from: taken.from, to: taken.to, when: taken.when });
    if (step.complete) {
      const { reason, stranded, routedAround, waiting, failed } = step.complete;
      const detail =
        reason === 'plan_complete'
          ? 'every item is done'
          : reason === 'deadlock'
            ? `items ${waiting.join(', ')} wait on each other`
            : `nothing left to dispatch (failed: ${failed.join(', ') || 'none'}; stranded: ${stranded.join(', ') || 'none'}; routed around: ${routedAround.join(', ') || 'none'})`;
      return { stop: reason, detail, stranded, routedAround };
    }
    const node = byIndex.get(step.next[0]!)!;
    const title = `Wave ${waveOf.get(node.index) ?? 1}`;
    if (title !== phase) {
      ctx.host.phase(title);
      phase = title;
    }
    if (node.kind === 'human' && ctx.autonomy === 'ask') {
      throw new RunStop('awaiting_human', `item ${node.index} ("${node.text}") is a @human node and autonomy is ask`);
    }
    const outcome = await runNode(ctx, node);
    if (outcome.status === 'ok' || outcome.status === 'pass') done.add(node.index);
    await ctx.flush();
    finished = outcome;
  }
}

/** What the routed loop reads from the plan: nodes by index, the IR items routing needs, each node's wave. */
function viewOf(ctx: RunContext) {
  const nodes = ctx.plan.graph!.nodes;
  const waveOf = new Map<number, number>();
  ctx.plan.waves.forEach((wave, w) => wave.forEach((item) => waveOf.set(item.index, w + 1)));
  return { count: nodes.length, byIndex: new Map(nodes.map((node) => [node.index, node])), items: irOf(nodes).items, waveOf };
}

/** Records the stop event through the scribe, unless the scribe or the budget is what stopped the run. */
async function recordStop(ctx: RunContext, ending: Ending, done: number, total: number): Promise<Ending> {
  if (ctx.scribeBroken) return ending;
  ctx.event({ event: 'stop', reason: ending.stop, detail: ending.detail, iteration: ctx.iteration, done, total });
  try {
    await ctx.flush();
    return ending;
  } catch (error) {
    if (!(error instanceof RunStop)) throw error;
    if (error.reason === 'budget_exceeded') {
      ctx.host.log(`the stop event could not be recorded: ${error.detail}`);
      return ending;
    }
    return { ...ending, stop: error.reason, detail: `${error.detail} (the run had stopped: ${ending.stop}, ${ending.detail})` };
  }
}

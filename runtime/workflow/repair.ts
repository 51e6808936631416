import { judgeAmendments } from '../amend/judge.js';
import { AMENDMENT_BUDGET } from '../amend/limits.js';
import { parseAmendments } from '../amend/parse.js';
import { resolveRef, routeOf } from '../amend/refs.js';
import type { Proposal, RouteProposal } from '../amend/schema.js';
import type { Feedback } from './agent-schemas.js';
import { addedWork, amendCommand } from './amend.js';
import { entryPersona, type RunContext } from './context.js';
import type { PlanIR } from '../plan/schema.js';
import type { EmbeddedNode } from './plan.js';
import { repairPrompt } from './prompts.js';
import { askTwice } from './work-item.js';

/**
 * The runtime deadlock repair (docs/compile.md, context `runtime`): open items wait on each
 * other, so before the run stops with `deadlock` a persona for the repair proposes bounded
 * changes (ROUTE an existing route, ADD plain work) within the budget the run has left.
 * They are judged here first, then applied by the scribe through `leopold plan amend
 * --context runtime` (the one amendment pipeline, judged again against PLAN.md), recorded
 * as a `deadlock` decision with its Reversal, and applied to this run's plan. Asked once per
 * run (the model's `repair-tried`): if the plan is still stuck, the run stops with `deadlock`.
 * A compiled plan cannot deadlock (compile refuses a plan whose items can never be ready),
 * so in the workflow this is the safety net for a plan that changed under the run.
 */
export async function repairDeadlock(ctx: RunContext, waiting: readonly number[], left: number): Promise<void> {
  ctx.apply({ type: 'repair-tried', waiting: [...waiting] });
  const stuck = waiting.map((index) => ctx.node(index));
  const first = stuck[0]!;
  const synthesis = await ctx.synthesize(first, 'repair', `items ${waiting.join(', ')} wait on each other; mend the plan within its bounds so the run can go on`);
  const answer = await askTwice<Feedback>(ctx, repairPrompt(ctx.plan, stuck, synthesis.persona, left), `${first.id}:repair`, 'feedback');
  const used = ctx.model.amendments_used;
  const ir = ctx.ir();
  const judged = judgeAmendments(parseAmendments(answer?.amendments ?? ''), { ir, used, context: 'runtime' });
  const work = addedWork(ir, judged.accepted);
  ctx.event({
    event: 'repair',
    waiting: [...waiting],
    accepted: judged.accepted.map((p) => p.raw),
    refused: judged.refused.map((r) => ({ proposal: r.proposal.raw, code: r.code, detail: r.detail })),
    added: work.map((item) => item.index),
  });
  // All or nothing, as every amendment: one refusal and the plan stays as it is.
  if (judged.accepted.length === 0 || judged.refused.length > 0) return;
  const rerouted = judged.accepted.filter((p): p is RouteProposal => p.verb === 'ROUTE').map((proposal) => rerouteOf(ir, proposal));
  const raws = judged.accepted.map((p) => p.raw).join('; ');
  ctx.decide({
    title: `Repaired a deadlock: ${raws}`,
    fork: 'deadlock',
    item: first.index,
    subject: first.text,
    persona: entryPersona(synthesis.persona),
    class: 'reversible',
    charter: 'silent',
    decision: `Applied ${judged.accepted.length} bounded change${judged.accepted.length === 1 ? '' : 's'} to PLAN.md: ${raws}.`,
    why: `items ${waiting.join(', ')} waited on each other and the run could not go on; the repair passed every amendment bound (completeness, bias to action). Budget used: ${judged.used} of ${AMENDMENT_BUDGET}.`,
    reversal: reversalOf(judged.accepted, rerouted, work),
    turn: ctx.iteration,
  });
  ctx.amend(amendCommand(judged.accepted, 'runtime'), work.map((item) => item.index));
  await ctx.flush(); // PLAN.md holds the repair before the run goes on under it
  ctx.apply({ type: 'amended', count: judged.used - used });
  for (const change of rerouted) ctx.reroute(change.item, change.position, change.to);
  ctx.appendWork(work);
}

/** A judged ROUTE proposal as a change to one route: which item, which of its routes, from and to. */
interface Rerouted {
  proposal: RouteProposal;
  item: number;
  position: number;
  from: number;
  to: number;
}

function rerouteOf(ir: PlanIR, proposal: RouteProposal): Rerouted {
  // The judge accepted it against this plan, so the route and the target exist.
  const found = routeOf(ir, proposal)!;
  return { proposal, item: found.item.index, position: found.position, from: found.route.target, to: resolveRef(ir, proposal.target)! };
}

function reversalOf(accepted: readonly Proposal[], rerouted: readonly Rerouted[], work: readonly EmbeddedNode[]): string {
  const parts = rerouted.map(({ proposal, from }) => `point item ${proposal.item}'s "${proposal.condition}" route back to item ${from}`);
  if (work.length > 0) parts.push(`delete the added item${work.length === 1 ? '' : 's'} ${work.map((w) => w.index).join(', ')} from the end of PLAN.md`);
  return parts.length > 0 ? `In .leopold/PLAN.md, ${parts.join('; ')}.` : `Undo: ${accepted.map((p) => p.raw).join('; ')}.`;
}

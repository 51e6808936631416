import { judgeAmendments } from '../amend/judge.js';
import { parseAmendments } from '../amend/parse.js';
import { blockingFindings, FINAL_REVIEW_LABEL, finalFixText, finalReviewDetail } from '../run/index.js';
import type { Review } from './agent-schemas.js';
import { addedWork, amendCommand } from './amend.js';
import type { RunContext } from './context.js';
import { finalReviewPrompt } from './prompts.js';
import { askTwice } from './work-item.js';

/**
 * The run's one final review of the whole change (the SDD protocol's final branch review),
 * asked by the run model when every item is done (decideNext's `final-review` effect). One
 * reviewer answers findings in the review schema; the blocking rule is the kernel's. No
 * blocking finding: the findings are follow-ups and the run completes. Blocking ones become
 * ONE item that fixes them all (the protocol's one fix dispatch for the whole list), added
 * through the amendment path (`leopold plan amend`, context feedback, the plan-change
 * budget), and the run goes on to do it under the item review loop. Nothing could be added
 * (budget spent), or no answer: the model's `final-blocked`, a stop with `escalation`.
 */
export async function finalReview(ctx: RunContext, left: number): Promise<void> {
  const last = Math.max(...ctx.items().map((item) => item.index));
  const answer = await askTwice<Review>(ctx, finalReviewPrompt(ctx.plan), FINAL_REVIEW_LABEL, 'review');
  if (answer === null) {
    const detail = finalReviewDetail(null);
    ctx.event({ event: 'final-review', findings: [], blocking: 0, answered: false });
    ctx.apply({ type: 'final-blocked', item: last, detail });
    return;
  }
  const blocking = blockingFindings(answer.findings);
  const followUps = answer.findings.filter((f) => !blocking.includes(f));
  ctx.event({ event: 'final-review', findings: [...answer.findings], blocking: blocking.length });
  if (followUps.length > 0) ctx.event({ event: 'follow-ups', item: last, findings: followUps, final: true });
  if (blocking.length === 0) return;
  const used = ctx.model.amendments_used;
  const ir = ctx.ir();
  const judged = left > 0 ? judgeAmendments(parseAmendments(['```leopold-amend', `ADD ${finalFixText(blocking)}`, '```'].join('\n')), { ir, used, context: 'feedback' }) : null;
  if (judged === null || judged.accepted.length === 0 || judged.refused.length > 0) {
    ctx.apply({ type: 'final-blocked', item: last, detail: finalReviewDetail(blocking) });
    return;
  }
  const work = addedWork(ir, judged.accepted);
  ctx.event({ event: 'amendments', item: last, accepted: judged.accepted.map((p) => p.raw), refused: [], added: work.map((item) => item.index), final: true });
  ctx.amend(amendCommand(judged.accepted), work.map((item) => item.index));
  await ctx.flush(); // PLAN.md holds the fix item before the run goes on to do it
  ctx.apply({ type: 'amended', count: judged.used - used });
  ctx.appendWork(work);
}

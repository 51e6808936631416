import { judgeAmendments } from '../amend/judge.js';
import { AMENDMENT_BUDGET } from '../amend/limits.js';
import { parseAmendments } from '../amend/parse.js';
import type { Feedback, Judgement, ToolRun } from './agent-schemas.js';
import { addedWork, amendCommand } from './amend.js';
import type { RunContext } from './context.js';
import { settleFork } from './fork.js';
import type { EmbeddedNode } from './plan.js';
import { feedbackPrompt, judgePrompt, toolPrompt } from './prompts.js';
import { answeredSignals, withSignals } from './signals.js';
import { askTwice, runWorkItem, type ItemMemory, type Rescue } from './work-item.js';
import { tailOf, toolEvidence, verdictEvidence } from '../run/index.js';

/**
 * Runs one dispatched node by its kind and folds what happened into the run model:
 * work → one attempt of the item pipeline; @gate/@verify → a read-only judge (pass/fail);
 * @tool → an agent runs the command and reports `{ exit }` (signal `exit`); @feedback →
 * proposals judged by runtime/amend, applied by the scribe and then run; @human (under
 * full; under ask the run stopped before dispatching it) → a persona decides and works. A
 * judge or tool that gives no answer twice is a failure, never a pass.
 */
export async function runNode(ctx: RunContext, node: EmbeddedNode, memory: ItemMemory, rescue: Rescue | null, evidence: string): Promise<void> {
  const finished = (status: string, signals?: Record<string, string>, failure?: string) =>
    ctx.finish(node.index, status, { signals, logged: signals && reportedOnly(signals), ...(failure !== undefined ? { evidence: failure } : {}) });
  switch (node.kind) {
    case 'work':
      return runWorkItem(ctx, node, memory, rescue, evidence);
    case 'gate':
    case 'verify': {
      const verdict = await askTwice<Judgement>(ctx, judgePrompt(ctx.plan, node, evidence), `${node.id}:${node.kind}`, 'judgement', withSignals(ctx.schemas.judgement, node));
      const status = verdict?.verdict === 'pass' ? 'pass' : 'fail';
      const signals = answeredSignals(verdict);
      const reasons = verdict?.reasons ?? 'no answer from the judge (asked twice)';
      ctx.event({ event: node.kind, item: node.index, verdict: status, reasons });
      if (status === 'pass') ctx.tick(node.index);
      return finished(status, signals, status === 'pass' ? undefined : verdictEvidence(`@${node.kind}`, reasons));
    }
    case 'tool': {
      const command = node.command ?? node.text;
      const run = await askTwice<ToolRun>(ctx, toolPrompt(ctx.plan, node, evidence), `${node.id}:tool`, 'tool', withSignals(ctx.schemas.tool, node));
      if (run === null) {
        ctx.event({ event: 'tool', item: node.index, command, exit: null });
        return finished('fail', undefined, toolEvidence(command, null, undefined));
      }
      const signals = answeredSignals(run);
      const output = tailOf(run.output);
      ctx.event({ event: 'tool', item: node.index, command, exit: run.exit, output });
      if (run.exit === 0) ctx.tick(node.index);
      return finished(run.exit === 0 ? 'ok' : 'fail', { ...signals, exit: String(run.exit) }, run.exit === 0 ? undefined : toolEvidence(command, run.exit, output));
    }
    case 'feedback':
      return runFeedback(ctx, node, evidence);
    case 'human': {
      const settled = await settleFork(ctx, node, 'human', `The plan asks a person: ${node.text}`, evidence);
      const signals = answeredSignals(settled.decision);
      ctx.tick(node.index);
      ctx.event({ event: 'item-done', item: node.index, iteration: ctx.iteration });
      return finished('ok', signals);
    }
  }
}

/** The reported signals without the tool's implicit `exit` (the `tool` event carries it), or undefined when none is left. */
function reportedOnly(signals: Record<string, string>): Record<string, string> | undefined {
  const { exit: _exit, ...rest } = signals;
  void _exit;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/**
 * A `@feedback` node: its proposals are judged here first (context `feedback`, against
 * what this run already spent, so a 4th change is refused `add-budget` without a scribe
 * call); refusals are only recorded, never fatal. The accepted ones go to the scribe as
 * the exact `leopold plan amend` invocation, which judges them again against PLAN.md and
 * state.json and writes them; once its ack names the expected indexes, the added items
 * join this run's plan and are dispatched like any other open item.
 */
async function runFeedback(ctx: RunContext, node: EmbeddedNode, evidence: string): Promise<void> {
  const used = ctx.model.amendments_used;
  const left = Math.max(0, AMENDMENT_BUDGET - used);
  const answer = await askTwice<Feedback>(ctx, feedbackPrompt(ctx.plan, node, left, evidence), `${node.id}:feedback`, 'feedback', withSignals(ctx.schemas.feedback, node));
  if (answer === null) return ctx.finish(node.index, 'fail', { evidence: 'the @feedback agent gave no answer (asked twice)' });
  const signals = answeredSignals(answer);
  const ir = ctx.ir();
  const judged = judgeAmendments(parseAmendments(answer.amendments), { ir, used, context: 'feedback' });
  const work = addedWork(ir, judged.accepted);
  ctx.event({
    event: 'amendments',
    item: node.index,
    accepted: judged.accepted.map((p) => p.raw),
    refused: judged.refused.map((r) => ({ proposal: r.proposal.raw, code: r.code, detail: r.detail })),
    added: work.map((item) => item.index),
  });
  if (judged.accepted.length > 0) ctx.amend(amendCommand(judged.accepted), work.map((item) => item.index));
  ctx.tick(node.index);
  await ctx.flush(); // PLAN.md holds the new items before the run goes on to do them
  if (judged.used > used) ctx.apply({ type: 'amended', count: judged.used - used });
  ctx.appendWork(work);
  ctx.finish(node.index, 'ok', { signals });
}


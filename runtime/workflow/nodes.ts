import type { NodeOutcome } from '../routing/decide.js';
import { judgeAmendments } from '../amend/judge.js';
import { AMENDMENT_BUDGET } from '../amend/limits.js';
import { parseAmendments } from '../amend/parse.js';
import type { PlanIR } from '../plan/schema.js';
import type { Feedback, Judgement, ToolRun } from './agent-schemas.js';
import { addedWork, amendCommand } from './amend.js';
import type { RunContext } from './context.js';
import { settleFork } from './fork.js';
import type { EmbeddedNode } from './plan.js';
import { feedbackPrompt, judgePrompt, toolPrompt } from './prompts.js';
import { askTwice, runWorkItem } from './work-item.js';

/**
 * Runs one graph node by its kind and reports its outcome for routeDecision:
 * work → the item pipeline; @gate/@verify → a read-only judge (pass/fail); @tool → an
 * agent runs the command and reports `{ exit }` (signal `exit`); @feedback → proposals
 * judged by runtime/amend, applied by the scribe and then run; @human (under full; the loop
 * stops earlier under ask) → a persona decides and works. A judge or tool that gives no
 * answer twice is a failure, never a pass.
 */
export async function runNode(ctx: RunContext, node: EmbeddedNode): Promise<NodeOutcome> {
  switch (node.kind) {
    case 'work':
      return { index: node.index, status: await runWorkItem(ctx, node) };
    case 'gate':
    case 'verify': {
      ctx.dispatch(node);
      const verdict = await askTwice<Judgement>(ctx, judgePrompt(ctx.plan, node), `${node.id}:${node.kind}`, 'judgement');
      const status = verdict?.verdict === 'pass' ? 'pass' : 'fail';
      ctx.event({ event: node.kind, item: node.index, verdict: status, reasons: verdict?.reasons ?? 'no answer from the judge (asked twice)' });
      if (status === 'pass') ctx.tick(node.index);
      return { index: node.index, status };
    }
    case 'tool': {
      ctx.dispatch(node);
      const run = await askTwice<ToolRun>(ctx, toolPrompt(ctx.plan, node), `${node.id}:tool`, 'tool');
      if (run === null) {
        ctx.event({ event: 'tool', item: node.index, command: node.command, exit: null });
        return { index: node.index, status: 'fail' };
      }
      ctx.event({ event: 'tool', item: node.index, command: node.command, exit: run.exit });
      if (run.exit === 0) ctx.tick(node.index);
      return { index: node.index, status: run.exit === 0 ? 'ok' : 'fail', signals: { exit: String(run.exit) } };
    }
    case 'feedback':
      return runFeedback(ctx, node);
    case 'human': {
      ctx.dispatch(node);
      await settleFork(ctx, node, 'human', `The plan asks a person: ${node.text}`);
      ctx.tick(node.index);
      ctx.event({ event: 'item-done', item: node.index, iteration: ctx.iteration });
      return { index: node.index, status: 'ok' };
    }
  }
}

/**
 * A `@feedback` node: its proposals are judged here first (context `feedback`, against
 * what this run already spent, so a 4th change is refused `add-budget` without a scribe
 * call); refusals are only recorded, never fatal. The accepted ones go to the scribe as
 * the exact `leopold plan amend` invocation, which judges them again against PLAN.md and
 * state.json and writes them; once its ack names the expected indexes, the added items
 * join this run's plan and are dispatched like any other open item.
 */
async function runFeedback(ctx: RunContext, node: EmbeddedNode): Promise<NodeOutcome> {
  ctx.dispatch(node);
  const left = Math.max(0, AMENDMENT_BUDGET - ctx.amendmentsUsed);
  const answer = await askTwice<Feedback>(ctx, feedbackPrompt(ctx.plan, node, left), `${node.id}:feedback`, 'feedback');
  if (answer === null) return { index: node.index, status: 'fail' };
  const ir = irOf(ctx.plan.graph?.nodes ?? []);
  const judged = judgeAmendments(parseAmendments(answer.amendments), { ir, used: ctx.amendmentsUsed, context: 'feedback' });
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
  ctx.amendmentsUsed = judged.used;
  ctx.appendWork(work);
  return { index: node.index, status: 'ok' };
}

/**
 * The Plan IR view runtime/amend and runtime/routing read, built from the embedded nodes
 * (no spans or anchors: references by index only).
 */
export function irOf(nodes: readonly EmbeddedNode[]): PlanIR {
  return {
    file: 'PLAN.md',
    strays: [],
    legacyItemLines: [],
    items: nodes.map((node) => ({
      index: node.index,
      id: node.id,
      text: node.text,
      done: node.done,
      kind: node.kind,
      label: node.label,
      command: node.command,
      anchor: null,
      depRefs: [],
      deps: [...node.deps],
      routes: node.routes.map((route) => ({ ...route, targetText: String(route.target), span: SPAN })),
      emits: node.emits.map((emit) => ({ ...emit, span: SPAN })),
      needs: node.needs.map((key) => ({ key, span: SPAN })),
      scenarios: [...node.scenarios],
      writes: [...node.writes],
      line: 1,
      span: SPAN,
      textSpan: SPAN,
      kindSpan: null,
      checkOffset: 0,
    })),
  };
}

const SPAN = { line: 1, column: 1, endLine: 1, endColumn: 1 };

import { stopAndAskQuestion, unusableDecision } from '../decisions/protocol.js';
import { isSilentCharter, oneLine } from '../decisions/render.js';
import type { PersonaAnswer } from '../persona/schema.js';
import type { ForkDecision } from './agent-schemas.js';
import { entryPersona, Unsettled, type RunContext } from './context.js';
import type { EmbeddedItem } from './plan.js';
import { decidePrompt } from './prompts.js';
import { withSignals } from './signals.js';

/** A settled fork: who decided and what. */
export interface Settled {
  persona: PersonaAnswer | null;
  decision: ForkDecision;
}

/**
 * Settles a fork (`@human` under full, or an escalation): synthesizes the persona the
 * decision needs (none: the default worker decides, and the entry says so), asks it to
 * decide and work, and queues the decision entry with its Persona and Reversal. No answer
 * at all, an unusable one (no decision, no why: unusableDecision), or an irreversible
 * decision the charter is silent on, is a fork no persona could settle: the run stops with
 * `escalation` (the loop's `escalated` event) and nothing is recorded (the persona document: never a made-up decision).
 */
export async function settleFork(ctx: RunContext, item: EmbeddedItem, fork: 'human' | 'escalation', question: string, evidence = ''): Promise<Settled> {
  const synthesis = await ctx.synthesize(item, fork, question);
  const label = fork === 'human' ? `${item.id}:human` : `${item.id}:escalation`;
  // A @human node reports its own signals with the decision; an escalation's are its work item's.
  const schema = fork === 'human' ? withSignals(ctx.schemas.decision, item) : undefined;
  const answer = await ctx.ask<ForkDecision>(decidePrompt(ctx.plan, item, synthesis.persona, fork, question, evidence), label, 'decision', { effort: item.effort }, schema);
  if (answer === null) throw new Unsettled(item.index, `no decision at the ${fork} fork (${question})`);
  // An empty answer settles nothing: never write a decision nobody made.
  const unusable = unusableDecision(answer);
  if (unusable !== undefined) throw new Unsettled(item.index, `the answer at the ${fork} fork is unusable (${unusable}); nothing was recorded (${question})`);
  if (answer.class === 'irreversible' && isSilentCharter(answer.charter)) {
    throw new Unsettled(item.index, stopAndAskQuestion(oneLine(answer.title) || question));
  }
  const decision: ForkDecision = {
    ...answer,
    // Only the label may be filled in; what was decided and why are the answer's own.
    title: oneLine(answer.title) || `${fork === 'human' ? 'Decide' : 'Settle'}: ${item.text}`,
    decision: answer.decision.trim(),
    why: answer.why.trim(),
  };
  ctx.decide({
    title: decision.title,
    fork,
    item: item.index,
    subject: item.text,
    persona: entryPersona(synthesis.persona),
    class: decision.class,
    charter: decision.charter.trim() === '' ? 'silent' : decision.charter,
    decision: decision.decision,
    why: decision.why,
    reversal: decision.reversal,
    turn: ctx.iteration,
  });
  await ctx.flush(); // a decision is written before the work it decided goes on
  return { persona: synthesis.persona, decision };
}


import type { PersonaAnswer } from '../persona/schema.js';
import { protocolRefusal, stopAndAskQuestion } from '../decisions/protocol.js';
import type { Finding, ForkDecision, Handoff, ItemDecision, RescueApproach, Review, Verification } from './agent-schemas.js';
import { PERSON_REASONS, type PersonReason } from '../decisions/forks.js';
import { entryPersona, NeedsPerson, Unsettled, type RunContext } from './context.js';
import { settleFork } from './fork.js';
import type { ItemMemory } from './continuation.js';
import type { EmbeddedItem } from './plan.js';
import { answeredSignals, withSignals } from './signals.js';
import { BLOCKING_P1_TYPES, blockingFindings, concernsOf, handoffLabel, NEEDS_CONTEXT_TOKENS } from '../run/index.js';
import { findingLine, implementPrompt, rescuePrompt, reviewPrompt, verifyPrompt, type ImplementContext } from './prompts.js';

/** How one attempt at an item ended. */
type Attempt =
  /** `signals`: what the last handoff reported for the item's declared keys; `verified`: the commands the verifier ran, passing. */
  | { outcome: 'accepted'; signals: Record<string, string> | undefined; verified: string[] }
  /** The review round cap was reached with blocking findings open: rulings recorded, item left open (`evidence`: the findings). */
  | { outcome: 'left-open'; evidence: string }
  | { outcome: 'failed'; kind: string; evidence: string };

/** Stop tokens of a blocked handoff that make it an escalation (a persona settles it): the kernel's NEEDS_CONTEXT tokens. */
const ESCALATING = NEEDS_CONTEXT_TOKENS;

/** Stop tokens of a blocked handoff that only a person may settle (PERSON_REASONS): the run stops, no persona is asked. */
const FOR_A_PERSON = new RegExp(`^\\s*(${PERSON_REASONS.join('|')})\\b[\\s:;,.-]*`, 'i');

/** At most this many escalations per attempt; another one is a fork no persona settled. */
export const MAX_ESCALATIONS = 2;

// The blocking rule is the kernel's (runtime/run/review.ts), shared with the final review and the session.
export { BLOCKING_P1_TYPES, blockingFindings };

// Commands that build, type-check, lint or format: they show the code compiles, not that it
// works. Any command naming a test runner is a test, whatever else it does.
const TEST_WORDS = /(?<![\p{L}\p{N}_])(?:tests?|specs?|vitest|jest|pytest|mocha|ava|tap|e2e|playwright|cypress|ctest|phpunit|rspec)(?![\p{L}\p{N}_])/iu;
const BUILD_ONLY =
  /^\s*(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:build|compile|typecheck|type-check|tsc|lint|format|fmt|prettier|check-types)\b|(?:npx\s+|pnpm\s+exec\s+|yarn\s+)?(?:tsc|esbuild|webpack|rollup|vite\s+build|eslint|prettier|biome|ruff|black|mypy|swc)\b|(?:cargo|go|gradle|\.\/gradlew|mvn|dotnet|swift)\s+(?:build|compile|check|vet|fmt|clippy|lint|assemble|package)\b|make(?:\s+(?:build|all|compile|lint))?\s*$)/i;

/** True when a command is a test run, not a build alone (a build, type-check, lint or format command). */
export function isTestCommand(command: string): boolean {
  return TEST_WORDS.test(command) || !BUILD_ONLY.test(command);
}

/** The reviewers an item gets, by risk: correctness; + security when sensitive; + works when critical. */
export function reviewersOf(item: EmbeddedItem): string[] {
  return ['correctness', ...(item.sensitive ? ['security'] : []), ...(item.critical ? ['works'] : [])];
}

/** The rescue an attempt runs under. */
export interface Rescue {
  persona: PersonaAnswer | null;
  approach: string;
}

/**
 * One attempt at a work item (one dispatch): implement (with fix rounds), verify, review,
 * and what it comes to as run-model events: accepted (`succeeded`, `finished ok`), left
 * open after the review cap (`finished fail`), or failed (`failed <kind>`: the item stays
 * open and the loop's next decision retries it, rescues it or stops).
 */
export async function runWorkItem(ctx: RunContext, item: EmbeddedItem, memory: ItemMemory, rescue: Rescue | null, evidence: string): Promise<void> {
  const attempt = await attemptItem(ctx, item, rescue, evidence);
  if (attempt.outcome === 'accepted') {
    ctx.apply({ type: 'succeeded', item: item.index });
    ctx.finish(item.index, 'ok', { signals: attempt.signals });
    // Done means verified: the receipt (stamped with the tree's fingerprint by leopold record) goes before the tick.
    ctx.event({ event: 'verified', item: item.index, commands: attempt.verified });
    ctx.tick(item.index);
    ctx.event({ event: 'item-done', item: item.index, iteration: ctx.iteration });
    return;
  }
  if (attempt.outcome === 'left-open') {
    ctx.finish(item.index, 'fail', { evidence: attempt.evidence });
    ctx.event({ event: 'item-open', item: item.index, reason: 'review round cap reached', iteration: ctx.iteration });
    return;
  }
  memory.evidence.push(`attempt ${memory.evidence.length + 1} (${attempt.kind}): ${attempt.evidence}`);
  ctx.apply({ type: 'failed', item: item.index, kind: attempt.kind, evidence: attempt.evidence });
  const streak = ctx.model.consecutive_failures.count;
  ctx.event({ event: 'failure', item: item.index, kind: attempt.kind, streak, evidence: attempt.evidence });
  ctx.host.log(`${item.id}: attempt failed (${attempt.kind}, ${streak} in a row): ${attempt.evidence}`);
}

/**
 * The run's one rescue, bought by the loop for this dispatch: a persona synthesized for the
 * failure, asked for one genuinely different approach. The decision is recorded (turn: this
 * dispatch) before the rescued attempt; no approach is the model's `no-approach` event.
 */
export async function rescueItem(ctx: RunContext, item: EmbeddedItem, memory: ItemMemory, grant: { kind: string; failures: number }): Promise<Rescue | null> {
  const synthesis = await ctx.synthesize(item, 'repeated-failure', `a genuinely different approach after ${grant.failures} ${grant.kind} failures`);
  const answer = await ctx.ask<RescueApproach>(rescuePrompt(ctx.plan, item, synthesis.persona, memory.evidence), `${item.id}:rescue`, 'rescue');
  const approach = answer?.approach.trim() ?? '';
  if (approach === '') {
    ctx.apply({ type: 'no-approach', item: item.index });
    ctx.event({ event: 'no-approach', item: item.index });
    return null;
  }
  ctx.decide({
    title: `Rescue item ${item.index} with a different approach`,
    fork: 'repeated-failure',
    item: item.index,
    subject: item.text,
    persona: entryPersona(synthesis.persona),
    class: 'reversible',
    charter: 'silent',
    decision: approach,
    why: `${grant.failures} consecutive ${grant.kind} failures; the run's one rescue (bias to action)`,
    reversal: "Discard the rescued attempt's uncommitted changes and return to the original approach.",
    turn: ctx.iteration,
  });
  await ctx.flush();
  return { persona: synthesis.persona, approach };
}

/** One attempt: implement (with fix rounds), verify, review. */
async function attemptItem(ctx: RunContext, item: EmbeddedItem, rescue: Rescue | null, evidence: string): Promise<Attempt> {
  const plan = ctx.plan;
  const context: ImplementContext = {
    round: 0,
    findings: [],
    resolution: null,
    persona: rescue?.persona ?? null,
    approach: rescue?.approach ?? null,
    evidence,
  };
  let escalations = 0;
  let deaths = 0;
  // Non-blocking findings of every round: follow-ups, recorded once when the item closes.
  const followUps: Finding[] = [];
  for (;;) {
    const label = context.round === 0 ? `${item.id}:implement` : `${item.id}:fix:${context.round}`;
    const handoff = await ctx.ask<Handoff>(implementPrompt(plan, item, context), label, 'handoff', { effort: item.effort }, withSignals(ctx.schemas.handoff, item));
    if (handoff !== null) recordItemDecisions(ctx, item, handoff.decisions ?? []);
    // Concerns stay with the item (DONE_WITH_CONCERNS once it is done); the other labels show in failure, escalation and needs-person events.
    if (handoff !== null && handoffLabel(handoff) === 'DONE_WITH_CONCERNS') ctx.event({ event: 'outcome', item: item.index, label: handoffLabel(handoff), concerns: concernsOf(handoff.concerns) });
    if (handoff === null) {
      // A dead implementer charges a round.
      deaths += 1;
      if (context.round >= plan.maxReviewRounds) return { outcome: 'failed', kind: 'implementer', evidence: `the implementer gave no answer ${deaths} time(s)` };
      context.round += 1;
      continue;
    }
    if (handoff.status === 'blocked') {
      const reason = handoff.blocked_reason.trim() || '(no reason given)';
      const person = FOR_A_PERSON.exec(reason);
      if (person) throw new NeedsPerson(item.index, person[1]!.toLowerCase() as PersonReason, reason.slice(person[0].length).trim() || 'no question given');
      if (!ESCALATING.test(reason)) return { outcome: 'failed', kind: 'blocked', evidence: `blocked: ${reason}` };
      escalations += 1;
      if (escalations > MAX_ESCALATIONS) throw new Unsettled(item.index, `escalated ${escalations} times in one attempt (${reason})`);
      const settled = await settleFork(ctx, item, 'escalation', reason);
      context.resolution = `${settled.decision.decision} (why: ${settled.decision.why})`;
      continue; // handed back to the worker; an escalation does not charge a round
    }
    const ran = handoff.tests_run.filter((run) => run.result !== 'not-run');
    const ranTests = ran.some((run) => isTestCommand(run.command));
    if (handoff.status === 'partial' || !ranTests) {
      const why =
        ran.length > 0
          ? `the handoff ran no test command, only ${ran.map((run) => run.command).join(', ')} (a build alone is partial)`
          : 'the handoff ran no test (a handoff with no test run is partial)';
      return { outcome: 'failed', kind: 'partial', evidence: ranTests ? `partial handoff: ${handoff.evidence}` : why };
    }

    const verification = await askTwice<Verification>(ctx, verifyPrompt(plan, item, handoff), `${item.id}:verify`, 'verification');
    if (verification === null) return { outcome: 'failed', kind: 'verification', evidence: 'the verifier gave no answer (twice)' };
    if (verification.verdict !== 'pass') {
      const failing = verification.tests_run.filter((run) => run.result !== 'pass').map((run) => `${run.command}: ${run.summary}`);
      return { outcome: 'failed', kind: 'verification', evidence: `verification failed: ${failing.join('; ') || verification.evidence}` };
    }

    const reviewers = reviewersOf(item);
    const run = (reviewer: string) => () => ctx.ask<Review>(reviewPrompt(plan, item, reviewer, handoff), `${item.id}:review:${reviewer}`, 'review');
    const thunks = reviewers.map(run);
    const answers = await ctx.parallel<Review | null>(thunks);
    // A dead reviewer is re-asked once (in panel order, so the call order stays fixed).
    for (const [i, reviewer] of reviewers.entries()) {
      if (answers[i] === null || answers[i] === undefined) answers[i] = await run(reviewer)();
    }
    const silent = reviewers.filter((_, i) => !answers[i]);
    if (silent.length > 0) {
      return { outcome: 'failed', kind: 'review', evidence: `no answer from the ${silent.join(', ')} reviewer (re-asked once); a silent reviewer blocks acceptance` };
    }
    const findings = answers.flatMap((answer) => answer!.findings);
    const blocking = blockingFindings(findings);
    followUps.push(...findings.filter((f) => !blocking.includes(f)));
    if (blocking.length === 0) {
      recordFollowUps(ctx, item, followUps);
      return { outcome: 'accepted', signals: answeredSignals(handoff), verified: passingCommands(verification) };
    }
    if (context.round < plan.maxReviewRounds) {
      context.round += 1;
      context.findings = blocking;
      context.resolution = null;
      continue;
    }
    for (const finding of blocking) {
      ctx.decide({
        title: `Ruling: ${finding.severity} ${finding.type} in ${finding.file}${finding.line > 0 ? `:${finding.line}` : ''} left open`,
        item: item.index,
        subject: item.text,
        class: 'reversible',
        charter: 'silent',
        decision: `Item ${item.index} stays open with this finding: ${finding.problem}`,
        why: `the review round cap (${plan.maxReviewRounds}) was reached with the finding still blocking`,
        reversal: finding.fix.trim() === '' ? '' : `Fix it: ${finding.fix}`,
        turn: ctx.iteration,
      });
    }
    recordFollowUps(ctx, item, followUps);
    return { outcome: 'left-open', evidence: `review round cap (${plan.maxReviewRounds}) reached with blocking findings: ${blocking.map(findingLine).join('; ')}` };
  }
}

/** The commands a passing verification ran (at least one: `leopold record` refuses a receipt without). */
function passingCommands(verification: Verification): string[] {
  const commands = verification.tests_run.filter((run) => run.result === 'pass').map((run) => run.command.trim()).filter((c) => c !== '');
  return commands.length > 0 ? [...new Set(commands)] : ['(the verifier named no command)'];
}

/**
 * The decisions an implementer made inside the item (its handoff's `decisions`), queued for
 * the one writer with the item, its text and the turn, as a session records them through
 * `leopold record`, and under the same protocol: an irreversible decision on a silent
 * charter is the mandatory stop (the run stops with escalation); an entry the protocol
 * refuses for another reason (no why, a fork written as mechanical) is recorded as a
 * `decision-refused` event, never as a decision.
 */
function recordItemDecisions(ctx: RunContext, item: EmbeddedItem, decisions: readonly ItemDecision[]): void {
  for (const decision of decisions) {
    const entry = { ...decision, item: item.index, subject: item.text, turn: ctx.iteration };
    const refusal = protocolRefusal(entry);
    if (refusal?.stopAndAsk) throw new Unsettled(item.index, stopAndAskQuestion(decision.title));
    if (refusal) {
      ctx.host.log(`${item.id}: ${refusal.message}`);
      ctx.event({ event: 'decision-refused', item: item.index, title: decision.title, reason: refusal.message });
      continue;
    }
    ctx.decide(entry);
  }
}

/** The follow-ups of a closed item (non-blocking findings: hardening, refactor, docs, test-gap, P2, …), as one `follow-ups` event. */
function recordFollowUps(ctx: RunContext, item: EmbeddedItem, findings: readonly Finding[]): void {
  if (findings.length > 0) ctx.event({ event: 'follow-ups', item: item.index, findings: [...findings] });
}

/** An agent asked once more when it gives no answer (verifier, judges, tools). */
export async function askTwice<T>(ctx: RunContext, prompt: string, label: string, schema: Parameters<RunContext['ask']>[2], schemaOverride?: Record<string, unknown>): Promise<T | null> {
  return (await ctx.ask<T>(prompt, label, schema, {}, schemaOverride)) ?? (await ctx.ask<T>(prompt, label, schema, {}, schemaOverride));
}

export type { ForkDecision, ItemMemory };

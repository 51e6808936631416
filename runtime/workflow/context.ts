import type { PersonReason } from '../decisions/forks.js';
import type { DecisionFork, DecisionInput, DecisionPersona } from '../decisions/schema.js';
import { judgePersonaAnswer } from '../persona/judge.js';
import { personaPromptWithRules } from '../persona/prompt-text.js';
import type { PersonaAnswer } from '../persona/schema.js';
import type { PlanIR, PlanItem } from '../plan/schema.js';
import { initialModel, reduce, subagentCap, type RunEvent, type RunModel } from '../run/index.js';
import { DEFAULT_GUARDRAILS, defaultSubagentsPerRun } from '../guardrails/defaults.js';
import type { StopLimits } from '../run/index.js';
import type { ApiErrorFact } from '../api-error/index.js';
import type { AgentJsonSchemas, AgentSchemaName, ScribeAck } from './agent-schemas.js';
import { leopoldCommand } from '../project-cli/index.js';
import { base64Utf8 } from './base64.js';
import type { WorkflowHost } from './host.js';
import type { EmbeddedItem, EmbeddedNode, EmbeddedPlan } from './plan.js';
import { irOf } from './ir.js';
import type { WorkflowStop } from './result.js';
import { READ_ONLY_AGENT } from '../verify/agent.js';

/** The answers only a read-only agent gives: a verification, a gate or verify judgement, a review. */
const READ_ONLY_SCHEMAS: ReadonlySet<string> = new Set(['verification', 'judgement', 'review']);

/** Thrown anywhere in the loop to end the run with a stop condition. */
export class RunStop {
  constructor(
    readonly reason: WorkflowStop,
    readonly detail: string,
  ) {}
}

/**
 * Thrown where a fork cannot be settled (no usable decision, an irreversible one on a
 * silent charter, too many escalations in one attempt): the loop turns it into the run
 * model's `escalated` event, as the Stop hook does with the session's report.
 */
export class Unsettled {
  constructor(
    readonly item: number,
    readonly question: string,
  ) {}
}

/**
 * Thrown where an agent says only a person may settle the matter (a blocked handoff whose
 * stop token is one of PERSON_REASONS): the loop turns it into the run model's
 * `needs-person` event, as the Stop hook does with the session's report. No persona is asked.
 */
export class NeedsPerson {
  constructor(
    readonly item: number,
    readonly reason: PersonReason,
    readonly question: string,
  ) {}
}

/**
 * Thrown where an agent gave no answer and the scribe's ack then reported the API error an
 * agent of the run died on: the dispatch is cut short and the loop asks the run model what
 * next (decideNext, whose `api_error` stop holds once the error is a fact).
 */
export class ApiErrorReported {}

/** A decision the run made, with the number the scribe's ack gave it. */
export interface MadeDecision {
  n: number;
  input: DecisionInput & { item: number };
}

/** A persona synthesized at a fork: the accepted answer, or null with the reason none was. */
export interface Synthesis {
  persona: PersonaAnswer | null;
  refused: string | null;
}

/** The label of the scribe agent (an answer file matches it exactly). */
export const SCRIBE_LABEL = 'scribe';

/**
 * The first line of every agent prompt: the step's label. The model never sees agent()
 * options, so this is how a transcript reader, and the scripted model server
 * (runtime/scripted-model), tell which step an agent is.
 */
export const stepLine = (label: string) => `Leopold step ${label}.`;

/** `.leopold/DECISIONS.md` as the result names it. */
export const DECISIONS_PATH = '.leopold/DECISIONS.md';

/**
 * One run's state and the agent plumbing every step shares: the run model (runtime/run,
 * the same reducer the Stop hook folds the session's reports into), the agent() wrapper
 * (null on death, RunStop on a spent budget), persona synthesis and the scribe batch. The
 * loop in loop.ts drives it; nothing here reads a clock.
 */
/** The events the report's review facts are read from (runtime/run's reviewReport). */
const REVIEWED = new Set(['outcome', 'item-done', 'failure', 'escalation', 'needs-person', 'final-review']);

export class RunContext {
  model: RunModel = initialModel();
  readonly limits: StopLimits;
  readonly autonomy: 'full' | 'ask';
  readonly decisions: MadeDecision[] = [];
  /** Indexes of the work items this run appended to the plan, in order. */
  readonly added: number[] = [];
  private pending: ScribeBatch = emptyBatch();
  private view: { count: number; ir: PlanIR; byIndex: Map<number, EmbeddedNode> } | null = null;
  scribeBroken = false;
  /** This launch's events the report's review facts come from (outcomes, failures, item-done, the final review). */
  readonly reviewed: Record<string, unknown>[] = [];
  /** agent() calls this launch made (the host caps a run at RUN_AGENT_CAP). */
  agentsUsed = 0;
  /** The last decision number before this launch (a continuing run's scribe numbers on from it). */
  lastDecisionBefore = 0;
  /** The item the loop is dispatching (null between dispatches: a deadlock repair): its agents count toward it. */
  item: number | null = null;
  /** Subagents counted into the model but not yet journaled, by item (`null`: outside any item). */
  private unjournaled = new Map<number | null, number>();
  /** The first API error a scribe's ack reported (an agent of the run died on it), or null. */
  apiError: ApiErrorFact | null = null;
  /** Inside parallel agent calls (ctx.parallel): the labels that gave no answer, looked into once all have answered. */
  private parallelNulls: string[] | null = null;

  constructor(
    readonly plan: EmbeddedPlan,
    readonly host: WorkflowHost,
    readonly schemas: AgentJsonSchemas,
    options: { maxIterations: number; autonomy: 'full' | 'ask' },
  ) {
    this.autonomy = options.autonomy;
    this.limits = {
      maxIterations: options.maxIterations,
      maxFailures: plan.limits.maxFailures,
      maxNoProgress: plan.limits.maxNoProgress,
      // The session engine's context windows: a workflow run has none.
      maxContextMb: Infinity,
      maxWindows: Infinity,
      gated: plan.limits.gated ?? [],
      maxSubagents: plan.limits.maxSubagents ?? DEFAULT_GUARDRAILS.maxSubagents,
      maxSubagentsPerRun: plan.limits.maxSubagentsPerRun ?? defaultSubagentsPerRun(options.maxIterations, plan.limits.maxSubagents ?? DEFAULT_GUARDRAILS.maxSubagents),
    };
  }

  get iteration(): number {
    return this.model.iteration;
  }

  /** The plan as routing reads it (IR items, every node), rebuilt only when the plan changed. */
  items(): PlanItem[] {
    return this.planView().ir.items;
  }

  /** The plan as the amendment judge reads it (the same view). */
  ir(): PlanIR {
    return this.planView().ir;
  }

  node(index: number): EmbeddedNode {
    return this.planView().byIndex.get(index)!;
  }

  private planView() {
    const nodes = this.plan.items;
    if (this.view === null || this.view.count !== nodes.length) {
      this.view = { count: nodes.length, ir: irOf(nodes), byIndex: new Map(nodes.map((node) => [node.index, node])) };
    }
    return this.view;
  }

  /**
   * A node finished with `status`: the signals it reported are logged (`logged`, when any:
   * a tool leaves out the `exit` its own event carries), then the model hears `finished`,
   * with the evidence of a failure (runtime/run/evidence.ts).
   */
  finish(index: number, status: string, how: { signals?: Record<string, string>; logged?: Record<string, string>; evidence?: string } = {}): void {
    const { signals, evidence } = how;
    const logged = 'logged' in how ? how.logged : signals;
    if (logged) this.event({ event: 'signals', item: index, values: logged });
    this.apply({ type: 'finished', outcome: { index, status, ...(signals ? { signals } : {}) }, ...(evidence !== undefined ? { evidence } : {}) });
  }

  /**
   * Folds one event into the run model with the one reducer, and journals it for the scribe
   * (a `run` event: the fold of a run's journal rebuilds this model, runtime/run/journal.ts);
   * a route it latched is logged as a `route` event.
   */
  apply(event: RunEvent): void {
    const before = this.model.routing.taken.length;
    this.model = reduce(this.model, event, this.items());
    this.event({ event: 'run', run: event });
    for (const taken of this.model.routing.taken.slice(before)) this.event({ event: 'route', from: taken.from, to: taken.to, when: taken.when });
  }

  /** Folds a step's events in order (decideNext's `events`). */
  applyAll(events: readonly RunEvent[]): void {
    for (const event of events) this.apply(event);
  }

  /**
   * One agent() call with a generated schema. A verifier, judge or reviewer runs as Leopold's
   * read-only agent (runtime/verify/agent.ts): no file tools, and the guard refuses its edits. Resolves to null when the agent was skipped
   * or died, or threw for its own reasons (stall, bad output): a null is a failure, never
   * a pass. A spent token budget or the 1,000-agent cap ends the run (budget_exceeded).
   * A null from any agent but the scribe is looked into at once (noAnswer): when it was an
   * API error, the dispatch ends here (ApiErrorReported).
   */
  async ask<T>(prompt: string, label: string, schema: AgentSchemaName, extra: Record<string, unknown> = {}, schemaOverride?: Record<string, unknown>): Promise<T | null> {
    const answer = await this.call<T>(prompt, label, schema, extra, schemaOverride);
    if (answer === null && label !== SCRIBE_LABEL) {
      if (this.parallelNulls !== null) this.parallelNulls.push(label);
      else await this.noAnswer([label]);
    }
    return answer;
  }

  private async call<T>(prompt: string, label: string, schema: AgentSchemaName, extra: Record<string, unknown>, schemaOverride?: Record<string, unknown>): Promise<T | null> {
    this.checkBudget();
    if (label !== SCRIBE_LABEL) this.countSubagent();
    this.agentsUsed += 1;
    try {
      const readOnly = READ_ONLY_SCHEMAS.has(schema) ? { agentType: READ_ONLY_AGENT } : {};
      const answer = await this.host.agent(`${stepLine(label)}\n\n${prompt}`, { label, schema: schemaOverride ?? this.schemas[schema], ...readOnly, ...extra });
      return answer === undefined || answer === null ? null : (answer as T);
    } catch (error) {
      const message = errorMessage(error);
      if (/token budget is spent|budget/i.test(message) && this.budgetSpent()) {
        throw new RunStop('budget_exceeded', `the host token budget is spent (at ${label})`);
      }
      if (/1,000-agent cap/.test(message)) throw new RunStop('budget_exceeded', `the host's 1,000-agent cap was reached (at ${label})`);
      if (this.budgetSpent()) throw new RunStop('budget_exceeded', `the host token budget is spent (at ${label})`);
      this.host.log(`${label}: agent failed: ${message}`);
      return null;
    }
  }

  /**
   * Agent calls that run side by side (a review panel): a null among them is looked into
   * once all have answered, so the scribe is never asked twice at once and the call order
   * stays fixed.
   */
  async parallel<T>(thunks: (() => Promise<T>)[]): Promise<T[]> {
    const silent: string[] = [];
    this.parallelNulls = silent;
    let answers: T[];
    try {
      answers = (this.host.parallel ? await this.host.parallel(thunks) : await Promise.all(thunks.map((t) => t()))) as T[];
    } finally {
      this.parallelNulls = null;
    }
    // In label order, whichever answered first: the event is the same on every host.
    if (silent.length > 0) await this.noAnswer([...silent].sort());
    return answers;
  }

  /**
   * An agent gave no answer. The script cannot tell an API death from a skip; the client
   * fires StopFailure for the death, and Leopold's hook keeps the error in state.json, which
   * `leopold record` reports in its ack. So the queued writes go now, with a `no-answer`
   * event, and the ack says whether an API error explains the null: then the dispatch ends
   * (ApiErrorReported) and decideNext stops the run `api_error`. The hook runs detached
   * and may land after this ack (docs/host.md measures it): then a later ack reports it.
   */
  private async noAnswer(labels: readonly string[]): Promise<void> {
    this.event({ event: 'no-answer', ...(this.item !== null ? { item: this.item } : {}), agents: [...labels] });
    await this.flush();
    if (this.apiError !== null) throw new ApiErrorReported();
  }

  /**
   * One more subagent for the current item (the scribe is the run's bookkeeping, not an
   * item's work, and is never counted): past GUARDRAILS `max_subagents` or
   * `max_subagents_per_run` it is refused and the run stops (`subagent_cap`), as the
   * session's PreToolUse hook refuses a Task/Agent call. Counted in the model at once (so
   * parallel reviewers see each other) and journaled once per dispatch (journalSubagents).
   */
  private countSubagent(): void {
    const capped = subagentCap(this.model, this.limits, this.item);
    if (capped) {
      // The model's halt, as the session's Stop hook folds the guard's refusal: both engines' models agree.
      if (this.item !== null) this.apply({ type: 'subagent-cap', item: this.item, detail: capped.detail });
      throw new RunStop('subagent_cap', capped.detail);
    }
    this.model = reduce(this.model, { type: 'subagents', item: this.item, count: 1 }, this.items());
    this.unjournaled.set(this.item, (this.unjournaled.get(this.item) ?? 0) + 1);
  }

  /**
   * Journals the subagents counted since the last call, one `run` line per item (the model
   * already holds them), so the journal's fold and `leopold run continue` see the counts
   * and `run status --watch` shows them.
   */
  journalSubagents(): void {
    for (const [item, count] of this.unjournaled) this.event({ event: 'run', run: { type: 'subagents', item, count } });
    this.unjournaled.clear();
  }

  /** The highest decision number acknowledged so far in this run (earlier launches included). */
  lastDecision(): number {
    return this.decisions.at(-1)?.n ?? this.lastDecisionBefore;
  }

  budgetSpent(): boolean {
    const remaining = this.host.budgetRemaining?.() ?? Infinity;
    return remaining <= 0;
  }

  checkBudget(): void {
    if (this.budgetSpent()) throw new RunStop('budget_exceeded', 'the host token budget is spent');
  }

  /** Synthesizes a persona at a fork; any failure (null, unparseable, generic role) means none. */
  async synthesize(item: EmbeddedItem, fork: 'human' | 'escalation' | 'repeated-failure' | 'repair', deciding: string): Promise<Synthesis> {
    const prompt = personaPromptWithRules(
      { mission: this.plan.mission, charter: this.plan.charter, fork, item: { index: item.index, text: item.text }, deciding },
      this.plan.charterRules,
    );
    const answer = await this.ask<PersonaAnswer>(prompt, `${item.id}:persona:${fork}`, 'persona');
    const judged = judgePersonaAnswer(answer);
    if (judged.ok) return { persona: judged.answer, refused: null };
    this.host.log(`${item.id}: no persona for the ${fork} fork (${judged.reason}); the default worker decides`);
    return { persona: null, refused: judged.reason };
  }

  /** Queues one decision entry for the scribe. */
  decide(entry: DecisionInput & { item: number }): void {
    this.pending.decisions.push(entry);
  }

  event(event: Record<string, unknown>): void {
    this.pending.events.push(event);
    if (REVIEWED.has(String(event.event))) this.reviewed.push(event);
  }

  tick(index: number): void {
    this.pending.ticks.push(index);
  }

  /** Queues one `leopold plan amend` invocation; its ack must name exactly the `added` indexes. */
  amend(command: string, added: readonly number[]): void {
    this.pending.amends.push({ command, added: [...added] });
  }

  /**
   * Appends work a scribe-applied amendment added to PLAN.md to this run's in-memory plan,
   * so the run goes on to do it: ordinary open items, eligible once their `(after:)`
   * dependencies are done, after every wave the compiler laid out.
   */
  appendWork(nodes: readonly EmbeddedNode[]): void {
    if (nodes.length === 0) return;
    this.plan.waves.push(nodes.map((node) => node.index));
    this.plan.items.push(...nodes);
    this.added.push(...nodes.map((node) => node.index));
  }

  /** Points one route of an item at a new target (a runtime repair's ROUTE, once PLAN.md holds it). */
  reroute(index: number, position: number, target: number): void {
    const at = this.plan.items.findIndex((node) => node.index === index);
    const node = this.plan.items[at]!;
    this.plan.items[at] = { ...node, routes: node.routes.map((route, k) => (k === position ? { ...route, target } : route)) };
    this.view = null;
  }

  /**
   * Hands the queued writes to the scribe: `leopold record --base64 <payload>` for decisions
   * and events, `leopold plan amend --base64 <block> --json` per amendment, `leopold plan
   * tick N --json` per finished item, and checks its ack (`ok` true, one number per
   * decision, and the exact `added` indexes when an amendment ran). A missing or failed ack
   * stops the run (`scribe_failed`): a run whose trail cannot be written must not carry on.
   */
  async flush(): Promise<void> {
    const batch = this.pending;
    // The journal's `run` lines alone never cost a scribe call: they ride with the next write.
    const journal = batch.events.filter((event) => event.event === 'run').length;
    if (batch.decisions.length + batch.events.length - journal + batch.ticks.length + batch.amends.length === 0) return;
    this.pending = emptyBatch();
    const commands = scribeCommands(batch);
    const added = batch.amends.flatMap((amend) => amend.added);
    const last = this.lastDecision();
    const ackSchema = withAdded(withCount(this.schemas.scribeAck, batch.decisions.length, last), batch.amends.length > 0 ? added : null);
    const ack = await this.ask<ScribeAck>(scribePrompt(commands, batch.amends.length > 0 ? added : null), SCRIBE_LABEL, 'scribeAck', {}, ackSchema);
    const problem =
      ack === null
        ? 'the scribe gave no answer'
        : ack.ok !== true
          ? `the scribe reported a failure: ${ack.error?.trim() || 'no reason given'}`
          : ack.numbers.length !== batch.decisions.length
            ? `the scribe acknowledged ${ack.numbers.length} decision numbers for ${batch.decisions.length} decisions`
            : !ack.numbers.every((n, i) => n > (i === 0 ? last : ack.numbers[i - 1]!))
              ? `the scribe acknowledged decision numbers [${ack.numbers.join(', ')}] after D${last}; the one writer never reuses a number`
              : batch.amends.length > 0 && (ack.added ?? []).join(',') !== added.join(',')
              ? `leopold plan amend added items [${(ack.added ?? []).join(', ')}], expected [${added.join(', ')}] (PLAN.md changed under the run?)`
              : null;
    if (problem !== null || ack === null) {
      this.scribeBroken = true;
      throw new RunStop('scribe_failed', `${problem}; unrecorded: ${commands.join(' ; ')}`);
    }
    batch.decisions.forEach((input, i) => this.decisions.push({ n: ack.numbers[i]!, input }));
    // The first API error reported is the run's: every later ack repeats it until the run ends.
    if (this.apiError === null && ack.api_error) this.apiError = { error: ack.api_error.error, retryable: ack.api_error.retryable === true };
  }
}

/** The writes queued for the next scribe call. */
interface ScribeBatch {
  decisions: (DecisionInput & { item: number })[];
  events: Record<string, unknown>[];
  /** `leopold plan amend` invocations and the item indexes each must add. */
  amends: { command: string; added: number[] }[];
  ticks: number[];
}

const emptyBatch = (): ScribeBatch => ({ decisions: [], events: [], amends: [], ticks: [] });

/**
 * The exact CLI invocations for one batch, in order: the record (decisions and events),
 * the amendments, then the ticks (an amendment only appends, so no tick's index moves).
 */
export function scribeCommands(batch: {
  decisions: readonly DecisionInput[];
  events: readonly Record<string, unknown>[];
  ticks: readonly number[];
  amends?: readonly { command: string }[];
}): string[] {
  const commands: string[] = [];
  if (batch.decisions.length + batch.events.length > 0) {
    const payload: Record<string, unknown> = {};
    if (batch.decisions.length > 0) payload.decisions = batch.decisions;
    if (batch.events.length > 0) payload.events = batch.events;
    commands.push(leopoldCommand(`record --base64 ${base64Utf8(JSON.stringify(payload))}`));
  }
  for (const amend of batch.amends ?? []) commands.push(amend.command);
  for (const index of batch.ticks) commands.push(leopoldCommand(`plan tick ${index} --json`));
  return commands;
}

function scribePrompt(commands: readonly string[], added: readonly number[] | null): string {
  const addedField = added === null ? '' : `, "added": [${added.join(', ')}]`;
  return [
    'You are the scribe of a Leopold run. Run these commands from the project root, exactly as written, in order, and nothing else:',
    '',
    ...commands.map((command) => `    ${command}`),
    '',
    `Each prints one JSON line. Answer { "ok": true, "numbers": [...]${addedField} } with the \`numbers\` array leopold record printed (empty when it recorded no decisions)${
      added === null ? '' : ' and the "added" array leopold plan amend printed (anything other than that exact array is a failure)'
    }; when leopold record printed an "api_error" object, copy it into your answer as "api_error", exactly,`,
    `or { "ok": false, "numbers": [], "error": "<the command and its output>"${addedField} } if any command exited non-zero or printed "ok": false. Do not retry, edit or work around a failure.`,
  ].join('\n');
}

/** The ack schema of a batch that ran `leopold plan amend`: `added` required, exactly the expected indexes. */
function withAdded(schema: Record<string, unknown>, added: readonly number[] | null): Record<string, unknown> {
  if (added === null) return schema;
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return { ...schema, properties: { ...properties, added: { ...properties.added, const: [...added] } }, required: [...required, 'added'] };
}

/**
 * The ack schema for a batch of `count` decisions after D`last`. A success (`ok` true) holds
 * exactly that many numbers; a failure (`ok` false) holds any numbers and a non-empty
 * `error`, so the scribe can always say what went wrong (the real client refuses an answer
 * that breaks the schema five times, and the cause would be lost). Every number is above
 * `last` (the one writer numbers on from the highest in the file and never reuses one).
 * The `default` annotation (last+1, last+2, …) is what a DECISIONS.md nobody else wrote to
 * gives, and what the stand-in host answers when no answer is scripted, so a simulation
 * numbers its decisions D1, D2, … like a real first run (a keyword every JSON Schema draft
 * knows, unlike `prefixItems`, which a draft-07 validator may reject).
 */
function withCount(schema: Record<string, unknown>, count: number, last: number): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  const item = (properties.numbers?.items ?? {}) as Record<string, unknown>;
  const numbers = { ...properties.numbers, items: { ...item, minimum: last + 1 }, default: Array.from({ length: count }, (_, i) => last + 1 + i) };
  return {
    ...schema,
    properties: { ...properties, numbers },
    if: { properties: { ok: { const: true } } },
    then: { properties: { numbers: { type: 'array', minItems: count, maxItems: count } } },
    else: { properties: { error: { type: 'string', minLength: 1 } }, required: ['error'] },
  };
}

function errorMessage(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}

/** The persona as a decision entry names it, or null when none was synthesized. */
export function entryPersona(persona: PersonaAnswer | null): DecisionPersona | null {
  return persona ? { name: persona.name, role: persona.role, expertise: [...persona.expertise] } : null;
}

/** Forks as the decision writer spells them. */
export type Fork = DecisionFork;

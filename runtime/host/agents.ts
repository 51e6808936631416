import { validateAgentOptions } from './agent-options.js';
import { AnswerBook, answerKey, type ScriptedAnswer } from './answers.js';
import { DEFAULT_TEXT_ANSWER, defaultAnswerFor } from './default-answer.js';
import { AGENT_VIRTUAL_MS, MAX_AGENTS_PER_RUN, MAX_CONCURRENT_AGENTS, STRUCTURED_OUTPUT_ATTEMPTS } from './limits.js';
import { compileAgentSchema, type AgentSchema } from './schema.js';
import type { AgentCall, HostError } from './types.js';
import type { VirtualClock } from './scheduler.js';

/** What agent() hands back to the realm: a value, or an error the realm throws as a plain object. */
export type AgentOutcome = { ok: true; value: unknown } | { ok: false; error: HostError };

interface Pending {
  call: AgentCall;
  schema: AgentSchema | null;
  rawSchema: Record<string, unknown> | null;
  settle: (outcome: AgentOutcome) => void;
}

const failure = (name: string, message: string): AgentOutcome => ({ ok: false, error: { name, message } });

/**
 * The host side of agent() (docs/host-contract.md): option and schema checks, the 1,000-agent
 * cap, the token budget, the 16-agent gate, scripted or default answers with structured
 * output retries, and the journal of every call in call order.
 */
export class AgentDesk {
  readonly journal: AgentCall[] = [];
  running = 0;
  maxConcurrency = 0;
  spent = 0;
  private admitted = 0;
  private phase: string | null = null;
  private readonly waiting: Pending[] = [];

  constructor(
    private readonly clock: VirtualClock,
    private readonly book: AnswerBook,
    readonly budgetTotal: number | null,
    private readonly defaultTokens: number,
  ) {}

  /** phase(title): later agents without opts.phase belong to it. */
  setPhase(title: string): void {
    this.phase = title;
  }

  private budgetSpent(): boolean {
    return this.budgetTotal !== null && this.spent >= this.budgetTotal;
  }

  private budgetError(): AgentOutcome {
    return failure('Error', `agent(): the token budget is spent (${this.spent} of ${this.budgetTotal} tokens)`);
  }

  /** One agent() call; `optionsProblem` is set when the realm could not even serialise the options. */
  call(prompt: string, optionsJson: string | null, optionsProblem: string | null): Promise<AgentOutcome> {
    let options: Record<string, unknown> = {};
    try {
      options = optionsJson === null ? {} : (JSON.parse(optionsJson) as Record<string, unknown>);
    } catch {
      optionsProblem ??= 'agent(): opts must be JSON data';
    }
    const call: AgentCall = {
      index: this.journal.length + 1,
      label: typeof options.label === 'string' ? options.label : null,
      phase: typeof options.phase === 'string' ? options.phase : this.phase,
      prompt,
      options,
      answer: null,
      status: 'threw',
      source: null,
      attempts: 0,
      tokens: 0,
    };
    this.journal.push(call);
    const refuse = (outcome: AgentOutcome & { ok: false }) => {
      call.error = outcome.error;
      return Promise.resolve(outcome);
    };

    if (optionsProblem !== null) return refuse(failure('TypeError', optionsProblem) as AgentOutcome & { ok: false });
    let schema: AgentSchema | null = null;
    try {
      const valid = validateAgentOptions(options);
      if (valid.schema) schema = compileAgentSchema(valid.schema);
    } catch (error) {
      return refuse(failure('TypeError', (error as Error).message) as AgentOutcome & { ok: false });
    }
    if (this.admitted >= MAX_AGENTS_PER_RUN) {
      return refuse(failure('Error', `agent(): the run reached the ${MAX_AGENTS_PER_RUN.toLocaleString('en-US')}-agent cap`) as AgentOutcome & { ok: false });
    }
    if (this.budgetSpent()) return refuse(this.budgetError() as AgentOutcome & { ok: false });
    this.admitted += 1;

    return new Promise<AgentOutcome>((settle) => {
      const rawSchema = schema ? (options.schema as Record<string, unknown>) : null;
      this.waiting.push({ call, schema, rawSchema, settle });
      this.startWaiting();
    });
  }

  /** Starts waiting agents while fewer than 16 run. */
  private startWaiting(): void {
    while (this.running < MAX_CONCURRENT_AGENTS) {
      const next = this.waiting.shift();
      if (!next) return;
      if (this.budgetSpent()) {
        const outcome = this.budgetError() as AgentOutcome & { ok: false };
        next.call.error = outcome.error;
        next.settle(outcome);
        continue;
      }
      this.running += 1;
      this.maxConcurrency = Math.max(this.maxConcurrency, this.running);
      const outcome = this.answer(next);
      this.clock.schedule(AGENT_VIRTUAL_MS, () => {
        this.running -= 1;
        this.spent += next.call.tokens;
        next.settle(outcome);
        this.startWaiting();
      });
    }
  }

  /** Ends the run: agents still waiting for a slot never started. */
  finish(): void {
    for (const pending of this.waiting.splice(0)) {
      pending.call.error = { name: 'Error', message: 'the run ended before this agent started' };
    }
  }

  /** Draws answers until one is usable or the attempts run out; fills in the journal entry. */
  private answer({ call, schema, rawSchema }: Pending): AgentOutcome {
    const maxAttempts = schema ? STRUCTURED_OUTPUT_ATTEMPTS : 1;
    const key = answerKey(call.label, call.prompt);
    let problem = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      const drawn = this.book.draw(key);
      const answer: ScriptedAnswer = drawn?.answer ?? (rawSchema ? { value: defaultAnswerFor(rawSchema) } : { text: DEFAULT_TEXT_ANSWER });
      call.source = drawn ? drawn.rule : 'default';
      call.attempts = attempt;
      call.tokens += answer.tokens ?? ('skip' in answer ? 0 : this.defaultTokens);

      if ('skip' in answer || 'die' in answer) {
        call.status = 'null';
        return { ok: true, value: null };
      }
      if ('throw' in answer) {
        const outcome = failure('Error', `agent(): the agent stalled and did not recover after retries`);
        call.error = (outcome as { error: HostError }).error;
        return outcome;
      }
      if (!schema) {
        // Without a schema the agent's answer is its final text.
        const raw = 'text' in answer ? answer.text : 'value' in answer ? answer.value : answer.invalid;
        const text = typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? '');
        call.status = 'answered';
        call.answer = text;
        return { ok: true, value: text };
      }
      if ('invalid' in answer) {
        problem = 'the answer was not valid structured output';
        continue;
      }
      let candidate: unknown;
      if ('text' in answer) {
        try {
          candidate = JSON.parse(answer.text);
        } catch {
          problem = 'the answer text is not JSON';
          continue;
        }
      } else {
        candidate = answer.value;
      }
      if (schema.validate(candidate)) {
        const value = candidate === undefined ? null : (JSON.parse(JSON.stringify(candidate)) as unknown);
        call.status = 'answered';
        call.answer = value;
        return { ok: true, value };
      }
      problem = schema.lastError();
    }
    const outcome = failure(
      'Error',
      `agent(): structured output failed the schema after ${maxAttempts} attempts: ${problem}`,
    );
    call.error = (outcome as { error: HostError }).error;
    return outcome;
  }
}

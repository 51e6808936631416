import { AnswerBook, type ScriptedAnswer, type ScriptedToolCall } from '../host/answers.js';
import { DEFAULT_TEXT_ANSWER, defaultAnswerFor } from '../host/default-answer.js';
import { agentKeyOf, computedTaskOf, mainTurnOf, textsOf, toolResultsOf, workingDirectoryOf, type MessagesRequest, type Trigger } from './request.js';
import { commandFailed, scribeAck, scribeCommandsIn, type CommandOutcome } from './scribe.js';
import type { MainStep, ModelScript } from './script.js';
import { defaultFinalReviewTurn, defaultSessionTurn } from './session.js';
import type { Reply, ReplyBlock } from './sse.js';

/** The agent label the workflow gives its scribe (runtime/workflow/context.ts). */
const SCRIBE_KEY = 'scribe';
const STRUCTURED_OUTPUT = 'StructuredOutput';

/** One logged request: who asked and what the model answered. */
export interface ModelLogEntry {
  n: number;
  thread: 'main' | 'subagent';
  agentId: string | null;
  /** A subagent's answer-script key (its label); the main thread's trigger. */
  key: string;
  /** 1 for a subagent's first request; a retry after a refused structured answer counts up. */
  attempt: number;
  schema: Record<string, unknown> | null;
  reply: string;
}

/** A workflow subagent's conversation, by agent id. */
interface AgentTurns {
  key: string;
  /** The answer being played (null: the default answer). */
  answer: ScriptedAnswer | null;
  attempt: number;
  toolsPlayed: number;
  /** tool_use ids of the StructuredOutput calls sent, to spot a refusal. */
  structuredIds: Set<string>;
  /** The scribe player's Bash calls, by tool_use id. */
  commands: Map<string, string>;
}

/**
 * The scripted model: answers each Messages API request from a model script (script.ts),
 * deterministically. Subagents are told apart by `x-claude-code-agent-id` and keyed by the
 * label their prompt's step line names; the main thread follows `main`, `afterWorkflow` and
 * the session rules. Agents without a rule get the stand-in host's default answer.
 */
export class ScriptedModel {
  readonly log: ModelLogEntry[] = [];
  /** The results of the workflows whose task notification reached the main thread, in order. */
  readonly workflowResults: unknown[] = [];
  private notifications = 0;
  private readonly book: AnswerBook;
  private readonly agents = new Map<string, AgentTurns>();
  private ids = 0;

  constructor(private readonly script: ModelScript) {
    this.book = new AnswerBook(script.agents);
  }

  /** The reply to one request; `agentId` is the x-claude-code-agent-id header. */
  reply(request: MessagesRequest, agentId: string | null): Reply {
    const prompt = computedTaskOf(request.messages);
    return agentId !== null && prompt !== null ? this.agentReply(request, agentId, prompt) : this.mainReply(request);
  }

  private nextId(): string {
    this.ids += 1;
    return `toolu_scripted_${String(this.ids).padStart(4, '0')}`;
  }

  private record(entry: Omit<ModelLogEntry, 'n'>): void {
    this.log.push({ n: this.log.length + 1, ...entry });
  }

  private agentReply(request: MessagesRequest, agentId: string, prompt: string): Reply {
    const schema = request.tools?.find((tool) => tool.name === STRUCTURED_OUTPUT)?.input_schema ?? null;
    const results = toolResultsOf(request.messages);
    let turns = this.agents.get(agentId);
    if (!turns) {
      const key = agentKeyOf(prompt);
      turns = { key, answer: this.book.draw(key)?.answer ?? null, attempt: 1, toolsPlayed: 0, structuredIds: new Set(), commands: new Map() };
      this.agents.set(agentId, turns);
    } else {
      const last = results.at(-1);
      if (last && turns.structuredIds.has(last.toolUseId)) {
        // The client refused the structured answer: the next attempt draws the next answer.
        turns.attempt += 1;
        turns.answer = this.book.draw(turns.key)?.answer ?? null;
        turns.toolsPlayed = Number.MAX_SAFE_INTEGER;
      }
    }
    const reply = this.playAgent(turns, prompt, schema, results);
    this.record({ thread: 'subagent', agentId, key: turns.key, attempt: turns.attempt, schema, reply: describe(reply) });
    return reply;
  }

  private playAgent(turns: AgentTurns, prompt: string, schema: Record<string, unknown> | null, results: ReturnType<typeof toolResultsOf>): Reply {
    const answer = turns.answer;
    if (answer === null && turns.key === SCRIBE_KEY) return this.playScribe(turns, prompt, schema, results);
    const tools: ScriptedToolCall[] = answer && 'tools' in answer ? (answer.tools ?? []) : [];
    if (turns.toolsPlayed < tools.length) {
      const call = tools[turns.toolsPlayed]!;
      turns.toolsPlayed += 1;
      return { kind: 'message', blocks: [{ type: 'tool_use', id: this.nextId(), name: call.tool, input: call.input }] };
    }
    if (answer !== null && ('die' in answer || 'skip' in answer || 'throw' in answer)) {
      const status = 'die' in answer ? (answer.status ?? 400) : 400;
      return { kind: 'error', status, message: `scripted model: this agent dies on an API error (HTTP ${status})` };
    }
    const value = answer === null ? (schema ? defaultAnswerFor(schema) : DEFAULT_TEXT_ANSWER) : 'value' in answer ? answer.value : 'invalid' in answer ? answer.invalid : undefined;
    if (answer !== null && 'text' in answer) return { kind: 'message', blocks: [{ type: 'text', text: answer.text }] };
    if (schema) return this.structured(turns, value);
    return { kind: 'message', blocks: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) ?? '' }] };
  }

  private structured(turns: AgentTurns, value: unknown): Reply {
    const id = this.nextId();
    turns.structuredIds.add(id);
    const input = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
    return { kind: 'message', blocks: [{ type: 'tool_use', id, name: STRUCTURED_OUTPUT, input }] };
  }

  /** Runs the scribe's commands one Bash call at a time, then answers the ack from their output. */
  private playScribe(turns: AgentTurns, prompt: string, schema: Record<string, unknown> | null, results: ReturnType<typeof toolResultsOf>): Reply {
    const commands = scribeCommandsIn(prompt);
    const outcomes: CommandOutcome[] = results
      .filter((result) => turns.commands.has(result.toolUseId))
      .map((result) => ({ command: turns.commands.get(result.toolUseId)!, output: result.text, failed: result.isError }));
    const stopped = outcomes.some(commandFailed);
    if (!stopped && outcomes.length < commands.length) {
      const id = this.nextId();
      const command = commands[outcomes.length]!;
      turns.commands.set(id, command);
      return { kind: 'message', blocks: [{ type: 'tool_use', id, name: 'Bash', input: { command, description: 'Leopold scribe write' } }] };
    }
    // A batch that ran `leopold plan amend` has an ack schema that requires `added` (context.ts withAdded).
    const expectsAdded = Array.isArray(schema?.required) && schema.required.includes('added');
    const ack = scribeAck(outcomes, expectsAdded);
    return schema ? this.structured(turns, ack) : { kind: 'message', blocks: [{ type: 'text', text: JSON.stringify(ack) }] };
  }

  private mainReply(request: MessagesRequest): Reply {
    const { trigger, done } = mainTurnOf(request.messages);
    const cwd = workingDirectoryOf(request) ?? '.';
    const seen = request.messages.filter((m) => m.role === 'user' && textsOf(m).some((t) => t.includes('<task-notification>'))).length;
    if (trigger.kind === 'workflow' && seen > this.notifications) {
      this.notifications = seen;
      this.workflowResults.push(trigger.result);
    }
    const steps = this.stepsFor(trigger, cwd);
    const step = steps[done];
    if (step !== undefined && 'error' in step) {
      const failed: Reply = { kind: 'error', status: step.error.status, message: step.error.message };
      this.record({ thread: 'main', agentId: null, key: trigger.kind === 'stop-hook' ? `stop-hook:${trigger.item ?? '-'}` : trigger.kind, attempt: done + 1, schema: null, reply: describe(failed) });
      return failed;
    }
    const blocks: ReplyBlock[] =
      step === undefined
        ? [{ type: 'text', text: 'Done.' }]
        : 'text' in step
          ? [{ type: 'text', text: fill(step.text, trigger) }]
          : [{ type: 'tool_use', id: this.nextId(), name: step.tool, input: fillDeep(step.input, trigger) as Record<string, unknown> }];
    const reply: Reply = { kind: 'message', blocks };
    this.record({ thread: 'main', agentId: null, key: trigger.kind === 'stop-hook' ? `stop-hook:${trigger.item ?? '-'}` : trigger.kind, attempt: done + 1, schema: null, reply: describe(reply) });
    return reply;
  }

  private stepsFor(trigger: Trigger, cwd: string): MainStep[] {
    switch (trigger.kind) {
      case 'start':
        return this.script.main;
      case 'workflow':
        return this.script.afterWorkflow;
      case 'stop-hook': {
        if (trigger.item === null) return defaultFinalReviewTurn(trigger.reason, cwd);
        const rule = this.script.session.find((r) => r.item === trigger.item);
        if (!rule) return defaultSessionTurn(trigger.reason, trigger.protocol, trigger.item, cwd);
        return rule.turns[Math.min(trigger.handedOut, rule.turns.length - 1)] ?? [];
      }
    }
  }
}

/** A reply in one line, for the request log. */
function describe(reply: Reply): string {
  if (reply.kind === 'error') return `error ${reply.status}`;
  return reply.blocks.map((block) => (block.type === 'text' ? `text ${JSON.stringify(block.text.slice(0, 80))}` : `${block.name} ${JSON.stringify(block.input).slice(0, 160)}`)).join('; ');
}

function fill(text: string, trigger: Trigger): string {
  return text.replace(/\{\{(result\.\w+|item)\}\}/g, (all, name: string) => {
    if (name === 'item') return trigger.kind === 'stop-hook' && trigger.item !== null ? String(trigger.item) : all;
    const result = trigger.kind === 'workflow' ? trigger.result : null;
    const value = result && typeof result === 'object' ? (result as Record<string, unknown>)[name.slice('result.'.length)] : undefined;
    return value === undefined ? all : typeof value === 'string' ? value : JSON.stringify(value);
  });
}

function fillDeep(value: unknown, trigger: Trigger): unknown {
  if (typeof value === 'string') return fill(value, trigger);
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, trigger));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, trigger)]));
  return value;
}

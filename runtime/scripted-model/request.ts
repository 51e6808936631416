/**
 * A Messages API request as the scripted model reads it: who is asking (the main thread or
 * a workflow subagent), the agent() prompt of a subagent, and the tool results the client
 * sent back. Only the fields docs/host.md documents are read.
 */

type Block = { type: string; text?: string; id?: string; name?: string; input?: unknown; tool_use_id?: string; content?: unknown; is_error?: boolean };
type Message = { role: string; content: string | Block[] };

/** The request body fields the scripted model reads. */
export interface MessagesRequest {
  model?: string;
  messages: Message[];
  tools?: { name: string; input_schema?: Record<string, unknown> }[];
  stream?: boolean;
}

/** A tool result the client sent, as text. */
export interface ToolResult {
  toolUseId: string;
  text: string;
  isError: boolean;
}

/** The first line of every agent() prompt a Leopold workflow sends (runtime/workflow/context.ts). */
export const STEP_LINE = /^Leopold step (\S+)\.$/;
const COMPUTED_TASK = '[Workflow harness — computed task]';
const TASK_FOLLOWS = 'The computed task text follows:\n';

const blocksOf = (message: Message): Block[] => (typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content);

/** The text blocks of one message. */
export function textsOf(message: Message): string[] {
  return blocksOf(message).flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []));
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part && typeof part === 'object' && typeof part.text === 'string' ? part.text : '')).join('\n');
  return '';
}

/** Every tool result of the conversation, in order. */
export function toolResultsOf(messages: readonly Message[]): ToolResult[] {
  return messages.flatMap((message) =>
    message.role !== 'user'
      ? []
      : blocksOf(message).flatMap((block) =>
          block.type === 'tool_result' ? [{ toolUseId: String(block.tool_use_id ?? ''), text: resultText(block.content), isError: block.is_error === true }] : [],
        ),
  );
}

/** The agent() prompt a workflow subagent was given, or null when this is not one. */
export function computedTaskOf(messages: readonly Message[]): string | null {
  const first = messages.find((message) => message.role === 'user');
  if (!first) return null;
  const text = textsOf(first).find((t) => t.startsWith(COMPUTED_TASK));
  if (text === undefined) return null;
  const at = text.indexOf(TASK_FOLLOWS);
  const body = at >= 0 ? text.slice(at + TASK_FOLLOWS.length) : text.slice(text.indexOf('\n') + 1);
  // The harness indents every line of the computed text by two spaces.
  return body
    .split('\n')
    .map((line) => (line.startsWith('  ') ? line.slice(2) : line))
    .join('\n');
}

/** The answer-script key of an agent() prompt: the label its step line names, else its first line (as the stand-in host keys an unlabelled agent). */
export function agentKeyOf(prompt: string): string {
  const first = prompt.split('\n', 1)[0] ?? '';
  return STEP_LINE.exec(first)?.[1] ?? first;
}

/** What started the main thread's current turn. */
export type Trigger =
  | { kind: 'start' }
  | { kind: 'workflow'; result: unknown }
  /** `protocol`: the run's protocol as the latest block that carried it gave it ('' before any). */
  | { kind: 'stop-hook'; item: number | null; reason: string; protocol: string; handedOut: number };

const STOP_FEEDBACK = 'Stop hook feedback:';
/** The line that opens the run's protocol in a Stop-hook block (runtime/hooks/stop/reason.ts). */
const PROTOCOL_MARKER = 'Leopold run protocol';
const ITEM_LINE = /Work on item (\d+) now/;

/** The session's working directory as the client's environment section states it, or null. */
export function workingDirectoryOf(request: MessagesRequest): string | null {
  const text = JSON.stringify(request.messages) + JSON.stringify((request as { system?: unknown }).system ?? '');
  return /Primary working directory: ([^\\"]+?)(?:\\n|")/.exec(text)?.[1] ?? null;
}

/** The main thread's current trigger and how many assistant turns already answered it. */
export function mainTurnOf(messages: readonly Message[]): { trigger: Trigger; done: number } {
  let at = -1;
  let trigger: Trigger = { kind: 'start' };
  let protocol = '';
  const handedOut = new Map<number, number>();
  messages.forEach((message, index) => {
    if (message.role !== 'user') return;
    const text = textsOf(message).join('\n');
    if (text.includes('<task-notification>')) {
      at = index;
      trigger = { kind: 'workflow', result: workflowResultOf(text) };
    } else if (text.includes(STOP_FEEDBACK)) {
      at = index;
      // A block the hook answered with exit 2 reads `[<hook command>]: <reason>`.
      const reason = text
        .slice(text.indexOf(STOP_FEEDBACK) + STOP_FEEDBACK.length)
        .trim()
        .replace(/^\[[^\]\n]*\]: /, '')
        .replace(/\s*<\/system-reminder>\s*$/, '');
      if (reason.includes(PROTOCOL_MARKER)) protocol = reason.slice(reason.indexOf(PROTOCOL_MARKER));
      const match = ITEM_LINE.exec(reason);
      const item = match ? Number(match[1]) : null;
      const count = item === null ? 0 : (handedOut.get(item) ?? 0);
      if (item !== null) handedOut.set(item, count + 1);
      trigger = { kind: 'stop-hook', item, reason, protocol, handedOut: count };
    } else if (at < 0 && index === messages.findIndex((m) => m.role === 'user')) {
      at = index;
    }
  });
  const done = messages.slice(at + 1).filter((message) => message.role === 'assistant').length;
  return { trigger, done };
}

/** The `<result>` JSON of a workflow's task notification (null when absent or not JSON). */
export function workflowResultOf(text: string): unknown {
  const match = /<result>([\s\S]*?)<\/result>/.exec(text);
  if (!match) return null;
  try {
    return JSON.parse(match[1] ?? '') as unknown;
  } catch {
    return null;
  }
}

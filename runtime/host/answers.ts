import { z } from 'zod';

const tokens = z.number().int().min(0).optional();

/**
 * A tool call the agent makes before it answers. The stand-in host has no tools and skips
 * them (its run touches no file); the scripted model server (runtime/scripted-model) plays
 * them in the real client, one tool_use per model turn, in order.
 */
export const ScriptedToolCallSchema = z.strictObject({
  tool: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
});
export type ScriptedToolCall = z.infer<typeof ScriptedToolCallSchema>;
const tools = z.array(ScriptedToolCallSchema).optional();

/** One scripted agent answer (docs/host-contract.md outcomes). */
export const ScriptedAnswerSchema = z.union([
  /** The agent's structured answer (with a schema) or its final text (without: strings as is, other values as JSON). */
  z.strictObject({ value: z.unknown(), tokens, tools }),
  /** The agent's raw final text; with a schema it is parsed as JSON, and unparsable text is a failed attempt. */
  z.strictObject({ text: z.string(), tokens, tools }),
  /** The user skipped the agent: agent() resolves to null. */
  z.strictObject({ skip: z.literal(true), tokens }),
  /**
   * The agent died on a final API error: agent() resolves to null. In the real client the
   * scripted model answers its requests with HTTP `status` (default 400, which the client
   * never retries; 429, 500 and 529 it retries first); the stand-in has no HTTP and ignores it.
   */
  z.strictObject({ die: z.literal(true), status: z.number().int().min(400).max(599).optional(), tokens }),
  /** The agent stalled after the host's retries: agent() throws. */
  z.strictObject({ throw: z.literal('stall'), tokens }),
  /** Structured output that fails validation, whatever it holds: one failed attempt. */
  z.strictObject({ invalid: z.unknown(), tokens, tools }),
]);
export type ScriptedAnswer = z.infer<typeof ScriptedAnswerSchema>;

/** Answers for the agents whose label (or, without one, the prompt's first line) matches. */
export const AnswerRuleSchema = z.strictObject({
  /** Exact text, or `/pattern/flags` for a regular expression. */
  label: z.string().min(1),
  /** Consumed in order; the last one repeats unless `once`. */
  answers: z.array(ScriptedAnswerSchema).min(1),
  /** After the last answer the rule stops matching, and later rules or the default answer apply. */
  once: z.boolean().optional(),
});
export type AnswerRule = z.infer<typeof AnswerRuleSchema>;

/** An answer file (`leopold simulate --answers FILE`): rules tried in order, the first match answers. */
export const AnswerScriptSchema = z.array(AnswerRuleSchema);
export type AnswerScript = z.infer<typeof AnswerScriptSchema>;

/** A rule's label as a matcher: `/…/flags` is a regex (stateful flags g and y dropped), anything else exact text. */
function matcherOf(label: string): (key: string) => boolean {
  const regex = /^\/(.*)\/([a-z]*)$/s.exec(label);
  if (!regex) return (key) => key === label;
  const pattern = new RegExp(regex[1] ?? '', (regex[2] ?? '').replace(/[gy]/g, ''));
  return (key) => pattern.test(key);
}

/** The text a rule matches: the label, else the prompt's first line. */
export function answerKey(label: string | null, prompt: string): string {
  return label ?? prompt.split('\n', 1)[0] ?? '';
}

/** The next scripted answer and the rule it came from. */
export interface DrawnAnswer {
  answer: ScriptedAnswer;
  rule: number;
}

/**
 * The answer script with a cursor per rule. Draws happen in agent start order, which the
 * script's call order fixes, so the same script and answers always draw the same answers.
 */
export class AnswerBook {
  private readonly rules: { rule: AnswerRule; matches: (key: string) => boolean; next: number }[];

  constructor(script: AnswerScript) {
    this.rules = script.map((rule) => ({ rule, matches: matcherOf(rule.label), next: 0 }));
  }

  /** The next answer for this key, or null when no rule (with answers left) matches. */
  draw(key: string): DrawnAnswer | null {
    for (const [index, entry] of this.rules.entries()) {
      const { rule } = entry;
      if (!entry.matches(key)) continue;
      if (entry.next >= rule.answers.length && rule.once) continue;
      const answer = rule.answers[Math.min(entry.next, rule.answers.length - 1)];
      entry.next += 1;
      if (answer) return { answer, rule: index };
    }
    return null;
  }
}

/** Parses an answer file's JSON value; throws a one-line error naming the first problem. */
export function parseAnswerScript(value: unknown): AnswerScript {
  const parsed = AnswerScriptSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.map(String).join('.') : '(root)';
  throw new Error(`invalid answer script at ${where}: ${issue?.message ?? 'unknown problem'}`);
}

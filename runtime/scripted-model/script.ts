import { z } from 'zod';
import { AnswerScriptSchema, parseAnswerScript } from '../host/answers.js';

/**
 * One main-thread model turn: a tool call (Bash, Write, Workflow, Skill, any tool the
 * client offers), a final text that ends the turn, or an API error in place of an answer
 * (`status` 429, 500, 529, 401, …; with the client's retries off, the turn dies on it and
 * the client fires StopFailure). Strings may hold `{{result.<key>}}` (a field of the last
 * workflow result) and `{{item}}` (the item a Stop-hook block named).
 */
export const MainStepSchema = z.union([
  z.strictObject({ tool: z.string().min(1), input: z.record(z.string(), z.unknown()) }),
  z.strictObject({ text: z.string() }),
  z.strictObject({ error: z.strictObject({ status: z.number().int().min(400).max(599), message: z.string().default('scripted model: an API error') }) }),
]);
export type MainStep = z.infer<typeof MainStepSchema>;

/** What the main thread does each time the Stop hook hands it item N (`turns[k]` on the k-th time; the last repeats). */
export const SessionRuleSchema = z.strictObject({
  item: z.number().int().min(1),
  turns: z.array(z.array(MainStepSchema)).min(1),
});
export type SessionRule = z.infer<typeof SessionRuleSchema>;

/**
 * A model script: what the scripted model does in the real client (docs/host.md, "The
 * scripted model"). `agents` are the workflow subagents' answers, the very rules
 * `leopold simulate --answers` reads, so one file drives both hosts; `main` is the first
 * main-thread turn, `afterWorkflow` the turn after a workflow's result arrives, `session`
 * the turns after a Stop-hook block names an item (else the default session player ticks it).
 */
export const ModelScriptSchema = z.strictObject({
  agents: AnswerScriptSchema.default([]),
  main: z.array(MainStepSchema).default([]),
  afterWorkflow: z.array(MainStepSchema).default([]),
  session: z.array(SessionRuleSchema).default([]),
});
export type ModelScript = z.infer<typeof ModelScriptSchema>;

/**
 * Reads an answers / model-script file's JSON: an array is the agents' answers alone (the
 * `simulate --answers` format), an object a whole model script. Throws a one-line error
 * naming the first problem.
 */
export function parseModelScript(value: unknown): ModelScript {
  if (Array.isArray(value)) return ModelScriptSchema.parse({ agents: parseAnswerScript(value) });
  const parsed = ModelScriptSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.map(String).join('.') : '(root)';
  throw new Error(
    `invalid answer script at ${where}: ${issue?.message ?? 'unknown problem'} (expected an array of answer rules, or a model script object with agents, main, afterWorkflow, session)`,
  );
}

import { z } from 'zod';

/** The efforts agent() accepts (docs/host-contract.md). */
export const AGENT_EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;

const text = (what: string) => z.string({ error: `${what} must be a string` }).min(1, { error: `${what} must be a non-empty string` });

/** agent()'s options; unknown keys are refused so a misspelt option fails loudly. */
export const AgentOptionsSchema = z.strictObject(
  {
    label: text('label').optional(),
    phase: text('phase').optional(),
    schema: z.record(z.string(), z.unknown(), { error: 'schema must be an object' }).optional(),
    model: text('model').optional(),
    effort: z.enum(AGENT_EFFORTS, { error: `effort must be one of ${AGENT_EFFORTS.join('|')}` }).optional(),
    isolation: z.literal('worktree', { error: "isolation must be 'worktree'" }).optional(),
    agentType: text('agentType').optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown option ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}` : 'opts must be an object') },
);
export type AgentOptions = z.infer<typeof AgentOptionsSchema>;

/** The options, validated; throws a TypeError naming the first problem. */
export function validateAgentOptions(options: unknown): AgentOptions {
  const parsed = AgentOptionsSchema.safeParse(options ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new TypeError(`agent(): ${issue?.message ?? 'invalid options'}`);
}

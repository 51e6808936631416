import { z } from 'zod';
import { DecisionInputSchema } from '../decisions/schema.js';
import { PersonaAnswerSchema } from '../persona/schema.js';

/**
 * Every answer shape a workflow agent gives, as zod schemas: the single source of the
 * agent() JSON Schemas. This module is used at BUILD time only (scripts/build.mjs calls
 * agentJsonSchemas() and embeds the plain objects in dist/workflow-runtime.js); the run
 * loop imports its types with `import type`, so zod never reaches the emitted script.
 */

/**
 * The values a node reports for the signal keys it declares (`@emit key=value`): one value
 * per key. Routes test them; a key declared with several values is a steering choice. Each
 * call narrows it to the node's own keys and values (runtime/workflow/signals.ts); a key
 * left out sends its first declared value.
 */
export const SignalsSchema = z
  .record(z.string(), z.string())
  .describe('The value you chose for each signal key this item declares (@emit); omit when it declares none');

const TestRunSchema = z.object({
  command: z.string().min(1).describe('The exact command run, e.g. "npm test -- count"'),
  result: z.enum(['pass', 'fail', 'not-run']).describe('not-run when nothing was run'),
  summary: z.string().describe('One line: what the run showed'),
});

/**
 * A decision an implementer made inside an item, as DECISIONS.md records it: the record
 * schema's own fields (the workflow fills in the item, its text and the turn). A full
 * entry (class, charter, decision, why, reversal), or a one-line mechanical one.
 */
export const ItemDecisionSchema = DecisionInputSchema.pick({ title: true, class: true, charter: true, decision: true, why: true, reversal: true, mechanical: true });

/** The implementer's handoff (docs/workflow.md, "Agents and their answer schemas"). */
export const HandoffSchema = z.object({
  status: z.enum(['completed', 'partial', 'blocked']),
  files_changed: z.array(z.string()),
  tests_run: z.array(TestRunSchema).min(1).describe('At least one entry; say not-run when no test was run'),
  evidence: z.string().describe('What shows the item works (output, file:line)'),
  blocked_reason: z
    .string()
    .describe('When blocked: a stop token first (too-big, needs-confirm, ambiguous, regressed, scope; for a person only: gated, premise, charter-contradiction, never-rule), then why; else ""'),
  concerns: z.array(z.string()),
  decisions: z
    .array(ItemDecisionSchema)
    .optional()
    .describe("Every decision you made on the user's behalf while doing the item, as the decision protocol says; [] when none"),
  signals: SignalsSchema.optional(),
});

/** The verifier's verdict after re-running the tests the item needs. */
export const VerificationSchema = z.object({
  verdict: z.enum(['pass', 'fail']),
  tests_run: z.array(TestRunSchema).min(1),
  evidence: z.string(),
});

/** One review finding (docs/workflow.md). */
export const FindingSchema = z.object({
  severity: z.enum(['P0', 'P1', 'P2']),
  type: z
    .string()
    .describe(
      'defect (violates a spec, a documented contract or stated behaviour), scenario or probe (fails an acceptance scenario or probe), hardening, refactor, test-gap, docs, design',
    ),
  file: z.string(),
  line: z.number().int().min(0).describe('0 when the finding is not about one line'),
  problem: z.string(),
  fix: z.string(),
  introduced: z.boolean().describe('true when this item introduced the problem'),
});

/** A reviewer's answer: findings (empty when none) and a one-line summary. */
export const ReviewSchema = z.object({
  findings: z.array(FindingSchema),
  summary: z.string(),
});

/** A `@gate` / `@verify` judgement (read-only). */
export const JudgementSchema = z.object({
  verdict: z.enum(['pass', 'fail']),
  reasons: z.string(),
  signals: SignalsSchema.optional(),
});

/** A `@tool` run: the command's exit code and the tail of its output. */
export const ToolRunSchema = z.object({
  exit: z.number().int(),
  output: z.string().describe('The output lines that show what failed (the failing test and its assertion), not only a summary'),
  signals: SignalsSchema.optional(),
});

/** A `@feedback` node's proposals: a ```leopold-amend block (ADD lines), or "" for none. */
export const FeedbackSchema = z.object({
  amendments: z.string(),
  summary: z.string(),
  signals: SignalsSchema.optional(),
});

/** A decision taken at a fork (`@human` under full, an escalation): one DECISIONS.md entry. */
export const ForkDecisionSchema = z.object({
  title: z.string().describe('One line naming what was decided'),
  class: z.enum(['reversible', 'irreversible']),
  charter: z.string().describe('The charter rule that decided it, verbatim, or "silent"'),
  decision: z.string(),
  why: z.string().describe('The principle or rule'),
  reversal: z.string().describe('How to undo it, concretely'),
  summary: z.string().describe('What you did after deciding'),
  signals: SignalsSchema.optional(),
});

/** The rescue persona's one genuinely different approach. */
export const RescueApproachSchema = z.object({
  approach: z.string().min(1),
});

/**
 * The scribe's acknowledgement: the CLI's `ok`, the decision numbers `leopold record`
 * printed, when the batch ran `leopold plan amend` the item indexes it `added`, and when
 * `leopold record` printed one, the `api_error` an agent of the run died on (the script's
 * only way to learn it: docs/workflow.md, "An agent that dies on an API error").
 */
export const ScribeAckSchema = z.object({
  ok: z.boolean(),
  numbers: z.array(z.number().int().min(1)),
  added: z.array(z.number().int().min(1)).optional().describe('The "added" array leopold plan amend printed; only when the batch ran it'),
  api_error: z
    .object({ error: z.string().min(1), retryable: z.boolean() })
    .optional()
    .describe('The "api_error" object leopold record printed, exactly; only when it printed one'),
  error: z.string().optional(),
});

export type Handoff = z.infer<typeof HandoffSchema>;
export type ItemDecision = z.infer<typeof ItemDecisionSchema>;
export type Verification = z.infer<typeof VerificationSchema>;
export type Finding = z.infer<typeof FindingSchema>;
export type Review = z.infer<typeof ReviewSchema>;
export type Judgement = z.infer<typeof JudgementSchema>;
export type ToolRun = z.infer<typeof ToolRunSchema>;
export type Feedback = z.infer<typeof FeedbackSchema>;
export type ForkDecision = z.infer<typeof ForkDecisionSchema>;
export type RescueApproach = z.infer<typeof RescueApproachSchema>;
export type ScribeAck = z.infer<typeof ScribeAckSchema>;

const SCHEMAS = {
  handoff: HandoffSchema,
  verification: VerificationSchema,
  review: ReviewSchema,
  judgement: JudgementSchema,
  tool: ToolRunSchema,
  feedback: FeedbackSchema,
  persona: PersonaAnswerSchema,
  decision: ForkDecisionSchema,
  rescue: RescueApproachSchema,
  scribeAck: ScribeAckSchema,
} as const;

/** The name of each agent answer shape. */
export type AgentSchemaName = keyof typeof SCHEMAS;

/** JSON Schema objects by name, as embedded in the runtime bundle. */
export type AgentJsonSchemas = Record<AgentSchemaName, Record<string, unknown>>;

/**
 * The agent() JSON Schemas, generated from the zod schemas above. Draft-07 without
 * `$schema` (the host checks with Ajv's default draft). Keys sorted for stable bytes.
 */
export function agentJsonSchemas(): AgentJsonSchemas {
  const out = {} as AgentJsonSchemas;
  for (const name of Object.keys(SCHEMAS).sort() as AgentSchemaName[]) {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(SCHEMAS[name], { target: 'draft-7' }) as Record<string, unknown>;
    void _ignored;
    out[name] = schema;
  }
  return out;
}

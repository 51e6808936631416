import { z } from 'zod';

/** The four stop points where a persona is synthesized (docs/decisions.md). */
export const PersonaForkSchema = z.enum(['human', 'escalation', 'repair', 'repeated-failure']);
export type PersonaFork = z.infer<typeof PersonaForkSchema>;

/** The one model answer a synthesis asks for; also the agent() schema (generated below). */
export const PersonaAnswerSchema = z.object({
  name: z.string().min(1).describe('A human name for this role, e.g. "Ada Park"'),
  role: z.string().min(1).describe('A specific job title, never a generic one such as "assistant" or "engineer"'),
  expertise: z.array(z.string().min(1)).min(1).describe('What this person knows that the decision needs'),
  optimizesFor: z.array(z.string()).describe('What this person weighs highest when choosing'),
  rationale: z.string().describe('One or two sentences: why this role fits this decision'),
});
export type PersonaAnswer = z.infer<typeof PersonaAnswerSchema>;

/** A persona that passed acceptPersona, with the charter's binding rules attached. */
export const PersonaSchema = PersonaAnswerSchema.extend({
  /** Lifted from CHARTER.md by charterRules, never taken from the model. */
  rules: z.array(z.string()),
});
export type Persona = z.infer<typeof PersonaSchema>;

/**
 * The JSON Schema handed to agent({ schema }). Draft-07 without `$schema`: the host checks
 * with Ajv, whose default instance does not load the 2020-12 meta-schema.
 */
export function personaAnswerJsonSchema(): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(PersonaAnswerSchema, { target: 'draft-7' });
  void _ignored;
  return schema;
}

import { z } from 'zod';
import type { JsonSchema } from './json-check.js';
import { DecisionInputSchema, DecisionPersonaSchema, RECORDED_EVENT_NAMES, REPORTED_EVENTS } from './schema.js';

/** What `leopold record` checks a document against, and what the record templates are made from. */
export interface RecordSchemas {
  decision: JsonSchema;
  persona: JsonSchema;
  /** A reported event's schema by its name. */
  events: Record<string, JsonSchema>;
  /** Every event name `leopold record` accepts. */
  names: readonly string[];
}

const jsonOf = (schema: z.ZodType): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as JsonSchema & { $schema?: unknown };
  void _ignored;
  return rest;
};

/**
 * The JSON Schemas of schema.ts. The build replaces this module with the value it returns
 * (scripts/build.mjs, `record-schemas-as-data`), so the CLI and the hooks carry the data
 * and never load zod; run from source, it is computed here.
 */
export function recordSchemas(): RecordSchemas {
  return {
    decision: jsonOf(DecisionInputSchema),
    persona: jsonOf(DecisionPersonaSchema),
    events: Object.fromEntries(Object.entries(REPORTED_EVENTS).map(([name, schema]) => [name, jsonOf(schema)])),
    names: RECORDED_EVENT_NAMES,
  };
}

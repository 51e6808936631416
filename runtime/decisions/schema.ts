import { z } from 'zod';
import { DECISION_CLASSES, DECISION_FORKS, FAILURE_KINDS, LEOPOLD_EVENTS, PERSON_REASONS } from './forks.js';
import { OUTCOME_LABELS } from '../run/index.js';

/**
 * What `leopold record` accepts, defined once: a document of decisions and events. The
 * JSON Schemas `leopold record` checks input with, and the record templates the Stop hook
 * hands out, are generated from these (record-schemas.ts: at build time, so neither the
 * CLI's record chunk nor the hook loads zod). Field descriptions are the templates'
 * placeholders: `<what failed: …>` in a template is the description of that field.
 */

/** The stop points a decision can come from (`deadlock` is a repair of a stuck graph). */
export const DecisionForkSchema = z.enum(DECISION_FORKS);
export type DecisionFork = z.infer<typeof DecisionForkSchema>;

/** Whether a decision can be undone; only `reversible` may be made on a silent charter. */
export const DecisionClassSchema = z.enum(DECISION_CLASSES);
export type DecisionClass = z.infer<typeof DecisionClassSchema>;

/** The persona as an entry names it; `null` on a persona fork means none could be synthesized. */
export const DecisionPersonaSchema = z.object({
  name: z.string().trim().min(1).describe('name'),
  role: z.string().trim().min(1).describe('a specific job, never a generic role'),
  expertise: z.array(z.string().trim().min(1).describe('expertise')),
});
export type DecisionPersona = z.infer<typeof DecisionPersonaSchema>;

/** An item's number in PLAN.md (1-based). */
const itemNumber = z.number().int().min(1).describe('the item number');

/**
 * One decision as `leopold record` accepts it. A mechanical decision needs only a title
 * (and says what was done in `decision`); a full entry needs class, charter, decision and
 * why (runtime/decisions/protocol.ts refuses one without them). An absent or blank
 * `reversal` becomes DEFAULT_REVERSAL, which the ranking counts as a risk.
 */
export const DecisionInputSchema = z.object({
  title: z.string().trim().min(1).describe('one-line title'),
  fork: DecisionForkSchema.optional(),
  /** Which item the fork was at: its index, or a short description. */
  item: z.union([itemNumber, z.string().trim().min(1)]).optional(),
  /** The item's text when `item` is its index: the Fork line quotes it and the risk ranking reads it. */
  subject: z.string().optional().describe("the item's text, as the turn names it"),
  persona: DecisionPersonaSchema.nullable().optional(),
  class: DecisionClassSchema.optional(),
  charter: z.string().optional().describe('the CHARTER rule that decided it, verbatim, or silent'),
  decision: z.string().optional().describe('what you chose'),
  why: z.string().optional().describe('the principle or rule'),
  reversal: z.string().optional().describe('how to undo it, concretely'),
  turn: z.number().int().min(0).optional().describe('the turn number'),
  mechanical: z.boolean().optional(),
});
export type DecisionInput = z.infer<typeof DecisionInputSchema>;

const event = <N extends string, S extends z.ZodRawShape>(name: N, shape: S) => z.object({ event: z.literal(name), item: itemNumber, ...shape });

/**
 * The events a session reports on the item it was handed (the Stop hook folds them into
 * the run model; the workflow's scribe writes the same ones for its agents' answers). Each
 * is checked field by field: a wrong type or a placeholder left in is refused.
 */
export const REPORTED_EVENTS = {
  failure: event('failure', {
    kind: z.enum(FAILURE_KINDS),
    evidence: z.string().trim().min(1).describe('what failed: the command and the lines of its output that show it'),
  }),
  'item-open': event('item-open', { reason: z.string().trim().min(1).describe('why it must stay open') }),
  gate: event('gate', { verdict: z.enum(['pass', 'fail']), reasons: z.string().describe('why') }),
  verify: event('verify', { verdict: z.enum(['pass', 'fail']), reasons: z.string().describe('why') }),
  // A passing verification of a work item; `leopold record` stamps it with the tree's fingerprint (runtime/verify).
  verified: event('verified', { commands: z.array(z.string().trim().min(1).describe('a test command you ran, passing')).min(1) }),
  tool: event('tool', {
    command: z.string().describe('the command as run'),
    // null: the workflow's tool agent gave no answer (the scribe records that it did not run).
    exit: z.number().int().nullable().describe('its exit code, a number'),
    output: z.string().optional().describe('the output lines that show what failed'),
  }),
  signals: event('signals', { values: z.record(z.string(), z.string()) }),
  amendments: event('amendments', { proposals: z.string().optional().describe('the ADD lines, or empty') }).loose(),
  escalation: event('escalation', { question: z.string().trim().min(1).describe('the fork nobody could settle') }),
  'needs-person': event('needs-person', {
    reason: z.enum(PERSON_REASONS),
    question: z.string().trim().min(1).describe('what the person must decide or do, and why'),
  }),
  'no-approach': event('no-approach', {}),
  outcome: event('outcome', {
    label: z.enum(OUTCOME_LABELS),
    concerns: z.array(z.string()).describe('what you are unsure of or left for later; [] when none'),
  }),
  'final-review': z
    .object({
      event: z.literal('final-review'),
      findings: z.array(
        z.object({
          severity: z.enum(['P0', 'P1', 'P2']),
          type: z.string().trim().min(1),
          file: z.string(),
          line: z.number().int().min(0).describe('a number, 0 when not about one line'),
          problem: z.string().trim().min(1),
          fix: z.string(),
          introduced: z.boolean().describe('true or false'),
        }),
      ),
    })
    .loose(),
} as const;
export type ReportedEventName = keyof typeof REPORTED_EVENTS;

/** One event: a name plus any JSON fields; the writer stamps `ts`. */
export const EventInputSchema = z.looseObject({ event: z.string().trim().min(1) });
export type EventInput = z.infer<typeof EventInputSchema>;

/** The names of every event `leopold record` accepts: the reported ones, checked by their schema, and Leopold's own. */
export const RECORDED_EVENT_NAMES: readonly string[] = [...Object.keys(REPORTED_EVENTS), ...LEOPOLD_EVENTS].sort();

/** The whole `leopold record` document: decisions and/or events (at least one). */
export const RecordInputSchema = z
  .object({
    decisions: z.array(DecisionInputSchema).default([]),
    events: z.array(EventInputSchema).default([]),
  })
  .refine((doc) => doc.decisions.length + doc.events.length > 0, {
    message: 'nothing to record: give at least one decision or event',
  });
export type RecordInput = z.infer<typeof RecordInputSchema>;

/** A decision read back from DECISIONS.md by readDecisions. */
export const DecisionRecordSchema = z.object({
  n: z.number().int().min(1),
  title: z.string(),
  mechanical: z.boolean(),
  turn: z.number().int().nullable(),
  at: z.string().nullable(),
  fork: DecisionForkSchema.nullable(),
  item: z.string().nullable(),
  /** undefined: no Persona line; null: the line says no role could be synthesized. */
  persona: DecisionPersonaSchema.nullable().optional(),
  /** The charter rules the entry says bound the persona (its `Bound by:` lines); empty when it has none. */
  rules: z.array(z.string()).optional(),
  class: DecisionClassSchema.nullable(),
  charter: z.string(),
  decision: z.string(),
  why: z.string(),
  reversal: z.string(),
});
export type DecisionRecord = z.infer<typeof DecisionRecordSchema>;

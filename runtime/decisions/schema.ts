import { z } from 'zod';
import { DECISION_FORKS } from './forks.js';
import { DECISION_CLASSES } from './record-input.js';

/** The stop points a decision can come from (`deadlock` is a repair of a stuck graph). */
export const DecisionForkSchema = z.enum(DECISION_FORKS);
export type DecisionFork = z.infer<typeof DecisionForkSchema>;

/** Whether a decision can be undone; only `reversible` may be made on a silent charter. */
export const DecisionClassSchema = z.enum(DECISION_CLASSES);
export type DecisionClass = z.infer<typeof DecisionClassSchema>;

/** The persona as an entry names it; `null` on a persona fork means none could be synthesized. */
export const DecisionPersonaSchema = z.object({
  name: z.string().trim().min(1),
  role: z.string().trim().min(1),
  expertise: z.array(z.string().trim().min(1)),
});
export type DecisionPersona = z.infer<typeof DecisionPersonaSchema>;

/**
 * One decision as `leopold record` accepts it (SPEC-RUNTIME §3). A mechanical decision
 * needs only a title; a full entry needs class, charter, decision and why. An absent or
 * blank `reversal` becomes DEFAULT_REVERSAL, which the ranking counts as a risk.
 */
export const DecisionInputSchema = z
  .object({
    title: z.string().trim().min(1),
    fork: DecisionForkSchema.optional(),
    /** Which item the fork was at: its index, or a short description. */
    item: z.union([z.number().int().min(1), z.string().trim().min(1)]).optional(),
    /** The item's text when `item` is its index: the Fork line quotes it and the risk ranking reads it. */
    subject: z.string().optional(),
    persona: DecisionPersonaSchema.nullable().optional(),
    class: DecisionClassSchema.optional(),
    charter: z.string().optional(),
    decision: z.string().optional(),
    why: z.string().optional(),
    reversal: z.string().optional(),
    turn: z.number().int().min(0).optional(),
    mechanical: z.boolean().optional(),
  })
  .superRefine((entry, ctx) => {
    if (entry.mechanical) return;
    for (const key of ['class', 'charter', 'decision', 'why'] as const) {
      if (entry[key] === undefined) {
        ctx.addIssue({ code: 'custom', path: [key], message: `${key} is required unless the decision is mechanical` });
      }
    }
  });
export type DecisionInput = z.infer<typeof DecisionInputSchema>;

/** One event: a name plus any JSON fields; the writer stamps `ts`. */
export const EventInputSchema = z.looseObject({ event: z.string().trim().min(1) });
export type EventInput = z.infer<typeof EventInputSchema>;

/**
 * The whole `leopold record` document: decisions and/or events. The CLI checks input with
 * record-input.ts's parseRecordInput, which accepts exactly this schema without loading zod.
 */
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

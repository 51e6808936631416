import { z } from 'zod';
import { DEFAULT_GUARDRAILS as D } from './defaults.js';

/**
 * GUARDRAILS.md after parsing: every limit with its default (docs/guardrails.md). The
 * parser (parse.ts) builds this value by hand, without zod, because the Stop hook reads it
 * on every turn; the compiler and the tests hold the parser's output to this schema.
 */
export const GuardrailsSchema = z.object({
  /** Unset unless GUARDRAILS names a recognised posture: flag and env may still decide. */
  autonomy: z.enum(['full', 'ask']).optional(),
  maxReviewRounds: z.number().int().min(0).default(D.maxReviewRounds),
  maxIterations: z.number().int().min(1).default(D.maxIterations),
  maxFailures: z.number().int().min(1).default(D.maxFailures),
  maxNoProgress: z.number().int().min(1).default(D.maxNoProgress),
  maxContextMb: z.number().positive().default(D.maxContextMb),
  maxWindows: z.number().int().min(1).default(D.maxWindows),
  /** Subagents one item may start (docs/guardrails.md: the Task/Agent tool in a session, the loop's agent() calls in a workflow). */
  maxSubagents: z.number().int().min(1).default(D.maxSubagents),
  /** Subagents the whole run may start; when GUARDRAILS.md does not say, `max_iterations` × 40 (defaults.ts defaultSubagentsPerRun, filled in by parse.ts). */
  maxSubagentsPerRun: z.number().int().min(1),
  parallelItems: z.enum(['on', 'off']).default(D.parallelItems),
  /** `none`, or an http(s) URL the final report is POSTed to. */
  notifyWebhook: z.string().default(D.notifyWebhook),
  /** Work only a person does: an item whose text holds one of these phrases (or `#anchor` names it) stops the run before it. */
  gated: z.array(z.string()).default([...D.gated]),
});
/** Parsed GUARDRAILS settings. */
export type Guardrails = z.infer<typeof GuardrailsSchema>;

import { z } from 'zod';

/** GUARDRAILS.md after parsing: every limit with its default (SPEC-PLAN §6). */
export const GuardrailsSchema = z.object({
  /** Unset unless GUARDRAILS names a recognised posture: flag and env may still decide. */
  autonomy: z.enum(['full', 'ask']).optional(),
  maxReviewRounds: z.number().int().min(0).default(2),
  maxIterations: z.number().int().min(1).default(50),
  maxFailures: z.number().int().min(1).default(3),
  maxNoProgress: z.number().int().min(1).default(6),
  maxContextMb: z.number().positive().default(5),
  maxWindows: z.number().int().min(1).default(10),
  parallelItems: z.enum(['on', 'off']).default('off'),
  /** `none`, or an http(s) URL the final report is POSTed to. */
  notifyWebhook: z.string().default('none'),
});
/** Parsed GUARDRAILS settings. */
export type Guardrails = z.infer<typeof GuardrailsSchema>;

/** The defaults, as a value (what an empty or missing GUARDRAILS.md means). */
export const DEFAULT_GUARDRAILS: Guardrails = GuardrailsSchema.parse({});

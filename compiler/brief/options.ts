import { z } from 'zod';
import { LeopoldError } from '../diagnostics/diagnostic.js';
import { DiagnosticFormatSchema } from '../diagnostics/render.js';

const flag = z.boolean().default(false);

/** `leopold graph` options as commander hands them over; validated once at the boundary. */
export const GraphOptionsSchema = z
  .object({
    json: flag,
    mermaid: flag,
    dot: flag,
    strict: flag,
    format: DiagnosticFormatSchema.default('text'),
  })
  .superRefine((opts, ctx) => {
    const views = (['json', 'mermaid', 'dot'] as const).filter((v) => opts[v]);
    if (views.length > 1) {
      ctx.addIssue({ code: 'custom', message: `${views.map((v) => `--${v}`).join(' and ')} cannot be combined; choose one view` });
    }
  });
/** Validated `leopold graph` options. */
export type GraphOptions = z.infer<typeof GraphOptionsSchema>;

/**
 * A whole-number option (`--budget 5000`): digits only, at least `min`. Commander hands
 * over strings; a schema of its own (not `z.coerce`) so `abc` or `-5` gets a message that
 * says what was expected instead of "received NaN".
 */
export function wholeNumberOption(min: number, what = 'a whole number') {
  const message = `must be ${what} ≥ ${min}`;
  return z
    .string()
    .regex(/^\d{1,15}$/, message)
    .transform(Number)
    .refine((n) => n >= min, message);
}

/** Validates CLI options with a schema; the first problem becomes a one-line usage error. */
export function parseOptions<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new LeopoldError('invalid options');
  const key = issue.path.length > 0 ? String(issue.path[0]) : '';
  // Commander's keys are camelCase (`maxIterations`); the user typed `--max-iterations`.
  const option = key ? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` : '';
  const got = key ? (raw as Record<string, unknown> | null)?.[key] : undefined;
  const gotText = got === undefined ? '' : ` (got ${JSON.stringify(got)})`;
  if (issue.code === 'invalid_value' && option) {
    return fail(`${option} must be ${issue.values.map(String).join(', ').replace(/, ([^,]*)$/, ' or $1')}${gotText}`);
  }
  if (!option) return fail(issue.message);
  // "must be …" reads as a sentence after the flag; other messages follow a colon.
  return fail(issue.message.startsWith('must ') ? `${option} ${issue.message}${gotText}` : `${option}: ${issue.message}${gotText}`);
}

function fail(message: string): never {
  throw new LeopoldError(message);
}

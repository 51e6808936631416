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

/** Validates CLI options with a schema; the first problem becomes a one-line usage error. */
export function parseOptions<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new LeopoldError('invalid options');
  const option = issue.path.length > 0 ? `--${String(issue.path[0])}` : '';
  if (issue.code === 'invalid_value' && option) {
    const got = (raw as Record<string, unknown> | null)?.[String(issue.path[0])];
    return fail(`${option} must be ${issue.values.map(String).join(', ').replace(/, ([^,]*)$/, ' or $1')} (got ${JSON.stringify(got)})`);
  }
  return fail(option ? `${option}: ${issue.message}` : issue.message);
}

function fail(message: string): never {
  throw new LeopoldError(message);
}

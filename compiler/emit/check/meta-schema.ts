import { z } from 'zod';

const nonEmptyString = z.string({ error: 'a non-empty string' }).refine((value) => value.trim().length > 0, {
  error: 'a non-empty string',
});
const optionalString = z.string({ error: 'a string' }).optional();

/** The fields the host reads from `meta` (docs/host-contract.md); other keys are left alone. */
export const WorkflowMetaSchema = z.object(
  {
    name: nonEmptyString,
    description: nonEmptyString,
    phases: z
      .array(
        z.object(
          { title: z.string({ error: 'a string' }), detail: optionalString, model: optionalString },
          { error: 'an object { title, detail?, model? }' },
        ),
        { error: 'an array of { title, detail?, model? }' },
      )
      .optional(),
    whenToUse: optionalString,
    title: optionalString,
  },
  { error: 'an object' },
);
export type WorkflowMeta = z.infer<typeof WorkflowMetaSchema>;

/** One field of a meta value the host would not take: where, and the message a violation carries. */
export interface MetaFieldIssue {
  path: readonly PropertyKey[];
  message: string;
}

/** What is wrong with a meta value's fields (WorkflowMetaSchema), worded as `found … at meta.…; expected …`. */
export function metaFieldIssues(value: unknown): MetaFieldIssue[] {
  const parsed = WorkflowMetaSchema.safeParse(value);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const where = ['meta', ...issue.path.map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`))].join('');
    const found = describeValue(valueAtPath(value, issue.path));
    return { path: issue.path, message: `found ${found} at ${where}; expected ${issue.message}` };
  });
}

function valueAtPath(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.trim() === '' ? 'an empty string' : 'a string';
  return `a ${typeof value}`;
}


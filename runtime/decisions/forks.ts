// Plain lists, apart from the zod schemas (schema.ts builds its enums from them), so the
// modules the workflow script and the hooks bundle never load zod.

/** The stop points a decision can come from (`deadlock` is a repair of a stuck graph). */
export const DECISION_FORKS = ['human', 'escalation', 'repair', 'deadlock', 'repeated-failure'] as const;

/** The decision classes. */
export const DECISION_CLASSES = ['reversible', 'irreversible'] as const;

/**
 * Why an agent says a matter needs a person, never a persona (the decision protocol's "what
 * always stops"): work GUARDRAILS.md gates, a mission premise found false, a charter that
 * contradicts itself on a real decision, a Never rule in the way.
 */
export const PERSON_REASONS = ['gated', 'premise', 'charter-contradiction', 'never-rule'] as const;
export type PersonReason = (typeof PERSON_REASONS)[number];

/** The kinds of failed attempt at a work item, as both engines name them. */
export const FAILURE_KINDS = ['implementer', 'blocked', 'partial', 'verification', 'review'] as const;

/**
 * Events Leopold writes itself (the workflow's scribe through `leopold record`, the CLI and
 * the hooks directly): `leopold record` accepts their names with any fields. The events a
 * session reports are schema.ts's REPORTED_EVENTS.
 */
export const LEOPOLD_EVENTS = [
  'decision-refused',
  'error',
  'final-review-turn',
  'finish',
  'follow-ups',
  'item-done',
  'no-answer',
  'notify',
  'repair',
  'repair-turn',
  'rescue',
  'route',
  'run',
  'start',
  'stop',
  'turn',
  'window',
  'workflow-start',
] as const;

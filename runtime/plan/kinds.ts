/**
 * The node kinds a plan item can declare. Plain data, kept apart from the zod schemas in
 * schema.ts so that code which only needs the list (the plan parser, and through it
 * `leopold plan tick`) does not load zod.
 */
export const NODE_KINDS = ['work', 'gate', 'verify', 'tool', 'human', 'feedback'] as const;

/** Bumped on any change the embedded runtime must know about (3: items compact). */
export const COMPILED_PLAN_VERSION = 3;

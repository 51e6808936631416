// GUARDRAILS.md: its keys, defaults and parser, shared by `leopold compile`, `graph`, `run
// start` and `ci` (through compiler/brief) and the Stop hook, which reads the limits on every
// turn. Nothing here loads zod or a Markdown parser (scripts/build.mjs checks it); the zod
// schema the compiler holds the result to is schema.ts, imported from there.
export { DEFAULT_GUARDRAILS, defaultSubagentsPerRun } from './defaults.js';
export { KEYS, type GuardrailKey } from './keys.js';
export { GUARDRAIL_KEYS, parseGuardrailSettings, type GuardrailProblem } from './parse.js';
export type { Guardrails } from './schema.js';

// GUARDRAILS.md: the limits schema and its parser, shared by `leopold compile` (through
// compiler/brief) and the Stop hook, which reads the limits on every turn.
export { GUARDRAIL_KEYS, parseGuardrailSettings, type GuardrailProblem } from './parse.js';
export { DEFAULT_GUARDRAILS, GuardrailsSchema, type Guardrails } from './schema.js';

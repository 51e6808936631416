// The brief phase: locate and load `.leopold/`, parse GUARDRAILS, read input files safely.
export { BRIEF_DIR, findBriefDir } from './find.js';
export { asRefusals, DEFAULT_GUARDRAILS, GUARDRAIL_KEYS, GuardrailsSchema, parseGuardrails, type Guardrails } from './guardrails.js';
export { BRIEF_FILES, loadBrief, readGuardrails, readGuardrailsText, type Brief } from './load.js';
export { MAX_TEXT_BYTES, displayPath, readOptionalTextFile, readTextFile } from './read-text.js';
export { GraphOptionsSchema, parseOptions, type GraphOptions } from './options.js';

import { parseGuardrailSettings, type Guardrails } from '../../runtime/guardrails/index.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';

// The schema and parser live in runtime/guardrails (the Stop hook reads the same limits);
// the compiler owns the diagnostic catalog, so it turns the parser's problems into
// `bad-guardrail` diagnostics here.
export { DEFAULT_GUARDRAILS, GUARDRAIL_KEYS, GuardrailsSchema, type Guardrails } from '../../runtime/guardrails/index.js';

/** GUARDRAILS.md text parsed (runtime/guardrails), each bad value a `bad-guardrail` warning in `file`. */
export function parseGuardrails(text: string, file: string): { guardrails: Guardrails; diagnostics: Diagnostic[] } {
  const { guardrails, problems } = parseGuardrailSettings(text);
  return { guardrails, diagnostics: problems.map((p) => diagnostic('bad-guardrail', file, p.span, p.message)) };
}

import { GUARDRAIL_KEYS, parseGuardrailSettings, type GuardrailProblem, type Guardrails } from '../../runtime/guardrails/index.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { CATALOG, type DiagnosticCode } from '../diagnostics/catalog.js';

// The keys and parser live in runtime/guardrails (the Stop hook reads the same limits); the
// compiler owns the diagnostic catalog, so it turns the parser's problems into diagnostics here.
export { DEFAULT_GUARDRAILS, defaultSubagentsPerRun, GUARDRAIL_KEYS, type Guardrails } from '../../runtime/guardrails/index.js';
export { GuardrailsSchema } from '../../runtime/guardrails/schema.js';

const CODES: Readonly<Record<GuardrailProblem['kind'], DiagnosticCode>> = {
  'bad-value': 'bad-guardrail',
  'unknown-key': 'unknown-guardrail',
  'unclosed-comment': 'unclosed-comment',
};

/**
 * GUARDRAILS.md text parsed (runtime/guardrails), each problem a warning in `file`: a bad
 * value (`bad-guardrail`), an unknown key (`unknown-guardrail`) or an HTML comment left open
 * (`unclosed-comment`), with a did-you-mean hint where a near miss names what was meant.
 * `graph` and `compile` report them as they are; `run start` and `ci` refuse the file
 * ({@link asRefusals}).
 */
export function parseGuardrails(text: string, file: string): { guardrails: Guardrails; diagnostics: Diagnostic[] } {
  const { guardrails, problems } = parseGuardrailSettings(text);
  return { guardrails, diagnostics: problems.map((problem) => diagnostic(CODES[problem.kind], file, problem.span, problem.message, [], hintOf(problem))) };
}

/** The catalog's hint (what happens until it is fixed), after a did-you-mean or, for an unknown key, the keys there are. */
function hintOf(problem: GuardrailProblem): string {
  const { hint } = CATALOG[CODES[problem.kind]];
  if (problem.suggestion) return `Did you mean "${problem.suggestion}"? ${hint}`;
  if (problem.kind === 'unknown-key') return `The keys are ${GUARDRAIL_KEYS.join(', ')}. ${hint}`;
  return hint;
}

/**
 * GUARDRAILS diagnostics as errors, for the commands that act on the file: `leopold run
 * start` (either engine) and `leopold ci` start nothing on a GUARDRAILS.md that is not read
 * as written, where `graph` and `compile` only warn.
 */
export function asRefusals(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => ({ ...d, severity: 'error' }));
}

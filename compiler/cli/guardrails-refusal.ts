import { join } from 'node:path';
import { asRefusals, parseGuardrails } from '../brief/guardrails.js';
import { BRIEF_FILES, readGuardrailsText } from '../brief/load.js';
import { renderDiagnostics, type DiagnosticFormat } from '../diagnostics/render.js';
import { shownPath } from './io.js';
import { fromRepositoryRoot, repositoryRoot } from './report.js';

/** What a command that acts on GUARDRAILS.md found in it: its problems, as errors, rendered. */
export interface GuardrailsRefusal {
  /** The file as shown (relative to the working directory when it can be). */
  file: string;
  /** How many problems; 0 when the file reads as written or is missing. */
  count: number;
  /** The problems as errors in `format` ('' when there are none). */
  rendered: string;
}

/**
 * GUARDRAILS.md of the brief in `briefDir`, as `leopold run start` and `leopold ci` read it:
 * every problem `graph` and `compile` warn about is an error here, because these start a run
 * (or rehearse one) on the limits the file gives (docs/guardrails.md). Text keeps code frames;
 * github paths are from the repository root. An unreadable file throws a LeopoldError (exit 2).
 */
export function guardrailsRefusal(briefDir: string, cwd: string, format: DiagnosticFormat): GuardrailsRefusal {
  const path = join(briefDir, BRIEF_FILES.guardrails);
  const file = shownPath(cwd, path);
  const text = readGuardrailsText(path);
  const errors = asRefusals(parseGuardrails(text, file).diagnostics);
  const shown = format === 'github' ? fromRepositoryRoot(errors, cwd, repositoryRoot(briefDir, cwd)) : errors;
  return { file, count: errors.length, rendered: errors.length === 0 ? '' : renderDiagnostics(shown, format, new Map([[file, text]])) };
}

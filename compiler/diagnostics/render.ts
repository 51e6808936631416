import { z } from 'zod';
import type { Diagnostic } from './diagnostic.js';
import { renderGithub } from './render-github.js';
import { renderJson } from './render-json.js';
import { renderText, type SourceLookup } from './render-text.js';

export const DiagnosticFormatSchema = z.enum(['text', 'json', 'github']);
/** An output format for diagnostics (`--format`). */
export type DiagnosticFormat = z.infer<typeof DiagnosticFormatSchema>;

/** Renders diagnostics in one of the documented formats; `sources` feeds text code frames. */
export function renderDiagnostics(
  list: readonly Diagnostic[],
  format: DiagnosticFormat,
  sources?: SourceLookup,
): string {
  switch (format) {
    case 'text':
      return renderText(list, sources);
    case 'json':
      return renderJson(list);
    case 'github':
      return renderGithub(list);
  }
}

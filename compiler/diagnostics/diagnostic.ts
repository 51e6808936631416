import { z } from 'zod';
import { CATALOG, type DiagnosticCode } from './catalog.js';

import type { Span } from '../../runtime/plan/schema.js';

export type { Span };

export const SeveritySchema = z.enum(['error', 'warning']);
export type Severity = z.infer<typeof SeveritySchema>;

/** The one Diagnostic shape (docs/plan-language.md) used by every phase and renderer. */
export const DiagnosticSchema = z.object({
  code: z.string(),
  severity: SeveritySchema,
  message: z.string(),
  file: z.string(),
  line: z.number().int().min(1),
  column: z.number().int().min(1),
  endLine: z.number().int().min(1),
  endColumn: z.number().int().min(1),
  items: z.array(z.number().int()),
  hint: z.string().optional(),
});
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

/** What a code's catalog entry fixes: its severity and the advice shown as `hint`. */
export interface CodeEntry {
  readonly severity: Severity;
  readonly hint?: string;
}

/**
 * Builds a diagnostic from any catalog's entry (the plan catalog here, the host-contract
 * codes in compiler/emit/check), so every producer fills the one shape the same way.
 */
export function diagnosticFor(
  code: string,
  entry: CodeEntry,
  file: string,
  span: Span,
  message: string,
  items: readonly number[] = [],
  hint: string | undefined = entry.hint,
): Diagnostic {
  return {
    code,
    severity: entry.severity,
    message,
    file,
    line: span.line,
    column: span.column,
    endLine: span.endLine,
    endColumn: span.endColumn,
    items: [...items].sort((a, b) => a - b),
    ...(hint === undefined ? {} : { hint }),
  };
}

/**
 * Builds a diagnostic for a plan catalog code; severity and hint come from the catalog,
 * unless the check knows better advice for this one case (`did-you-mean` names the word).
 */
export function diagnostic(
  code: DiagnosticCode,
  file: string,
  span: Span,
  message: string,
  items: number[] = [],
  hint?: string,
): Diagnostic {
  const entry: CodeEntry = CATALOG[code];
  return diagnosticFor(code, entry, file, span, message, items, hint ?? entry.hint);
}

/** Diagnostics in output order: by line, column, then code (docs/plan-language.md). */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      a.file.localeCompare(b.file) ||
      a.line - b.line ||
      a.column - b.column ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}

/** True when any diagnostic is an error. */
export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === 'error');
}

export { LeopoldError } from './error.js';

/** Names an item in messages: item N ("text clipped to 60 chars"). */
export function itemName(index: number, text: string): string {
  const chars = [...text];
  const clipped = chars.length > 60 ? `${chars.slice(0, 59).join('')}…` : text;
  return `item ${index} ("${clipped}")`;
}

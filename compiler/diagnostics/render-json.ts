import type { Diagnostic } from './diagnostic.js';

/** The diagnostic with keys in the documented order (docs/plan-language.md), `hint` only when set. */
export function stableDiagnostic(d: Diagnostic): Diagnostic {
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    file: d.file,
    line: d.line,
    column: d.column,
    endLine: d.endLine,
    endColumn: d.endColumn,
    items: [...d.items],
    ...(d.hint === undefined ? {} : { hint: d.hint }),
  };
}

/** Renders diagnostics as a stable, 2-space JSON array (keys in documented order), newline-terminated. */
export function renderJson(list: readonly Diagnostic[]): string {
  return `${JSON.stringify(list.map(stableDiagnostic), null, 2)}\n`;
}

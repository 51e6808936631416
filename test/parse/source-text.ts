import type { Span } from '../../runtime/plan/schema.js';

/** The source lines as an editor shows them: no BOM, CRLF / LF / CR all end a line. */
export function editorLines(text: string): string[] {
  return text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
}

/** The text a span covers, read back through editor lines and columns. */
export function covered(text: string, span: Span): string {
  const lines = editorLines(text);
  if (span.line === span.endLine) return (lines[span.line - 1] ?? '').slice(span.column - 1, span.endColumn - 1);
  const parts = [(lines[span.line - 1] ?? '').slice(span.column - 1)];
  for (let line = span.line + 1; line < span.endLine; line++) parts.push(lines[line - 1] ?? '');
  parts.push((lines[span.endLine - 1] ?? '').slice(0, span.endColumn - 1));
  return parts.join('\n');
}

/** `line:column-endLine:endColumn`, short enough to compare in one assertion. */
export function at(span: Span): string {
  return `${span.line}:${span.column}-${span.endLine}:${span.endColumn}`;
}

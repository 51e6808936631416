import type { Diagnostic } from './diagnostic.js';

/** Escapes a workflow-command message: %, CR and LF (GitHub's `escapeData`). */
export function escapeGithubData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow-command property value: the data escapes plus `:` and `,` (`escapeProperty`). */
export function escapeGithubProperty(text: string): string {
  return escapeGithubData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * Renders diagnostics as GitHub Actions annotations:
 * `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=code::message` (the hint on a
 * second annotation line). One command per line, newline-terminated.
 */
export function renderGithub(list: readonly Diagnostic[]): string {
  return list
    .map((d) => {
      const props = [
        `file=${escapeGithubProperty(d.file)}`,
        `line=${d.line}`,
        `col=${d.column}`,
        `endLine=${d.endLine}`,
        `endColumn=${d.endColumn}`,
        `title=${escapeGithubProperty(d.code)}`,
      ].join(',');
      const body = d.hint ? `${d.message}\nhint: ${d.hint}` : d.message;
      return `::${d.severity} ${props}::${escapeGithubData(body)}\n`;
    })
    .join('');
}

import * as acorn from 'acorn';
import type { Span } from '../../diagnostics/diagnostic.js';

export { violation } from './host-violation.js';

/** The 1-based span of an acorn node (acorn columns are 0-based; endColumn is one past the end). */
export function spanOfNode(node: { loc?: acorn.SourceLocation | null }): Span {
  const loc = node.loc;
  if (!loc) throw new Error('host-contract check: parse with `locations: true`');
  return {
    line: loc.start.line,
    column: loc.start.column + 1,
    endLine: loc.end.line,
    endColumn: loc.end.column + 1,
  };
}

/** The span of `length` characters from an offset into the text. */
export function spanAt(text: string, offset: number, length: number): Span {
  const start = acorn.getLineInfo(text, offset);
  const end = acorn.getLineInfo(text, Math.min(text.length, offset + length));
  return { line: start.line, column: start.column + 1, endLine: end.line, endColumn: end.column + 1 };
}

/** The source of a node, on one line and clipped, for "found …" in messages. */
export function excerpt(text: string, node: acorn.Node): string {
  const raw = text.slice(node.start, node.end).replace(/\s+/g, ' ');
  return raw.length > 60 ? `${raw.slice(0, 59)}…` : raw;
}

import type { PlanIR } from '../plan/schema.js';
import { routeOf } from './refs.js';
import type { Proposal, RouteProposal } from './schema.js';

/** The amended text and where it changed. */
export interface Applied {
  text: string;
  /** 1-based lines whose route target was rewritten. */
  rewrittenLines: number[];
  /** Indices of the items appended, in order. */
  added: number[];
}

const ARROWS = ['->', '=>', '→'];

/**
 * Applies accepted proposals in memory. ROUTE rewrites only the target on that `@on` line
 * (every other byte, CRLF and BOM included, stays); ADD appends `- [ ] (after: N) text`
 * at the end with the file's own line ending, so no existing index moves. Throws when a
 * proposal does not fit the text (it was not judged against this plan).
 */
export function applyAmendments(text: string, ir: PlanIR, accepted: readonly Proposal[]): Applied {
  let out = text;
  const rewrittenLines: number[] = [];
  for (const proposal of accepted) {
    if (proposal.verb !== 'ROUTE') continue;
    const { line, next } = rewriteRoute(out, ir, proposal);
    out = next;
    rewrittenLines.push(line);
  }
  const adds = accepted.filter((proposal) => proposal.verb === 'ADD');
  const added: number[] = [];
  if (adds.length > 0) {
    const eol = /\r\n|\n/.exec(out)?.[0] ?? '\n';
    if (out.length > 0 && !out.endsWith('\n')) out += eol;
    for (const add of adds) {
      const after = add.after && add.after.length > 0 ? `(after: ${add.after.join(', ')}) ` : '';
      out += `- [ ] ${after}${add.text.trim()}${eol}`;
      added.push(ir.items.length + added.length + 1);
    }
  }
  return { text: out, rewrittenLines, added };
}

/** Replaces the target after the arrow on the route's own line, leaving the rest of the line alone. */
function rewriteRoute(text: string, ir: PlanIR, proposal: RouteProposal): { line: number; next: string } {
  const found = routeOf(ir, proposal);
  if (!found) throw new Error(`applyAmendments: ${proposal.raw}: no such route`);
  const lineNumber = found.route.span.line;
  const { start, end } = lineBounds(text, lineNumber);
  const line = text.slice(start, end);
  const at = line.search(/@on\b/i);
  if (at < 0) throw new Error(`applyAmendments: line ${lineNumber} has no @on`);
  const wanted = found.route.targetText;
  // The last arrow whose following text starts with the target as written.
  for (let i = line.length - 1; i > at; i -= 1) {
    const arrow = ARROWS.find((a) => line.startsWith(a, i));
    if (!arrow) continue;
    const afterArrow = i + arrow.length;
    const gap = /^[ \t]*/.exec(line.slice(afterArrow))![0].length;
    const from = afterArrow + gap;
    if (!line.startsWith(wanted, from)) continue;
    const lead = gap === 0 ? ' ' : '';
    const rewritten = `${line.slice(0, from)}${lead}${proposal.target}${line.slice(from + wanted.length)}`;
    return { line: lineNumber, next: text.slice(0, start) + rewritten + text.slice(end) };
  }
  throw new Error(`applyAmendments: line ${lineNumber}: target "${wanted}" not found after an arrow`);
}

/** Offsets of line `n` (1-based) without its line ending; CRLF, LF and lone CR all end a line. */
function lineBounds(text: string, n: number): { start: number; end: number } {
  let start = 0;
  for (let line = 1; line < n; line += 1) {
    const lf = text.indexOf('\n', start);
    const cr = text.indexOf('\r', start);
    if (lf < 0 && cr < 0) throw new Error(`applyAmendments: the text has no line ${n}`);
    if (cr >= 0 && (lf < 0 || cr < lf)) start = text[cr + 1] === '\n' ? cr + 2 : cr + 1;
    else start = lf + 1;
  }
  const rest = text.slice(start).search(/\r|\n/);
  return { start, end: rest < 0 ? text.length : start + rest };
}

import type { Applied } from '../../runtime/amend/index.js';

/**
 * The Reversal of a repair: the exact edits that give back the original PLAN.md, e.g.
 * "restore line 12 to `  @on fail -> 9`; delete lines 30–31". Lines are numbered in the
 * repaired file (a ROUTE keeps its line number; ADDs are appended after every old line).
 */
export function reversalOf(file: string, before: string, after: string, applied: Applied): string {
  const oldLines = before.split(/\r\n|\n|\r/);
  const steps: string[] = [];
  for (const line of [...new Set(applied.rewrittenLines)].sort((x, y) => x - y)) {
    steps.push(`restore line ${line} to ${codeSpan(oldLines[line - 1] ?? '')}`);
  }
  const oldCount = lineCount(before);
  const newCount = lineCount(after);
  if (newCount > oldCount) {
    const from = oldCount + 1;
    steps.push(from === newCount ? `delete line ${from}` : `delete lines ${from}–${newCount}`);
    if (before !== '' && !/[\r\n]$/.test(before)) steps.push(`remove the line break added at the end of line ${oldCount}`);
  }
  return steps.length === 0 ? 'nothing to undo: PLAN.md is unchanged' : `In ${file}: ${steps.join('; ')}.`;
}

/** Lines as an editor numbers them (a final line break does not start a new line). */
function lineCount(text: string): number {
  if (text === '') return 0;
  const breaks = text.match(/\r\n|\n|\r/g)?.length ?? 0;
  return /[\r\n]$/.test(text) ? breaks : breaks + 1;
}

/** Markdown inline code that survives backticks inside the line. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = longest > 0 || text.startsWith(' ') && text.endsWith(' ') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

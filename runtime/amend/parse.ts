import type { Proposal } from './schema.js';

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})\s*leopold-amend\s*$/;
const DELETE_WORDS = new Set(['delete', 'remove', 'drop']);
const EDIT_WORDS = new Set(['edit', 'set', 'rewrite', 'rename', 'replace', 'change', 'update', 'move']);
const TICK_WORDS = new Set(['tick', 'untick', 'check', 'uncheck', 'done', 'undone', 'reopen', 'complete', 'mark']);
const ARROW = /\s*(?:->|=>|→)\s*/;
const AFTER = /^\((?:after|deps)\s*:([^)]*)\)\s*/i;

/**
 * The lines of the LAST fenced ```leopold-amend block in `text` (an agent may think out
 * loud first; its final answer counts). An unclosed last block runs to the end of text.
 * Returns null when there is no block at all.
 */
export function lastAmendBlock(text: string): string[] | null {
  const lines = text.split(/\r\n|\n|\r/);
  let block: string[] | null = null;
  for (let i = 0; i < lines.length; i += 1) {
    const open = FENCE_OPEN.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j += 1) {
      const line = lines[j]!;
      const close = /^ {0,3}(`+|~+)\s*$/.exec(line);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) break;
      body.push(line);
    }
    block = body;
    i = j;
  }
  return block;
}

/** Proposals from the last `leopold-amend` block (one per non-blank line), or [] when there is none. */
export function parseAmendments(text: string): Proposal[] {
  const block = lastAmendBlock(text) ?? [];
  const proposals: Proposal[] = [];
  block.forEach((line, i) => {
    const raw = line.trim();
    if (raw === '' || raw.startsWith('#')) return; // blank lines and comments carry nothing
    proposals.push(parseProposal(raw, i + 1));
  });
  return proposals;
}

/** One proposal line, classified by its verb (case-insensitive). */
export function parseProposal(raw: string, line: number): Proposal {
  const match = /^(\S+)\s*(.*)$/s.exec(raw)!;
  const word = match[1]!;
  const rest = match[2]!.trim();
  const verb = word.toLowerCase();
  if (verb === 'route') return parseRoute(raw, line, word, rest);
  if (verb === 'add') return parseAdd(raw, line, word, rest);
  const other = DELETE_WORDS.has(verb) ? 'DELETE' : EDIT_WORDS.has(verb) ? 'EDIT' : TICK_WORDS.has(verb) ? 'TICK' : 'UNKNOWN';
  return { verb: other, raw, line, word, rest, problem: other === 'UNKNOWN' ? `unknown verb "${word}"` : null };
}

function parseRoute(raw: string, line: number, word: string, rest: string): Proposal {
  const arrow = ARROW.exec(rest);
  const head = arrow ? rest.slice(0, arrow.index).trim() : rest;
  const target = arrow ? rest.slice(arrow.index + arrow[0].length).trim() : '';
  const [item = '', ...condition] = head.split(/\s+/).filter(Boolean);
  const problem =
    !arrow || item === '' || condition.length === 0 || target === '' || /\s/.test(target)
      ? 'expected ROUTE <item> <condition> -> <target>'
      : null;
  return { verb: 'ROUTE', raw, line, word, problem, item, condition: condition.join(' '), target };
}

function parseAdd(raw: string, line: number, word: string, rest: string): Proposal {
  const after = AFTER.exec(rest);
  if (!after) return { verb: 'ADD', raw, line, word, problem: null, after: null, text: rest };
  const refs = after[1]!.split(/[\s,]+/).filter(Boolean);
  return {
    verb: 'ADD',
    raw,
    line,
    word,
    problem: refs.length === 0 ? 'empty (after:) list' : null,
    after: refs,
    text: rest.slice(after[0].length).trim(),
  };
}

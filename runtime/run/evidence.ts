import type { PlanItem } from '../plan/schema.js';
import type { RunModel } from './schema.js';

/**
 * Evidence: why a node failed, carried to the item that deals with it next. A failed
 * `@tool` keeps the end of its output, a failed verification or gate its reasons, a failed
 * attempt what failed; the next attempt at the same item, and every item a taken route
 * sends from the failed node, is dispatched with it. One rule for both engines: the
 * workflow puts it in the next agent's prompt, the Stop hook in the next block.
 */

/** The most evidence one node keeps, in UTF-8 bytes: the end of a longer text, cut at a line start. */
export const EVIDENCE_BYTES = 2000;

/** Evidence handed to a dispatch: which node it comes from and what it says. */
export interface Evidence {
  /** The item whose failure this is (the dispatched item itself for a retry). */
  from: number;
  text: string;
}

// UTF-8 width of one code point (the workflow sandbox has no Buffer or TextEncoder).
const utf8Width = (char: string) => {
  const code = char.codePointAt(0)!;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
};

/** The end of `text` within EVIDENCE_BYTES, starting at a line where it can, marked when cut. */
export function tailOf(text: string, limit = EVIDENCE_BYTES): string {
  const trimmed = text.replace(/\s+$/, '');
  const chars = [...trimmed];
  if (chars.reduce((n, char) => n + utf8Width(char), 0) <= limit) return trimmed;
  // Walk back by code points so none is split; then start at the next line if one is near.
  let start = chars.length;
  let size = 0;
  while (start > 0 && size + utf8Width(chars[start - 1]!) <= limit - 4) {
    start -= 1;
    size += utf8Width(chars[start]!);
  }
  let kept = chars.slice(start).join('');
  const newline = kept.indexOf('\n');
  if (newline >= 0 && newline < kept.length / 2) kept = kept.slice(newline + 1);
  return `…\n${kept}`;
}

/** A failed `@tool` run: the command, its exit code and the end of its output. */
export function toolEvidence(command: string, exit: number | null, output: string | undefined): string {
  const how = exit === null ? 'gave no exit code (it did not run)' : `exited ${exit}`;
  const tail = output === undefined || output.trim() === '' ? '' : `; the end of its output:\n${output.replace(/\s+$/, '')}`;
  return tailOf(`\`${command}\` ${how}${tail}`);
}

/** A failed verdict (a `@gate`, `@verify` or an item's verification): its reasons. */
export function verdictEvidence(what: string, reasons: string): string {
  return tailOf(`${what} failed: ${reasons.trim() || 'no reasons given'}`);
}

/** The evidence to hand a dispatch of `target`: its own last failure (a retry), then each node whose taken route sends to it. */
export function evidenceFor(model: Pick<RunModel, 'evidence' | 'routing'>, target: number): Evidence[] {
  const out: Evidence[] = [];
  const own = model.evidence[String(target)];
  if (own !== undefined) out.push({ from: target, text: own });
  const sources = new Set<number>();
  for (const route of model.routing.taken) if (route.to === target && route.from !== target) sources.add(route.from);
  for (const from of [...sources].sort((a, b) => a - b)) {
    const text = model.evidence[String(from)];
    if (text !== undefined) out.push({ from, text });
  }
  return out;
}

/** Evidence as both engines show it: one paragraph per node, naming it. */
export function renderEvidence(evidence: readonly Evidence[], items: readonly Pick<PlanItem, 'index' | 'kind' | 'text'>[], target: number): string {
  return evidence
    .map(({ from, text }) => {
      const node = items.find((item) => item.index === from);
      const name = node === undefined ? `item ${from}` : `item ${from} (${node.kind === 'work' ? '' : `@${node.kind} `}${node.text})`;
      return `${from === target ? 'The last attempt at this item failed' : `Why the route from ${name} sent you here`}:\n${text}`;
    })
    .join('\n\n');
}

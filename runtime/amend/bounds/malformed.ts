import { resolveRef, routeOf } from '../refs.js';
import { MAX_ADD_TEXT } from '../limits.js';
import type { Proposal } from '../schema.js';
import type { Bound, BoundInput } from './bound.js';

/** A proposal must be well formed and name things that exist (or were added earlier in the batch). */
export const malformed: Bound = {
  code: 'malformed',
  check(proposal, input) {
    if (proposal.problem) return proposal.problem;
    if (proposal.verb === 'ROUTE') return routeProblem(proposal, input);
    if (proposal.verb === 'ADD') return addProblem(proposal, input);
    return `"${proposal.word}" is not a verb; use ROUTE or ADD`;
  },
};

const addedBefore = (accepted: readonly Proposal[]) => accepted.filter((p) => p.verb === 'ADD').length;

function routeProblem(proposal: Extract<Proposal, { verb: 'ROUTE' }>, { ir, accepted }: BoundInput): string | null {
  const source = resolveRef(ir, proposal.item);
  if (source === null) return `no item "${proposal.item}" in the plan`;
  const found = routeOf(ir, proposal);
  if (!found) return `item ${source} declares no route on "${proposal.condition}"`;
  const target = resolveRef(ir, proposal.target, addedBefore(accepted));
  if (target === null) return `target "${proposal.target}" is out of range (items 1..${ir.items.length + addedBefore(accepted)})`;
  const twice = accepted.some(
    (other) => other.verb === 'ROUTE' && routeOf(ir, other)?.item.index === source && routeOf(ir, other)?.position === found.position,
  );
  return twice ? `the route of item ${source} on "${proposal.condition}" is already re-pointed in this batch` : null;
}

function addProblem(proposal: Extract<Proposal, { verb: 'ADD' }>, { ir, accepted }: BoundInput): string | null {
  const text = proposal.text.trim();
  if (text === '') return 'ADD has no text';
  if (text.length > MAX_ADD_TEXT) return `ADD text is ${text.length} characters; at most ${MAX_ADD_TEXT}`;
  if (/^\((?:after|deps)\s*:/i.test(text)) return 'more than one (after:) list';
  if (/^\[[ xX]\]/.test(text)) return 'ADD text starts with a checkbox';
  for (const ref of proposal.after ?? []) {
    // Appended items come last, so every existing (or earlier-added) item is a valid dependency.
    if (resolveRef(ir, ref, addedBefore(accepted)) === null) return `(after: ${ref}) names no item`;
  }
  return null;
}

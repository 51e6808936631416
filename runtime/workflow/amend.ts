import { resolveRef } from '../plan/refs.js';
import type { PlanIR } from '../plan/schema.js';
import type { AddProposal, Proposal } from '../amend/schema.js';
import { expandNode } from '../plan/compact.js';
import { leopoldCommand } from '../project-cli/index.js';
import { base64Utf8 } from './base64.js';
import type { EmbeddedNode } from './plan.js';

/**
 * The work items a batch of accepted ADD proposals appends, as the run dispatches them:
 * the next indexes in order, `(after: …)` resolved (an earlier ADD of the same batch
 * counts), no markers. Classification happens at compile time and an added item was not
 * compiled, so it gets the defaults of an unremarkable item: effort `medium`, neither
 * critical nor sensitive (the correctness reviewer only), no scenarios, no write scope.
 */
export function addedWork(ir: PlanIR, accepted: readonly Proposal[]): EmbeddedNode[] {
  const adds = accepted.filter((proposal): proposal is AddProposal => proposal.verb === 'ADD');
  return adds.map((add, k) => {
    const index = ir.items.length + k + 1;
    const deps: number[] = [];
    for (const ref of add.after ?? []) {
      const dep = resolveRef(ir, ref, k);
      // The judge refused unresolvable references (malformed); duplicates collapse as in the parser.
      if (dep !== null && dep < index && !deps.includes(dep)) deps.push(dep);
    }
    // Every other field at its default: the one table of them (runtime/plan/compact.ts).
    return expandNode({ index, text: add.text.trim(), deps }, index - 1);
  });
}

/**
 * The exact scribe invocation that applies accepted proposals to PLAN.md: one
 * ```leopold-amend block, base64 (the sandbox has no btoa), judged again by the CLI
 * (context `feedback`, its default) against the on-disk plan and state.json.
 */
export function amendCommand(accepted: readonly Proposal[], context: 'feedback' | 'runtime' = 'feedback'): string {
  const block = ['```leopold-amend', ...accepted.map((proposal) => proposal.raw), '```', ''].join('\n');
  return leopoldCommand(`plan amend --base64 ${base64Utf8(block)}${context === 'runtime' ? ' --context runtime' : ''} --json`);
}

// The repair phase (docs/compile.md): bounded, all-or-nothing, in memory. amendText judges the
// proposals with runtime/amend, applies them and re-validates the result; every plan change
// (compile's repair, `leopold plan amend` for @feedback and the runtime deadlock repair)
// goes through it, and compiler/cli/amend-plan-file.ts writes PLAN.md only when `ok`.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { AMENDMENT_BUDGET } from '../../runtime/amend/index.js';
import type { DecisionInput } from '../../runtime/decisions/index.js';
import type { PlanIR } from '../../runtime/plan/schema.js';
import { amendText, type RepairOutcome } from './amend.js';

export { amendText, type AmendTextInput, type RepairFailure, type RepairOutcome } from './amend.js';
export { unifiedDiff } from './diff.js';
export { repairPrompt, type RepairPromptInput } from './prompt.js';
export { reversalOf } from './reversal.js';
export { repairPersona } from './persona.js';
export { proposalVerdicts, renderRepairReport, type ProposalVerdict } from './report.js';

/** What a repair starts from: an amendment in context `repair` of a plan already analysed. */
export interface RepairInput {
  /** PLAN.md text as read (BOM and line endings kept). */
  text: string;
  /** The plan's name in diagnostics and the diff. */
  file: string;
  ir: PlanIR;
  /** The plan's diagnostics before the repair (at least one error). */
  diagnostics: readonly Diagnostic[];
  /** The answer holding the proposals: a ```leopold-amend block (the last one counts). */
  answer: string;
  /** Plan changes already spent this run (state.json `amendments_used`, 0 outside a run). */
  used: number;
  /** CHARTER.md text, to judge a named persona. */
  charter: string;
}

/**
 * Judges, applies and re-validates a repair in memory (amendText in context `repair`).
 * All-or-nothing: if any proposal is refused, or the amended plan still has an error,
 * nothing is applied (`ok` false, `text` the original). Pure: writes nothing.
 */
export function repairPlan(input: RepairInput): RepairOutcome {
  const { ir, diagnostics, ...rest } = input;
  return amendText({ ...rest, context: 'repair', analysis: { ir, diagnostics } });
}

/**
 * The DECISIONS.md entry for a successful repair (fork `repair`, reversible, so a silent
 * charter is fine): what was changed, why, and the exact lines that undo it.
 */
export function repairDecision(outcome: RepairOutcome, file: string): DecisionInput {
  const accepted = outcome.judgement?.accepted ?? [];
  const codes = [...new Set(outcome.before.filter((d) => d.severity === 'error').map((d) => d.code))].sort();
  const errors = outcome.before.filter((d) => d.severity === 'error').length;
  return {
    title: `Repaired ${file}: ${accepted.map((p) => p.raw).join('; ')}`,
    fork: 'repair',
    item: file,
    persona: outcome.persona,
    class: 'reversible',
    charter: 'silent',
    decision: `Applied ${accepted.length} bounded change${accepted.length === 1 ? '' : 's'} to ${file}: ${accepted.map((p) => p.raw).join('; ')}.`,
    why:
      `The plan had ${errors} error${errors === 1 ? '' : 's'} (${codes.join(', ')}) and could not compile; the repair passed every ` +
      `amendment bound and the amended plan validates (completeness, bias to action). Budget used: ${outcome.used} of ${AMENDMENT_BUDGET}.`,
    reversal: outcome.reversal,
  };
}

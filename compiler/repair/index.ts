// The repair phase (SPEC-PLAN §4): bounded, all-or-nothing, in memory. Proposals are judged
// by runtime/amend (the same judge `@feedback` and the runtime deadlock repair use), applied
// to the text, and the result re-validated; the caller writes PLAN.md only when `ok`.
import { hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics/diagnostic.js';
import { checkPlan } from '../graph/index.js';
import { parsePlan } from '../../runtime/plan/parse/index.js';
import {
  AMENDMENT_BUDGET,
  applyAmendments,
  judgeAmendments,
  parseAmendments,
  type Applied,
  type Judgement,
  type Proposal,
} from '../../runtime/amend/index.js';
import type { DecisionInput, DecisionPersona } from '../../runtime/decisions/index.js';
import type { PlanIR } from '../../runtime/plan/schema.js';
import { unifiedDiff } from './diff.js';
import { repairPersona } from './persona.js';
import { reversalOf } from './reversal.js';

export { unifiedDiff } from './diff.js';
export { repairPrompt, type RepairPromptInput } from './prompt.js';
export { reversalOf } from './reversal.js';
export { repairPersona } from './persona.js';
export { proposalVerdicts, renderRepairReport, type ProposalVerdict } from './report.js';

/** What a repair starts from. */
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

/** Why a repair wrote nothing. */
export type RepairFailure = 'no-proposals' | 'refused' | 'still-invalid';

/** The verdict on one repair: everything the CLI prints, writes or records. */
export interface RepairOutcome {
  ok: boolean;
  failure: RepairFailure | null;
  proposals: Proposal[];
  judgement: Judgement | null;
  /** Diagnostics before the repair. */
  before: Diagnostic[];
  /** Diagnostics of the amended text (equal to `before` when nothing was applied). */
  after: Diagnostic[];
  /** The repaired text when ok; the original otherwise. */
  text: string;
  applied: Applied | null;
  /** Unified diff of PLAN.md ('' unless ok). */
  diff: string;
  /** How to undo the repair (DECISIONS.md Reversal); '' unless ok. */
  reversal: string;
  persona: DecisionPersona | null;
  /** Why a named persona was not used, if one was named and refused. */
  personaNote: string | null;
  /** The add-budget count after the repair (what state.json should hold when ok). */
  used: number;
}

/**
 * Judges, applies and re-validates a repair in memory. All-or-nothing: if any proposal is
 * refused, or the amended plan still has an error, nothing is applied (`ok` false, `text`
 * the original). Pure: writes nothing.
 */
export function repairPlan(input: RepairInput): RepairOutcome {
  const before = sortDiagnostics(input.diagnostics);
  const proposals = parseAmendments(input.answer);
  const { persona, note } = repairPersona(input.answer, input.charter);
  const base = {
    proposals,
    before,
    after: before,
    text: input.text,
    applied: null,
    diff: '',
    reversal: '',
    persona,
    personaNote: note,
    used: input.used,
  };
  if (proposals.length === 0) return { ...base, ok: false, failure: 'no-proposals', judgement: null };
  const judgement = judgeAmendments(proposals, { ir: input.ir, used: input.used, context: 'repair' });
  if (judgement.refused.length > 0) return { ...base, ok: false, failure: 'refused', judgement };

  const applied = applyAmendments(input.text, input.ir, judgement.accepted);
  const after = checkPlan(parsePlan(applied.text, input.file));
  if (hasErrors(after)) return { ...base, ok: false, failure: 'still-invalid', judgement, after, applied };
  return {
    ...base,
    ok: true,
    failure: null,
    judgement,
    after,
    text: applied.text,
    applied,
    diff: unifiedDiff(input.text, applied.text, `a/${input.file}`, `b/${input.file}`),
    reversal: reversalOf(input.file, input.text, applied.text, applied),
    used: judgement.used,
  };
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

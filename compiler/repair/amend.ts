// The pure half of the amendment pipeline (docs/compile.md): judge → apply → validate, in
// memory. Every plan change goes through it: compile's repair, `leopold plan amend` (what
// a @feedback node's scribe and the runtime deadlock repair run). The other half, the
// locked atomic write, is compiler/cli/amend-plan-file.ts.
import { hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics/diagnostic.js';
import { checkPlan } from '../graph/index.js';
import { parsePlan } from '../../runtime/plan/parse/index.js';
import {
  applyAmendments,
  judgeAmendments,
  parseAmendments,
  type AmendContext,
  type Applied,
  type Judgement,
  type Proposal,
} from '../../runtime/amend/index.js';
import type { DecisionPersona } from '../../runtime/decisions/index.js';
import type { PlanIR } from '../../runtime/plan/schema.js';
import { unifiedDiff } from './diff.js';
import { repairPersona } from './persona.js';
import { reversalOf } from './reversal.js';

/** What an amendment starts from. */
export interface AmendTextInput {
  /** PLAN.md text as read (BOM and line endings kept). */
  text: string;
  /** The plan's name in diagnostics and the diff. */
  file: string;
  /** The answer holding the proposals: a ```leopold-amend block (the last one counts). */
  answer: string;
  /** Plan changes already spent this run (state.json `amendments_used`, 0 outside a run). */
  used: number;
  /** Who proposes: the bounds differ (ROUTE only in `repair` and `runtime`). */
  context: AmendContext;
  /** CHARTER.md text, to judge a persona the answer names ('' when there is none). */
  charter?: string;
  /** The text's IR and diagnostics when the caller has them already; else parsed and checked here. */
  analysis?: { ir: PlanIR; diagnostics: readonly Diagnostic[] };
}

/** Why an amendment wrote nothing. */
export type RepairFailure = 'no-proposals' | 'refused' | 'still-invalid';

/** The verdict on one amendment: everything a caller prints, writes or records. */
export interface RepairOutcome {
  ok: boolean;
  failure: RepairFailure | null;
  proposals: Proposal[];
  judgement: Judgement | null;
  /** Diagnostics before the amendment. */
  before: Diagnostic[];
  /** Diagnostics of the amended text (equal to `before` when nothing was applied). */
  after: Diagnostic[];
  /** The amended text when ok; the original otherwise. */
  text: string;
  applied: Applied | null;
  /** Unified diff of PLAN.md ('' unless ok). */
  diff: string;
  /** How to undo the amendment (DECISIONS.md Reversal); '' unless ok. */
  reversal: string;
  persona: DecisionPersona | null;
  /** Why a named persona was not used, if one was named and refused. */
  personaNote: string | null;
  /** The add-budget count after the amendment (what state.json should hold when ok). */
  used: number;
}

/**
 * Judges the answer's proposals against the bounds of `context`, applies them to the text
 * and validates the result with the parser and the graph checks. All or nothing: if any
 * proposal is refused, or the amended plan has an error, nothing is applied (`ok` false,
 * `text` the original). Pure: writes nothing.
 */
export function amendText(input: AmendTextInput): RepairOutcome {
  const analysis = input.analysis ?? analyze(input.text, input.file);
  const before = sortDiagnostics(analysis.diagnostics);
  const proposals = parseAmendments(input.answer);
  const { persona, note } = repairPersona(input.answer, input.charter ?? '');
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
  const judgement = judgeAmendments(proposals, { ir: analysis.ir, used: input.used, context: input.context });
  if (judgement.refused.length > 0) return { ...base, ok: false, failure: 'refused', judgement };

  const applied = applyAmendments(input.text, analysis.ir, judgement.accepted);
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

function analyze(text: string, file: string): { ir: PlanIR; diagnostics: Diagnostic[] } {
  const ir = parsePlan(text, file);
  return { ir, diagnostics: checkPlan(ir) };
}

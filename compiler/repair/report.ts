import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { renderText, type SourceLookup } from '../diagnostics/render-text.js';
import type { RepairOutcome } from './index.js';

const FAILURE_TEXT = {
  'no-proposals': 'the answer holds no proposals (expected a ```leopold-amend block with one ROUTE or ADD per line)',
  refused: 'a proposal broke a bound, and a repair is all-or-nothing',
  'still-invalid': 'the amended plan still has errors',
} as const;

/** One proposal's verdict, as the report and `--format json` show it. */
export interface ProposalVerdict {
  line: number;
  proposal: string;
  verdict: 'accepted' | 'refused';
  bound?: string;
  detail?: string;
}

/** Every proposal in block order with its verdict and, when refused, the bound and why. */
export function proposalVerdicts(outcome: RepairOutcome): ProposalVerdict[] {
  const judgement = outcome.judgement;
  return outcome.proposals.map((proposal) => {
    const refusal = judgement?.refused.find((r) => r.proposal === proposal);
    if (refusal) return { line: proposal.line, proposal: proposal.raw, verdict: 'refused', bound: refusal.code, detail: refusal.detail };
    return { line: proposal.line, proposal: proposal.raw, verdict: 'accepted' };
  });
}

/**
 * The refusal a failed repair prints (docs/compile.md): why nothing was written, the original
 * diagnostics, each proposal accepted or refused with its bound, and what is still invalid.
 */
export function renderRepairReport(outcome: RepairOutcome, file: string, sources?: SourceLookup): string {
  if (outcome.ok || !outcome.failure) return '';
  const errors = (list: readonly Diagnostic[]) => list.filter((d) => d.severity === 'error');
  const out = [`repair refused: ${FAILURE_TEXT[outcome.failure]}; ${file} was not changed.`, '', 'original diagnostics:'];
  out.push(indent(renderText(outcome.before, sources)));
  out.push('proposals:');
  const verdicts = proposalVerdicts(outcome);
  if (verdicts.length === 0) out.push('  (none)');
  const width = Math.max(0, ...verdicts.map((v) => `${v.proposal}`.length));
  for (const v of verdicts) {
    const tail = v.verdict === 'refused' ? `refused ${v.bound}: ${v.detail}` : 'accepted';
    out.push(`  ${String(v.line).padStart(2)}. ${v.proposal.padEnd(width)}  ${tail}`);
  }
  if (outcome.personaNote) out.push(`  (${outcome.personaNote})`);
  out.push('', 'still invalid:');
  const remaining = errors(outcome.after);
  const note = outcome.failure === 'still-invalid' ? 'after applying the accepted proposals in memory' : 'nothing was applied';
  out.push(`  ${remaining.length} error${remaining.length === 1 ? '' : 's'} (${note}):`);
  out.push(indent(renderText(remaining.map((d) => ({ ...d, hint: undefined })))));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

function indent(text: string): string {
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');
}

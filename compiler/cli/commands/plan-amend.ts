import type { Command } from 'commander';
import { z } from 'zod';
import { LeopoldError, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { parseAmendments, AMENDMENT_BUDGET, type Refusal } from '../../../runtime/amend/index.js';
import { FileError } from '../../../runtime/fs/file-error.js';
import { amendPlanFile, type AmendFileResult } from '../amend-plan-file.js';
import { EXIT } from '../exit.js';
import { shownPath } from '../io.js';
import { decodeBase64Option, locatePlan } from '../io.js';

/** `leopold plan amend` options, validated once here. Compile's own repair is `leopold compile --repair-from`. */
export const PlanAmendOptionsSchema = z.object({
  plan: z.string().min(1, 'expected a path to PLAN.md').optional(),
  base64: z.string().optional(),
  context: z.enum(['feedback', 'runtime'], { error: 'expected feedback or runtime' }).default('feedback'),
  json: z.boolean().default(false),
});
export type PlanAmendOptions = z.infer<typeof PlanAmendOptionsSchema>;

/** A refused proposal as the ack names it. */
export interface RefusedProposal {
  proposal: string;
  code: string;
  detail: string;
}

/** What `leopold plan amend --json` prints. */
export type AmendAck =
  | { ok: true; added: number[]; rewritten: number[]; used: number }
  | { ok: false; error: string; refused: RefusedProposal[]; diagnostics?: Diagnostic[] };

/** The ack and the exit code: 0 applied, 1 refused (PLAN.md untouched), 2 unusable input. */
export interface AmendOutcome {
  ack: AmendAck;
  code: 0 | 1 | 2;
}

const unusable = (error: string): AmendOutcome => ({ ack: { ok: false, error, refused: [] }, code: EXIT.usage });
const refusedOf = (refusals: readonly Refusal[]): RefusedProposal[] =>
  refusals.map(({ proposal, code, detail }) => ({ proposal: proposal.raw, code, detail }));

/**
 * Applies one answer's ```leopold-amend block to the plan at `planPath`, all or nothing
 * (docs/compile.md), through the amendment pipeline (amendPlanFile): judged by runtime/amend
 * against the run's spent budget, applied in memory, re-validated with the parser and the
 * graph checks, and only then written, once, atomically, under the same lock as `leopold
 * plan tick`. A refused proposal or an amended plan with errors writes nothing.
 */
export async function amendPlan(
  planPath: string,
  answer: string,
  context: PlanAmendOptions['context'],
  /** The plan's name in diagnostics (as the user sees it); default `planPath`. */
  shown = planPath,
): Promise<AmendOutcome> {
  if (answer.trim() === '') return unusable('no input: pass an answer holding a ```leopold-amend block on stdin or with --base64');
  const proposals = parseAmendments(answer);
  if (proposals.length === 0) return unusable('the input holds no ```leopold-amend block with a proposal (ADD … or ROUTE …, one per line)');
  let result: AmendFileResult;
  try {
    result = await amendPlanFile({ planPath, shown, answer, context });
  } catch (error) {
    if (error instanceof LeopoldError) return unusable(error.render());
    // PLAN.md (or state.json) could not be read or written: nothing was applied.
    if (error instanceof FileError) return unusable(error.describe(process.cwd()));
    throw error;
  }
  const { outcome } = result;
  if (outcome.failure === 'refused') {
    const n = outcome.judgement?.refused.length ?? 0;
    const error = `${n} of ${proposals.length} proposal${proposals.length === 1 ? '' : 's'} refused; nothing was applied (all or nothing)`;
    return { ack: { ok: false, error, refused: refusedOf(outcome.judgement?.refused ?? []) }, code: EXIT.planErrors };
  }
  if (outcome.failure === 'still-invalid') {
    const errors = outcome.after.filter((d) => d.severity === 'error');
    const named = errors.slice(0, 3).map((d) => `${d.code}: ${d.message}`).join('; ');
    const error = `the amended plan would have ${errors.length} error${errors.length === 1 ? '' : 's'} (${named}); nothing was applied`;
    return { ack: { ok: false, error, refused: [], diagnostics: errors }, code: EXIT.planErrors };
  }
  const applied = outcome.applied;
  if (!result.written || !applied) return unusable('the answer holds no proposal PLAN.md could take; nothing was applied');
  return { ack: { ok: true, added: applied.added, rewritten: applied.rewrittenLines, used: result.used }, code: EXIT.ok };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function describe(outcome: AmendOutcome): string {
  const { ack } = outcome;
  if (ack.ok) {
    const what = [
      ack.added.length > 0 ? `added item${ack.added.length === 1 ? '' : 's'} ${ack.added.join(', ')}` : '',
      ack.rewritten.length > 0 ? `re-pointed the route on line${ack.rewritten.length === 1 ? '' : 's'} ${ack.rewritten.join(', ')}` : '',
    ].filter(Boolean);
    return `amended the plan: ${what.join('; ')} (${ack.used} of ${AMENDMENT_BUDGET} plan changes used this run)\n`;
  }
  const lines = [`leopold: ${ack.error}`, ...ack.refused.map((r) => `leopold:   ${r.code}: ${r.proposal} (${r.detail})`)];
  return `${lines.join('\n')}\n`;
}

const HELP = `
Reads one answer holding a \`\`\`leopold-amend block (the last block counts; one proposal per
line) from stdin or --base64, judges it against the repair bounds of docs/compile.md (context feedback:
ADD only; runtime: ROUTE and ADD), and, only when every proposal is accepted and the amended
plan has no errors, writes PLAN.md once, atomically. While a run is active the budget is
state.json amendments_used (3 per run) and the spent changes are added to it.

--json prints one line: { "ok": true, "added": [N…], "rewritten": [line…], "used": N }
or { "ok": false, "error": "…", "refused": [{ "proposal", "code", "detail" }] }.

Exit codes:
  0  applied
  1  refused (a bound, or the amended plan would be invalid); PLAN.md is untouched
  2  unusable input (no block, no proposal, no plan, bad option)
`;

/** Registers `leopold plan amend` under the `plan` command. */
export function registerPlanAmend(plan: Command): void {
  plan
    .command('amend')
    .description('Apply a leopold-amend block (stdin or --base64) to PLAN.md, all or nothing, within the run budget')
    .option('--plan <file>', 'the plan file (default: the nearest .leopold/PLAN.md)')
    .option('--base64 <text>', 'the answer, base64-encoded (instead of stdin)')
    .option('--context <context>', 'who proposes: feedback (a @feedback node; ADD only) or runtime (the deadlock repair)', 'feedback')
    .option('--json', 'print the acknowledgement as one JSON line')
    .addHelpText('after', HELP)
    .action(async (raw: Record<string, unknown>) => {
      const json = raw.json === true;
      const outcome = await run(raw);
      if (json) process.stdout.write(`${JSON.stringify(outcome.ack)}\n`);
      else if (outcome.ack.ok) process.stdout.write(describe(outcome));
      else process.stderr.write(describe(outcome));
      process.exitCode = outcome.code;
    });
}

async function run(raw: Record<string, unknown>): Promise<AmendOutcome> {
  const parsed = PlanAmendOptionsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return unusable(`--${issue.path.join('.')}: ${issue.message}`);
  }
  const options = parsed.data;
  let planPath: string;
  try {
    planPath = locatePlan(process.cwd(), options.plan);
  } catch (error) {
    if (error instanceof LeopoldError) return unusable(error.render());
    throw error;
  }
  let answer: string;
  if (options.base64 !== undefined) {
    const decoded = decodeBase64Option(options.base64);
    if (!decoded.ok) return unusable(decoded.error);
    answer = decoded.text;
  } else {
    answer = process.stdin.isTTY ? '' : await readStdin();
  }
  return amendPlan(planPath, answer, options.context, shownPath(process.cwd(), planPath));
}

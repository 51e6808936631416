// The amendment pipeline, end to end (docs/compile.md): under `PLAN.md.lock`, read PLAN.md and
// the run's spent budget, judge → apply → validate in memory (amendText), and only then
// write PLAN.md once, atomically, and add the spent changes to state.json. Compile's repair
// and `leopold plan amend` (a @feedback node's scribe, the runtime deadlock repair) use it.
import { dirname } from 'node:path';
import type { AmendContext } from '../../runtime/amend/index.js';
import { emptyState, readState, updateState } from '../../runtime/state/index.js';
import { amendText, type RepairOutcome } from '../repair/amend.js';
import { rewritePlan } from './plan-writer.js';

/** One amendment to apply to a plan file. */
export interface AmendFileRequest {
  /** PLAN.md, absolute or relative to the working directory. */
  planPath: string;
  /** The plan's name in diagnostics and the diff, as the user sees it. */
  shown: string;
  /** The answer holding the proposals (a ```leopold-amend block; the last one counts). */
  answer: string;
  context: AmendContext;
  /** CHARTER.md text, to judge a persona the answer names. */
  charter?: string;
  /**
   * PLAN.md's bytes when the proposals were made (compile's repair reads the plan, then
   * waits up to 120 s for its repair command). When the file differs under the lock (a
   * `plan tick` landed meanwhile) the same proposals are judged again against it.
   */
  basis?: Uint8Array;
  /**
   * A last check of the amended text beyond the parser and the graph checks, still under
   * the lock (compile: the whole compile must succeed); false writes nothing.
   */
  mayWrite?: (amended: string) => boolean;
  /**
   * What must be written with the amendment, still under the lock (compile: its
   * DECISIONS.md entry). If it fails, PLAN.md and the budget are put back and the failure
   * is thrown.
   */
  afterWrite?: (outcome: RepairOutcome) => void | Promise<void>;
}

/** What the pipeline did. */
export interface AmendFileResult {
  /** The verdict, judged against PLAN.md as it was under the lock. */
  outcome: RepairOutcome;
  /** The plan text the verdict was judged against (the current file, not the basis). */
  judgedText: string;
  /** True when PLAN.md's bytes differed from `basis`. */
  drifted: boolean;
  /** True when PLAN.md was written. */
  written: boolean;
  /** The run's plan changes after this one: state.json's count during an active run, else the batch's own. */
  used: number;
}

/**
 * Applies one answer's proposals to the plan at `request.planPath`, all or nothing: judged
 * by runtime/amend against the budget already spent (state.json `amendments_used` beside
 * the plan while a run is active, else 0), applied and re-validated in memory, then
 * written once, atomically, by the one PLAN.md writer, under the lock every plan writer
 * takes. A refusal, an invalid result or a failed `mayWrite` writes nothing.
 */
export async function amendPlanFile(request: AmendFileRequest): Promise<AmendFileResult> {
  const briefDir = dirname(request.planPath);
  return rewritePlan(request.planPath, async ({ bytes, text, write }) => {
    const drifted = request.basis !== undefined && !bytes.equals(request.basis);
    const active = readState(briefDir).state;
    const spent = active?.active ? active.amendments_used : 0;
    const outcome = amendText({ text, file: request.shown, answer: request.answer, used: spent, context: request.context, charter: request.charter ?? '' });
    const unwritten = { outcome, judgedText: text, drifted, written: false, used: outcome.used };
    if (!outcome.ok || (request.mayWrite && !request.mayWrite(outcome.text))) return unwritten;

    // An ADD only appends: keep the original bytes exactly and add the new ones after them.
    const appended = outcome.text.startsWith(text) ? Buffer.concat([bytes, Buffer.from(outcome.text.slice(text.length), 'utf8')]) : null;
    write(appended ?? outcome.text);
    const changes = outcome.judgement?.accepted.length ?? 0;
    let used = spent + changes;
    let counted = false;
    try {
      if (readState(briefDir).state?.active) {
        const state = await updateState(briefDir, (current) => {
          const base = current ?? emptyState();
          return { ...base, amendments_used: base.amendments_used + changes };
        });
        counted = true;
        used = state.amendments_used;
      }
      await request.afterWrite?.(outcome);
    } catch (error) {
      // All or nothing: a budget or a trail that cannot be written (a full disk) takes the
      // amendment back, as far as the disk still allows, before the failure is reported.
      try {
        write(bytes);
        if (counted) await updateState(briefDir, (current) => ({ ...(current ?? emptyState()), amendments_used: Math.max(0, (current?.amendments_used ?? 0) - changes) }));
      } catch {
        // The disk refuses even that: the failure below still says which file could not be written.
      }
      throw error;
    }
    return { ...unwritten, written: true, used };
  });
}

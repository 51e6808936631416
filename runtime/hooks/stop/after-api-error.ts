import { apiErrorDetail, apiErrorOf, apiErrorResume } from '../../api-error/index.js';
import { ownerOf } from '../../owner/index.js';
import { updateState } from '../../state/io.js';
import type { RunState } from '../../run/index.js';
import type { StopAnswer } from './answer.js';

class AlreadyTold {}

/**
 * The first Stop after an API error ended the run, in the session that conducted it: Claude
 * Code ignores what a StopFailure hook prints (measured on 2.1.332), so the user learns here,
 * once, that the run ended and how to resume. Marks `api_error.told` in state.json so it
 * is said once. '' when there is nothing to say, and always for a workflow run: only `run
 * finish` ends one, and it has printed the same report with the resume hint already (seen
 * by a model in the loop: the notice repeated it, naming a turn where an agent died).
 */
export async function afterApiErrorNotice(leopoldDir: string, state: RunState, session: string | null): Promise<StopAnswer> {
  if (state.engine === 'workflow') return { kind: 'silent' };
  const failed = apiErrorOf(state);
  const owner = ownerOf(state);
  const record = (state as Record<string, unknown>).api_error as Record<string, unknown>;
  if (failed === null || record.told === true || (owner !== null && session !== null && owner.session !== session)) return { kind: 'silent' };
  try {
    await updateState(leopoldDir, (current) => {
      const now = current ? ((current as Record<string, unknown>).api_error as Record<string, unknown> | undefined) : undefined;
      // Told meanwhile by another Stop, or a new run started: nothing to write.
      if (!current || current.active || now === null || typeof now !== 'object' || now.told === true) throw new AlreadyTold();
      return { ...current, api_error: { ...now, told: true } } as RunState;
    });
  } catch (error) {
    if (error instanceof AlreadyTold) return { kind: 'silent' };
    throw error;
  }
  const message = `Leopold: the run ended when a turn died on an API error (${failed.at}): ${apiErrorDetail(failed.error)} ${apiErrorResume(failed.error)} (leopold run status shows the run.)`;
  return { kind: 'message', text: message };
}

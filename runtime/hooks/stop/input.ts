/** What the Stop hook reads from Claude Code's hook JSON (docs/hooks.md); everything else is ignored. */
export interface StopHookInput {
  /** The session's working directory, when the input names an absolute one. */
  cwd: string | null;
  /** A workflow is running in `background_tasks` (it conducts the run; the stop is allowed). */
  workflowRunning: boolean;
  /** The session transcript (its size feeds the context-budget check when present). */
  transcriptPath: string | null;
  /** The Claude Code session: a new one opens a new context window (docs/hooks.md). */
  sessionId: string | null;
}

/**
 * Reads the hook JSON without a schema library (the hook must start fast). Anything that is
 * not a JSON object is null: there is nothing to judge, and the hook lets the stop happen.
 */
export function parseStopInput(stdin: string): StopHookInput | null {
  let json: unknown;
  try {
    json = JSON.parse(stdin);
  } catch {
    return null;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return null;
  const input = json as Record<string, unknown>;
  const cwd = typeof input.cwd === 'string' && input.cwd.startsWith('/') ? input.cwd : null;
  const tasks = Array.isArray(input.background_tasks) ? input.background_tasks : [];
  const workflowRunning = tasks.some(
    (task) => task !== null && typeof task === 'object' && (task as Record<string, unknown>).type === 'workflow' && !finished(task as Record<string, unknown>),
  );
  const transcriptPath = typeof input.transcript_path === 'string' && input.transcript_path !== '' ? input.transcript_path : null;
  const sessionId = typeof input.session_id === 'string' && input.session_id !== '' ? input.session_id : null;
  return { cwd, workflowRunning, transcriptPath, sessionId };
}

// A background task that reports a terminal status is no longer running; one that reports
// no status is (the host lists running tasks).
function finished(task: Record<string, unknown>): boolean {
  const status = typeof task.status === 'string' ? task.status.toLowerCase() : '';
  return ['completed', 'complete', 'done', 'failed', 'cancelled', 'canceled', 'killed', 'stopped'].includes(status);
}

/**
 * What the Stop hook answers: keep the session on the next item (`block`, with the
 * instruction), let it stop with a message for the user (`message`), or say nothing.
 */
export type StopAnswer = { kind: 'block'; reason: string } | { kind: 'message'; text: string } | { kind: 'silent' };

/** No opinion: the session may stop, nothing is said. */
export const SILENT: StopAnswer = { kind: 'silent' };

/**
 * How an answer leaves the process. A block is exit code 2 with the reason on stderr: the
 * client then puts the reason into the model's context once, where a JSON
 * `{"decision":"block"}` answer puts it there twice, as hook feedback and again as a
 * system message (measured on 2.1.332; docs/hooks.md). A message is `{"systemMessage":…}`
 * on stdout, exit 0; silence is nothing, exit 0.
 */
export function stopAnswerOutput(answer: StopAnswer): { stdout: string; stderr: string; exitCode: 0 | 2 } {
  if (answer.kind === 'block') return { stdout: '', stderr: `${answer.reason}\n`, exitCode: 2 };
  if (answer.kind === 'message') return { stdout: `${JSON.stringify({ systemMessage: answer.text })}\n`, stderr: '', exitCode: 0 };
  return { stdout: '', stderr: '', exitCode: 0 };
}

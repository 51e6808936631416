import { expect } from 'vitest';
import type { StopAnswer } from '../../runtime/hooks/stop/index.js';

/** A Stop hook's answer in process (runStopHook) or from the process (stdout, stderr and exit status). */
type Answer = StopAnswer | { stdout: string; stderr: string; status: number | null };

const isProcess = (answer: Answer): answer is { stdout: string; stderr: string; status: number | null } => 'stdout' in answer;

/** The reason of a Stop-hook answer that must be a block: exit 2 with the reason on stderr, nothing on stdout. */
export function blockOf(answer: Answer): string {
  if (isProcess(answer)) {
    expect(answer.status, `stdout: ${answer.stdout}`).toBe(2);
    expect(answer.stdout).toBe('');
    return answer.stderr.replace(/\n$/, '');
  }
  expect(answer.kind).toBe('block');
  return (answer as { reason: string }).reason;
}

/** The user-facing message of a Stop-hook answer that must allow the stop. */
export function messageOf(answer: Answer): string {
  if (isProcess(answer)) {
    expect(answer.status).toBe(0);
    const parsed = JSON.parse(answer.stdout) as { systemMessage: string; decision?: string };
    expect(parsed.decision).toBeUndefined();
    return parsed.systemMessage;
  }
  expect(answer.kind).toBe('message');
  return (answer as { text: string }).text;
}

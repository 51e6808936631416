import { expect } from 'vitest';

/** The reason of a Stop-hook answer that must be a block. */
export function blockOf(stdout: string): string {
  const parsed = JSON.parse(stdout) as { decision?: string; reason: string };
  expect(parsed.decision).toBe('block');
  return parsed.reason;
}

/** The user-facing message of a Stop-hook answer that must allow the stop. */
export function messageOf(stdout: string): string {
  const parsed = JSON.parse(stdout) as { systemMessage: string; decision?: string };
  expect(parsed.decision).toBeUndefined();
  return parsed.systemMessage;
}

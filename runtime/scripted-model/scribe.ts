/**
 * The scribe as a diligent model plays it when the script has no rule for it: run each
 * command of the scribe prompt (runtime/workflow/context.ts) in order, stop at the first
 * failure, and answer the ack from what the commands printed.
 */

/** The commands a scribe prompt lists (its four-space indented lines), in order. */
export function scribeCommandsIn(prompt: string): string[] {
  return prompt
    .split('\n')
    .filter((line) => /^ {4}\S/.test(line))
    .map((line) => line.slice(4));
}

/** One command's outcome as the client reported it. */
export interface CommandOutcome {
  command: string;
  output: string;
  failed: boolean;
}

const lastJsonLine = (output: string): Record<string, unknown> | null => {
  const lines = output.trim().split('\n').reverse();
  for (const line of lines) {
    try {
      const value = JSON.parse(line.trim()) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // not this line
    }
  }
  return null;
};

/** Whether the scribe stops after this outcome: a non-zero exit, or a JSON line saying `"ok": false`. */
export function commandFailed(outcome: CommandOutcome): boolean {
  return outcome.failed || lastJsonLine(outcome.output)?.ok === false;
}

/** The ack for the commands run so far (all of them, or up to the first failure), with the `api_error` leopold record printed. */
export function scribeAck(outcomes: readonly CommandOutcome[], expectsAdded: boolean): Record<string, unknown> {
  const failed = outcomes.find(commandFailed);
  if (failed) return { ok: false, numbers: [], error: `${failed.command}: ${failed.output.trim() || 'failed with no output'}` };
  const numbers: number[] = [];
  const added: number[] = [];
  let apiError: unknown;
  for (const outcome of outcomes) {
    const line = lastJsonLine(outcome.output);
    if (Array.isArray(line?.numbers)) numbers.push(...line.numbers.filter((n): n is number => typeof n === 'number'));
    if (Array.isArray(line?.added)) added.push(...line.added.filter((n): n is number => typeof n === 'number'));
    // `leopold record` prints the API error an agent of the run died on; the prompt says to copy it.
    if (line?.api_error && typeof line.api_error === 'object') apiError = line.api_error;
  }
  return { ok: true, numbers, ...(expectsAdded ? { added } : {}), ...(apiError !== undefined ? { api_error: apiError } : {}) };
}

import { checkWorkflowScript } from '../../compiler/emit/check/index.js';
import { runWorkflowScript, type HostRun, type RunOptions } from '../../runtime/host/index.js';

/** The meta line every test script starts with. */
export const META = "export const meta = { name: 'test', description: 'a test workflow' };";

/** A workflow script: the meta statement, then the body. */
export const script = (body: string): string => `${META}\n${body}\n`;

/** Runs a body in the stand-in host with the compiler's static check wired in, as `leopold simulate` does. */
export const run = (body: string, options: RunOptions = {}): Promise<HostRun> =>
  runWorkflowScript(script(body), { staticCheck: checkWorkflowScript, ...options });

/** Runs a body and returns its result, failing the test with the run's error when it failed. */
export async function resultOf(body: string, options: RunOptions = {}): Promise<unknown> {
  const outcome = await run(body, options);
  if (!outcome.ok) throw new Error(`run failed: ${outcome.error?.name}: ${outcome.error?.message}`);
  return outcome.result;
}

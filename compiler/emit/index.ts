// The emit phase: CompiledPlan → workflow script + args file, checked against the host contract.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { renderWorkflowArgs } from './args.js';
import { assertWorkflowScript, HOST_CONTRACT_CODES } from './check/index.js';
import { emitScript, SCRIPT_PATH, scriptSize } from './script.js';
import type { CompiledPlan } from './schema.js';

export { buildCompiledPlan, briefText, declaresGraph, sha256, type CompiledPlanInput } from './compiled-plan.js';
export { renderWorkflowArgs, WorkflowArgsSchema, type WorkflowArgs } from './args.js';
export { emitScript, metaOf, RUNTIME_GLOBAL, SCRIPT_PATH, scriptSize, WORKFLOW_NAME } from './script.js';
export { CompiledPlanSchema, stableStringify, type CompiledPlan } from './schema.js';

/** The two emitted files' contents, or the one reason there are none. */
export type Emitted =
  | { ok: true; script: string; argsJson: string; bytes: number }
  | { ok: false; diagnostic: Diagnostic };

/**
 * Emits the workflow script and the args file for a CompiledPlan. A script over the host's
 * 512 KiB limit is a plan error (`host-contract/size`, naming the size and the limit, at
 * line 1 of `planFile`); any other host-contract violation is a Leopold bug and throws
 * (assertWorkflowScript), because it runs on every emit.
 */
export function emitWorkflow(compiled: CompiledPlan, runtimeBundle: string, planFile: string): Emitted {
  const script = emitScript(compiled, runtimeBundle);
  const size = scriptSize(script);
  if (!size.fits) return { ok: false, diagnostic: tooLarge(size.bytes, size.limit, planFile, compiled) };
  assertWorkflowScript(script, SCRIPT_PATH);
  return { ok: true, script, argsJson: renderWorkflowArgs(compiled), bytes: size.bytes };
}

function tooLarge(bytes: number, limit: number, file: string, compiled: CompiledPlan): Diagnostic {
  const items = compiled.waves.reduce((n, wave) => n + wave.length, 0);
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  return {
    code: 'host-contract/size',
    severity: 'error',
    message:
      `the compiled workflow script would be ${bytes.toLocaleString('en-US')} bytes (${kib(bytes)}) for ${items} open items; ` +
      `Claude Code loads at most ${limit.toLocaleString('en-US')} bytes (${kib(limit)})`,
    file,
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 1,
    items: [],
    hint: `${HOST_CONTRACT_CODES['host-contract/size'].hint} Split the plan into smaller plans, or tick finished items (done items are not embedded in a plain checklist).`,
  };
}

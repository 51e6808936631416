// The emit phase: CompiledPlan → workflow script + args file, checked against the host contract.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { renderWorkflowArgs } from './args.js';
import { assertWorkflowScript, checkWorkflowScript, HOST_CONTRACT_CODES } from './check/index.js';
import { runtimeBundleProblems } from './runtime-bundle.js';
import { emitScript, emitScriptWithoutBundle, SCRIPT_PATH, scriptSize } from './script.js';
import type { CompiledPlan } from './schema.js';

export { buildCompiledPlan, briefText, declaresGraph, sha256, type CompiledPlanInput } from './compiled-plan.js';
export { renderWorkflowArgs, WorkflowArgsSchema, type WorkflowArgs } from './args.js';
export { bundleProbeScript, emitScript, emitScriptWithoutBundle, metaOf, RUNTIME_GLOBAL, SCRIPT_PATH, scriptSize, WORKFLOW_NAME } from './script.js';
export { CompiledPlanSchema, embeddedPlanJson, stableStringify, type CompiledPlan } from './schema.js';
export { runtimeBundleComplies, runtimeBundleProblems, trustRuntimeBundle } from './runtime-bundle.js';

/** The two emitted files' contents, or the one reason there are none. */
export type Emitted =
  | { ok: true; script: string; argsJson: string; bytes: number }
  | { ok: false; diagnostic: Diagnostic };

/**
 * Emits the workflow script and the args file for a CompiledPlan. A script over the host's
 * 512 KiB limit is a plan error (`host-contract/size`, naming the size and the limit, at
 * line 1 of `planFile`); any other host-contract violation is a Leopold bug and throws
 * (assertWorkflowScript), because it runs on every emit. A runtime bundle that complies by
 * itself (runtime-bundle.ts) is not checked again: only the script around it is.
 */
export function emitWorkflow(compiled: CompiledPlan, runtimeBundle: string, planFile: string): Emitted {
  const script = emitScript(compiled, runtimeBundle);
  const size = scriptSize(script);
  if (!size.fits) return { ok: false, diagnostic: tooLarge(size.bytes, size.limit, planFile, compiled) };
  if (runtimeBundleProblems(runtimeBundle).length === 0) assertWorkflowScript(emitScriptWithoutBundle(compiled, runtimeBundle), SCRIPT_PATH);
  else assertWorkflowScript(script, SCRIPT_PATH);
  remember(script);
  return { ok: true, script, argsJson: renderWorkflowArgs(compiled), bytes: size.bytes };
}

// The last few scripts this process emitted: each has passed the host-contract check.
const emitted: string[] = [];
function remember(script: string): void {
  if (emitted.includes(script)) return;
  emitted.push(script);
  if (emitted.length > 4) emitted.shift();
}

/**
 * checkWorkflowScript, without a second parse for a script this process has just emitted
 * (emitWorkflow checked it and found nothing): `leopold simulate` hands it to the stand-in
 * host's loader, which then parses it once, for itself.
 */
export function checkEmittedScript(source: string, file: string): Diagnostic[] {
  return emitted.includes(source) ? [] : checkWorkflowScript(source, file);
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

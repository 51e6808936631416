// The emit phase: CompiledPlan → workflow script + args file, checked against the host contract.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { renderWorkflowArgs } from './args.js';
import { HOST_CONTRACT_CODES } from './check/codes.js';
import { throwOnViolations } from './check/host-violation.js';
import { checkScriptHead } from './check/script-head.js';
import { scriptAround, scriptHead, SCRIPT_PATH, scriptSize } from './script.js';
import type { CompiledPlan } from './schema.js';
import { runtimeBundleComplies } from './vetted-bundles.js';

export { buildCompiledPlan, briefText, declaresGraph, sha256, type CompiledPlanInput } from './compiled-plan.js';
export { renderWorkflowArgs, WorkflowArgsSchema, type WorkflowArgs } from './args.js';
export { emitScript, metaOf, RUNTIME_GLOBAL, SCRIPT_PATH, scriptAround, scriptHead, scriptSize, WORKFLOW_NAME } from './script.js';
export { CompiledPlanSchema, embeddedPlanJson, stableStringify, type CompiledPlan } from './schema.js';
export { runtimeBundleComplies, trustRuntimeBundle } from './vetted-bundles.js';

/** The two emitted files' contents, or the one reason there are none. */
export type Emitted =
  | { ok: true; script: string; argsJson: string; bytes: number }
  | { ok: false; diagnostic: Diagnostic };

/**
 * Emits the workflow script and the args file for a CompiledPlan. A script over the host's
 * 512 KiB limit is a plan error (`host-contract/size`, naming the size and the limit, at
 * line 1 of `planFile`). The runtime bundle must be one checked with the template already
 * (runtimeBundleComplies: at build time, or assertRuntimeBundle in runtime-bundle.ts); then
 * only the head this plan puts into the script is checked (checkScriptHead), and a
 * violation there is a Leopold bug and throws.
 */
export function emitWorkflow(compiled: CompiledPlan, runtimeBundle: string, planFile: string): Emitted {
  const head = scriptHead(compiled);
  const script = scriptAround(head, runtimeBundle);
  const size = scriptSize(script);
  if (!size.fits) return { ok: false, diagnostic: tooLarge(size.bytes, size.limit, planFile, compiled) };
  if (!runtimeBundleComplies(runtimeBundle)) {
    throw new Error('the workflow runtime bundle has not been checked against the host contract; call assertRuntimeBundle (compiler/emit/runtime-bundle.ts) first');
  }
  throwOnViolations(checkScriptHead(head, SCRIPT_PATH));
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

/** True for a script this process emitted (and checked) recently: simulate skips its second parse (emitted-check.ts). */
export function wasEmitted(script: string): boolean {
  return emitted.includes(script);
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

import * as acorn from 'acorn';
import { HOST_PARSE_OPTIONS } from '../../runtime/host/parse-options.js';
import { checkWorkflowScript } from './check/index.js';
import { bundleProbeScript, embeddableBundle, RUNTIME_GLOBAL } from './script.js';

// The runtime bundle (dist/workflow-runtime.js) is 71 KB of every emitted script and the
// same on every compile, so it is checked against the host contract once, by itself:
// scripts/build.mjs does it when it builds the bundle, and a process handed a bundle it
// has not seen checks it on first use. After that a compile checks only what changes per
// plan: meta, the plan and the call, around a one-line stand-in for the bundle
// (emitScriptWithoutBundle). The stand-in is faithful because the bundle must be one
// statement, `var leopoldWorkflow = …;`: it adds no other name to the script's scope and
// ends its own statement. A bundle that is not (a test's hand-made one) is simply checked
// inside every script, as before.

const complying = new Set<string>();

/**
 * Why the runtime bundle cannot be checked once for every compile: its host-contract
 * violations in a script of its own (bundleProbeScript; lines count from that script's
 * two-line head), or a shape the stand-in does not stand for. Empty when it complies, and
 * then it is remembered for this process.
 */
export function runtimeBundleProblems(runtimeBundle: string): string[] {
  if (complying.has(runtimeBundle)) return [];
  const violations = checkWorkflowScript(bundleProbeScript(runtimeBundle), 'workflow-runtime probe');
  if (violations.length > 0) return violations.map((v) => `${v.file}:${v.line}:${v.column}: ${v.code}: ${v.message}`);
  const shape = shapeProblem(embeddableBundle(runtimeBundle));
  if (shape) return [shape];
  complying.add(runtimeBundle);
  return [];
}

/** True once this bundle is known to comply (runtimeBundleProblems found none, or trustRuntimeBundle). */
export function runtimeBundleComplies(runtimeBundle: string): boolean {
  return complying.has(runtimeBundle);
}

/**
 * Records that `runtimeBundle` complies without checking it: for the CLI, when the bundle's
 * hash is the one scripts/build.mjs wrote after its own check.
 */
export function trustRuntimeBundle(runtimeBundle: string): void {
  complying.add(runtimeBundle);
}

// The stand-in's premise: exactly one top-level statement, `var leopoldWorkflow = …;`.
function shapeProblem(body: string): string | null {
  const program = acorn.parse(body, HOST_PARSE_OPTIONS);
  const only = program.body.length === 1 ? program.body[0] : undefined;
  const declares =
    only?.type === 'VariableDeclaration' &&
    only.kind === 'var' &&
    only.declarations.length === 1 &&
    only.declarations[0]?.id.type === 'Identifier' &&
    only.declarations[0].id.name === RUNTIME_GLOBAL;
  if (declares && body.trimEnd().endsWith(';')) return null;
  return `the runtime bundle has ${program.body.length} top-level statement(s); expected exactly one, \`var ${RUNTIME_GLOBAL} = …;\``;
}

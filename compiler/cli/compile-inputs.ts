import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BRIEF_FILES, readGuardrailsText } from '../brief/load.js';
import { readOptionalTextFile, readTextFile } from '../brief/read-text.js';
import { LeopoldError } from '../diagnostics/diagnostic.js';
import { runtimeBundleComplies, trustRuntimeBundle } from '../emit/vetted-bundles.js';
import type { CompileOptions } from '../index.js';
import { resolvePlanPath, shownPath } from './io.js';

// What `leopold compile` and `leopold simulate` read before calling compile(): the same
// brief files, the same runtime bundle, named the same way in diagnostics.

/** Where a plan and its brief live. */
export interface PlanLayout {
  /** PLAN.md as shown to the user (relative to cwd when given so). */
  planShown: string;
  planAbs: string;
  briefDir: string;
  /** The project root: the parent of the brief directory. */
  root: string;
}

/** The layout for the plan named on the command line, or the nearest `.leopold/PLAN.md`. */
export function planLayout(planArg: string | undefined, cwd: string): PlanLayout {
  const planShown = resolvePlanPath(planArg, cwd);
  const planAbs = resolve(cwd, planShown);
  const briefDir = dirname(planAbs);
  return { planShown, planAbs, briefDir, root: dirname(briefDir) };
}

/**
 * compile()'s options from the brief beside PLAN.md (MISSION, CHARTER, GUARDRAILS, each
 * optional), the runtime bundle, `--autonomy` and LEOPOLD_AUTONOMY. PLAN.md is embedded by
 * its path from the project root; diagnostics name files as the user sees them.
 */
export function readCompileOptions(layout: PlanLayout, cwd: string, autonomyFlag: string | undefined): CompileOptions {
  const guardrailsPath = join(layout.briefDir, BRIEF_FILES.guardrails);
  return {
    file: relative(layout.root, layout.planAbs).split(sep).join('/'),
    diagnosticsFile: layout.planShown,
    mission: readOptionalTextFile(join(layout.briefDir, BRIEF_FILES.mission), 'mission file'),
    charter: readOptionalTextFile(join(layout.briefDir, BRIEF_FILES.charter), 'charter file'),
    guardrails: readGuardrailsText(guardrailsPath),
    guardrailsFile: shownPath(cwd, guardrailsPath),
    autonomyFlag,
    autonomyEnv: process.env.LEOPOLD_AUTONOMY,
    runtimeBundle: readRuntimeBundle(),
  };
}

/**
 * dist/workflow-runtime.js, built beside dist/leopold.js by scripts/build.mjs. From the
 * sources (tsx), the repository's dist/ copy is used.
 */
function readRuntimeBundle(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'workflow-runtime.js'), resolve(here, '../../dist/workflow-runtime.js')];
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new LeopoldError(`the workflow runtime bundle is missing (looked for ${candidates[0]}); run npm run build`);
  const bundle = readTextFile(found, 'workflow runtime bundle');
  if (builtHash(found) === createHash('sha256').update(bundle, 'utf8').digest('hex')) trustRuntimeBundle(bundle);
  return bundle;
}

/**
 * Makes sure compile() may use the runtime bundle: one the build checked (its hash matched
 * in readCompileOptions) is used as is; any other is checked here, with the template, in
 * full (runtime-bundle.ts, which loads acorn only then). Throws a LeopoldError naming the
 * violations when it breaks the host contract.
 */
export async function vetRuntimeBundle(options: CompileOptions): Promise<void> {
  if (runtimeBundleComplies(options.runtimeBundle)) return;
  const { assertRuntimeBundle } = await import('../emit/runtime-bundle.js');
  assertRuntimeBundle(options.runtimeBundle);
}

// The hash scripts/build.mjs wrote beside the bundle it checked against the host contract;
// a bundle without one (or changed since) is checked by vetRuntimeBundle instead.
function builtHash(bundlePath: string): string | null {
  try {
    return readFileSync(`${bundlePath}.sha256`, 'utf8').trim();
  } catch {
    return null;
  }
}

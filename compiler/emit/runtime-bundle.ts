import { LeopoldError } from '../diagnostics/diagnostic.js';
import { checkWorkflowScript } from './check/index.js';
import { COMPILED_PLAN_VERSION, type CompiledPlan } from './schema.js';
import { NODE_DEFAULTS } from '../../runtime/plan/compact.js';
import { emitScript } from './script.js';
import { runtimeBundleComplies, trustRuntimeBundle } from './vetted-bundles.js';

// The runtime bundle (dist/workflow-runtime.js) is most of every emitted script and the
// same on every compile; the template around it (script.ts) is fixed text with the plan's
// data in JSON literals and a header comment. So the bundle and the template are checked
// against the host contract in full once, together, in scripts emitted for probe plans
// whose every string is hostile (line terminators, ESC, quotes, comment ends, clock and
// import calls): scripts/build.mjs does it when it builds the bundle, and the CLI for a
// bundle whose hash it does not know. After that a compile checks only the head each plan
// puts into the script (check/script-head.ts), without parsing.

/** Every character and spelling that would escape a literal or a comment, or break a rule, if emitted raw. */
const HOSTILE = [
  'ESC \u001b CR \r LF \n CRLF \r\n LS \u2028 PS \u2029 NUL \u0000 TAB \t DEL \u007f',
  `quotes " ' \` \${x} backslash \\ slash-star */ /* <!-- --> </script>`,
  'Date.now() Math.random() new Date() import("node:fs") require("fs") __wRg$x meta',
].join(' | ');

function probeItem(index: number, extra: Partial<CompiledPlan['items'][number]>): CompiledPlan['items'][number] {
  return {
    ...NODE_DEFAULTS,
    id: `i${index}`,
    index,
    text: `${HOSTILE} (item ${index})`,
    scenarios: [HOSTILE],
    writes: [HOSTILE],
    effort: 'high',
    critical: true,
    sensitive: true,
    ...extra,
  };
}

/**
 * The probe plans: a plain checklist and a routed graph (their meta phases differ), with
 * hostile text in every string the script embeds: path, mission, charter, rules, items.
 */
export const PROBE_PLANS: readonly CompiledPlan[] = [false, true].map((graph) => ({
  version: COMPILED_PLAN_VERSION,
  // A backslash is the one character the schema keeps out of a path.
  source: { plan: `plans/${HOSTILE.replaceAll('\\', '/')}/PLAN.md`, sha256: '0'.repeat(64) },
  mission: `# ${HOSTILE}\n\n${HOSTILE}`,
  charter: `## Never\n\n- ${HOSTILE}`,
  charterRules: [HOSTILE],
  maxReviewRounds: 2,
  autonomy: 'full',
  limits: { maxIterations: 50, maxFailures: 3, maxNoProgress: 5 },
  items: graph
    ? [
        probeItem(1, { id: HOSTILE, emits: [{ key: 'k', value: HOSTILE }] }),
        probeItem(2, { kind: 'tool', label: HOSTILE, command: HOSTILE, deps: [1], needs: ['k'], routes: [{ when: 'fail', kind: 'status', target: 1 }] }),
        probeItem(3, { done: true }),
      ]
    : [probeItem(1, {}), probeItem(2, { done: true })],
  waves: graph ? [[1], [2]] : [[1]],
  graph,
}));

/**
 * Why the runtime bundle and the script template cannot be trusted for every compile: the
 * host-contract violations of the scripts `emit` makes for the probe plans (positions are
 * in those scripts). Empty when they comply, and then the bundle is remembered for this
 * process (vetted-bundles.ts). `emit` is the real template but for tests of this check.
 */
export function runtimeBundleProblems(runtimeBundle: string, emit: typeof emitScript = emitScript): string[] {
  const real = emit === emitScript;
  if (real && runtimeBundleComplies(runtimeBundle)) return [];
  const problems = PROBE_PLANS.flatMap((plan, n) =>
    checkWorkflowScript(emit(plan, runtimeBundle), `probe-${n + 1}.js`).map((v) => `${v.file}:${v.line}:${v.column}: ${v.code}: ${v.message}`),
  );
  if (problems.length === 0 && real) trustRuntimeBundle(runtimeBundle);
  return [...new Set(problems)];
}

/** Throws a LeopoldError naming every problem when the bundle cannot be used (runtimeBundleProblems). */
export function assertRuntimeBundle(runtimeBundle: string): void {
  const problems = runtimeBundleProblems(runtimeBundle);
  if (problems.length === 0) return;
  throw new LeopoldError(`the workflow runtime bundle breaks the Claude Code host contract (docs/host-contract.md); rebuild it with npm run build:\n${problems.map((p) => `  ${p}`).join('\n')}`);
}

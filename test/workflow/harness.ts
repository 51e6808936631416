import { checkWorkflowScript } from '../../compiler/emit/check/index.js';
import { compile, type CompileOptions } from '../../compiler/index.js';
import { runWorkflowScript, type AnswerScript, type HostRun } from '../../runtime/host/index.js';
import type { WorkflowResult } from '../../runtime/workflow/index.js';
import { builtLeopold } from '../compile/harness.js';

export const CHARTER = '# Charter\n\n## Never\n\n- Never add a runtime dependency.\n';
export const MISSION = '# Mission\n\nCount words.\n';

let bundle: string | null = null;

/** The runtime bundle as `npm run build` makes it (copied once per file, under the shared lock). */
export async function runtimeBundle(): Promise<string> {
  bundle ??= (await builtLeopold()).bundle;
  return bundle;
}

/** Compiles plan text with the test brief; throws on plan errors. */
export async function scriptOf(plan: string, options: Partial<CompileOptions> = {}): Promise<string> {
  const result = compile(plan, {
    file: '.leopold/PLAN.md',
    mission: MISSION,
    charter: CHARTER,
    guardrails: '',
    runtimeBundle: await runtimeBundle(),
    ...options,
  });
  if (!result.ok) throw new Error(`plan did not compile: ${result.diagnostics.map((d) => `${d.code} ${d.message}`).join('; ')}`);
  return result.script;
}

/** One simulated run: the host report, the labels called and the scribe payloads decoded. */
export interface Simulated {
  run: HostRun;
  result: WorkflowResult;
  labels: string[];
  scribe: ScribeBatch[];
}

/** One scribe call: the decoded `leopold record` payload (or null), the `leopold plan amend` commands and the ticked items. */
export interface ScribeBatch {
  record: { decisions?: Record<string, unknown>[]; events?: Record<string, unknown>[] } | null;
  /** Each `leopold plan amend` invocation exactly as given, with its decoded answer text. */
  amends: { command: string; answer: string }[];
  ticks: number[];
}

export async function simulate(
  plan: string,
  options: { answers?: AnswerScript; args?: unknown; budgetTotal?: number; compile?: Partial<CompileOptions>; tamper?: (script: string) => string } = {},
): Promise<Simulated> {
  const compiled = await scriptOf(plan, options.compile);
  // A plan that changed under the run (compile refuses a stuck plan, so a test edits the embedded one).
  const script = options.tamper ? options.tamper(compiled) : compiled;
  const run = await runWorkflowScript(script, {
    staticCheck: checkWorkflowScript,
    answers: options.answers ?? [],
    ...(options.args !== undefined ? { args: options.args } : {}),
    ...(options.budgetTotal !== undefined ? { budgetTotal: options.budgetTotal } : {}),
  });
  if (!run.ok) throw new Error(`the script failed: ${run.error?.name}: ${run.error?.message}`);
  return { run, result: run.result as WorkflowResult, labels: run.journal.map((c) => c.label ?? '?'), scribe: scribeBatches(run) };
}

/** Decodes the exact commands each scribe call was given. */
export function scribeBatches(run: HostRun): ScribeBatch[] {
  return run.journal
    .filter((call) => call.label === 'scribe')
    .map((call) => {
      const record = /leopold record --base64 ([A-Za-z0-9+/=]+)/.exec(call.prompt);
      const ticks = [...call.prompt.matchAll(/leopold plan tick (\d+) --json/g)].map((m) => Number(m[1]));
      const amends = [...call.prompt.matchAll(/^ {4}(node_modules\/\.bin\/leopold plan amend --base64 ([A-Za-z0-9+/=]+)(?: --context runtime)? --json)$/gm)].map((m) => ({
        command: m[1]!,
        answer: Buffer.from(m[2]!, 'base64').toString('utf8'),
      }));
      return { record: record ? (JSON.parse(Buffer.from(record[1]!, 'base64').toString('utf8')) as ScribeBatch['record']) : null, amends, ticks };
    });
}

/** Every event the scribe was handed, in order. */
export const eventsOf = (s: Simulated) => s.scribe.flatMap((b) => b.record?.events ?? []);
/** Every decision the scribe was handed, in order. */
export const decisionsOf = (s: Simulated) => s.scribe.flatMap((b) => b.record?.decisions ?? []);
/** Every tick, in order. */
export const ticksOf = (s: Simulated) => s.scribe.flatMap((b) => b.ticks);

const TEST = { command: 'npm test', result: 'pass', summary: 'green' };

/** Handoff answers. */
export const handoff = {
  completed: { value: { status: 'completed', files_changed: ['src/a.ts'], tests_run: [TEST], evidence: 'ok', blocked_reason: '', concerns: [] } },
  blocked: (reason: string) => ({ value: { status: 'blocked', files_changed: [], tests_run: [{ command: 'none', result: 'not-run', summary: '' }], evidence: '', blocked_reason: reason, concerns: [] } }),
  noTests: { value: { status: 'completed', files_changed: ['src/a.ts'], tests_run: [{ command: 'none', result: 'not-run', summary: '' }], evidence: '', blocked_reason: '', concerns: [] } },
};

export const verdict = {
  pass: { value: { verdict: 'pass', tests_run: [TEST], evidence: 'green' } },
  fail: (why: string) => ({ value: { verdict: 'fail', tests_run: [{ command: 'npm test', result: 'fail', summary: why }], evidence: why } }),
};

export const finding = (severity: 'P0' | 'P1' | 'P2', introduced: boolean, problem = 'off by one') => ({
  severity,
  type: 'defect',
  file: 'src/a.ts',
  line: 3,
  problem,
  fix: 'use <=',
  introduced,
});

export const review = (findings: ReturnType<typeof finding>[] = []) => ({ value: { findings, summary: '' } });

export const persona = (role: string) => ({
  value: { name: 'Ada Park', role, expertise: ['release management'], optimizesFor: ['safety'], rationale: 'fits' },
});

export const decision = (over: Record<string, unknown> = {}) => ({
  value: {
    title: 'Pick the MIT licence',
    class: 'reversible',
    charter: 'silent',
    decision: 'MIT',
    why: 'pragmatism',
    reversal: 'Replace LICENSE and the licence field.',
    summary: 'done',
    ...over,
  },
});

// The workflow entry: bundled by esbuild (scripts/build.mjs) into dist/workflow-runtime.js
// as `var leopoldWorkflow = (() => { … })();`. The emitted script ends with
// `return await leopoldWorkflow.run(PLAN, args);`. Thin glue: everything is in runtime/workflow.
import { runWorkflow, type AgentJsonSchemas, type CompactPlan, type WorkflowResult } from '../../runtime/workflow/index.js';

// Globals of Claude Code's workflow sandbox (docs/host-contract.md); declared, never imported.
declare const agent: (prompt: string, options?: Record<string, unknown>) => Promise<unknown>;
declare const parallel: ((thunks: (() => Promise<unknown>)[]) => Promise<unknown[]>) | undefined;
declare const phase: (title: string) => void;
declare const log: (message: string) => void;
declare const budget: { total: number | null; spent(): number; remaining(): number } | undefined;

// The agent JSON Schemas, generated from runtime/workflow/agent-schemas.ts (zod) at build
// time and substituted here by esbuild's `define`, so zod never ships in the script.
declare const LEOPOLD_AGENT_SCHEMAS: AgentJsonSchemas;

/** Runs the embedded plan (items without their defaults) with the host's globals. */
export function run(plan: CompactPlan, args: unknown): Promise<WorkflowResult> {
  return runWorkflow(
    plan,
    args,
    {
      agent: (prompt: string, options?: Record<string, unknown>) => agent(prompt, options),
      parallel: typeof parallel === 'function' ? (thunks) => parallel(thunks) : undefined,
      phase: (title: string) => {
        if (typeof phase === 'function') phase(title);
      },
      log: (message: string) => {
        if (typeof log === 'function') log(message);
      },
      budgetRemaining: () => (typeof budget === 'object' && budget !== null ? budget.remaining() : Infinity),
    },
    LEOPOLD_AGENT_SCHEMAS,
  );
}

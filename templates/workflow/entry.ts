// The workflow entry: bundled by esbuild (scripts/build.mjs) into dist/workflow-runtime.js
// as `var leopoldWorkflow = (() => { … })();`. The emitted script ends with
// `return await leopoldWorkflow.run(PLAN, args);`. Thin glue: everything is in runtime/workflow.
import { runMinimalLoop, type EmbeddedPlan, type WorkflowResult } from '../../runtime/workflow/index.js';

// Globals of Claude Code's workflow sandbox (CLAUDE-CODE.md §2); declared, never imported.
declare const agent: (prompt: string, options?: Record<string, unknown>) => Promise<unknown>;
declare const phase: (title: string) => void;
declare const log: (message: string) => void;

/** Runs the embedded plan with the host's globals. */
export function run(plan: EmbeddedPlan, args: unknown): Promise<WorkflowResult> {
  return runMinimalLoop(plan, args, {
    agent: (prompt, options) => agent(prompt, options),
    phase: (title) => {
      if (typeof phase === 'function') phase(title);
    },
    log: (message) => {
      if (typeof log === 'function') log(message);
    },
  });
}

/** runtime/workflow: the run loop the emitted script executes (docs/workflow.md). */
export type { CompactPlan, EmbeddedItem, EmbeddedNode, EmbeddedPlan } from './plan.js';
export type { WorkflowHost } from './host.js';
export type { ResultDecision, WorkflowResult, WorkflowStop } from './result.js';
export type { AgentJsonSchemas } from './agent-schemas.js';
export { runWorkflow } from './loop.js';
export { base64Utf8 } from './base64.js';
export { SCRIBE_LABEL, DECISIONS_PATH, scribeCommands } from './context.js';
export { BLOCKING_P1_TYPES, blockingFindings, isTestCommand, reviewersOf } from './work-item.js';

/** runtime/workflow: the run loop the emitted script executes (minimal for now, see loop.ts). */
export type { EmbeddedItem, EmbeddedPlan } from './plan.js';
export type { WorkflowHost } from './host.js';
export type { WorkflowResult } from './result.js';
export { itemPrompt } from './prompt.js';
export { runMinimalLoop } from './loop.js';

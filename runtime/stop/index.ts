/** runtime/stop: the stop-condition evaluator and the end-of-run summary. */
export * from './evaluate.js';
export { StopReasonSchema } from './schema.js';
export { renderRunSummary, type SummaryFacts } from './summary.js';

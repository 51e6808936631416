/** runtime/stop: the stop-condition evaluator and the end-of-run summary. */
export * from './conditions.js';
export { StopReasonSchema } from './schema.js';
export { failuresText, remainingText, renderRunSummary, REMAINING_SHOWN, type OpenItem, type SummaryFacts } from './summary.js';

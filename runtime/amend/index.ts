/** runtime/amend: parse `leopold-amend` blocks, judge them against the bounds, apply them in memory. */
export * from './schema.js';
export { lastAmendBlock, parseAmendments, parseProposal } from './parse.js';
export { judgeAmendments, type JudgeOptions } from './judge.js';
export { applyAmendments, type Applied } from './apply.js';
export { normalizeCondition, resolveRef, routeOf } from './refs.js';
export { BOUNDS, type Bound, type BoundInput } from './bounds/index.js';

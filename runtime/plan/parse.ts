// The one narrow entry through which runtime/ reaches compiler/ (DESIGN.md): the plan
// parser, which the Stop hook and `leopold plan tick` need to read PLAN.md.
export { parsePlan } from '../../compiler/parse/index.js';

/** runtime/routing: the one routing step both engines call, and the plain wave loop. */
export { routeDecision, type Completion, type NodeOutcome, type RouteDecision, type RouteDecisionInput } from './decide.js';
export { routeMatches } from './conditions.js';
export { emittedKeysOf, hasGraph, implicitKeysOf, isFailure, isSuccess } from './facts.js';
export { nextWave } from './waves.js';

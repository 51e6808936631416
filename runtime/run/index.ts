/**
 * runtime/run: THE run kernel, its public face. The engines (runtime/workflow,
 * runtime/hooks/stop) and the commands import the kernel from here and nowhere else
 * (test/architecture/layers.test.ts checks it): the state's shape, the events and the one
 * reducer, the one step (decideNext: what happens next, as events and an effect), routing,
 * waves, the stop conditions, the rescue, evidence, the journal's fold and the end-of-run
 * summary. Nothing here loads zod: the state's zod schema is `./schema.js`, which only the
 * state file's reader and the CLI import as a value.
 */
export type { Engine, Halt, RoutingMemory, RunModel, RunState, TakenRoute } from './schema.js';
export { initialModel, reduce, reduceAll, type RunEvent } from './model.js';
export { applyStep, decideNext, freezeWaves, type Completion, type Effect, type HostFacts, type NextInput, type PlanView, type Step } from './next.js';
export { EVIDENCE_BYTES, evidenceFor, renderEvidence, tailOf, toolEvidence, verdictEvidence, type Evidence } from './evidence.js';
export { eventsOfRun, foldJournal, runEventOf, stopOf, type LoggedEvent } from './journal.js';
export { finishedState, windowClosed } from './transitions.js';
export { DEFAULT_STOP_LIMITS, gatedBy, STOP_REASONS, stopCondition, subagentCap, type StopFacts, type StopInput, type StopLimits, type StopReason, type StopVerdict } from './stop.js';
export {
  BLOCKING_P1_TYPES,
  blockingFindings,
  concernsOf,
  FINAL_REVIEW_LABEL,
  finalFixText,
  finalReviewDetail,
  findingLine,
  handoffLabel,
  itemOutcomes,
  NEEDS_CONTEXT_TOKENS,
  OUTCOME_LABELS,
  outcomesText,
  reviewReport,
  type ReviewReport,
  type ItemOutcome,
  type OutcomeLabel,
  type ReviewFinding,
} from './review.js';
export { rescueVerdict, type RescueVerdict } from './rescue.js';
export { failuresText, remainingText, renderRunSummary, REMAINING_SHOWN, type OpenItem, type SummaryFacts } from './summary.js';
export { itemAt, routeDecision, type NodeOutcome, type RouteDecision, type RouteDecisionInput } from './routing/decide.js';
export { routeMatches } from './routing/conditions.js';
export { declaredValues, emittedKeysOf, hasGraph, implicitKeysOf, isFailure, isSuccess, signalStrings } from './routing/facts.js';
export { stagesOf } from './routing/stages.js';
export { nextWave, waveIndex } from './routing/waves.js';

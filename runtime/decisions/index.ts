export {
  appendDecisions,
  appendedText,
  DECISIONS_FILE,
  DECISIONS_JOURNAL,
  DECISIONS_LOCK,
  planAppend,
  type DecisionsTail,
  type PlannedAppend,
} from './append.js';
export {
  DECIDED_FOR_YOU_LINES,
  decidedByNobody,
  decidedForYou,
  FORK_RISK,
  isHeavySubject,
  NO_PERSONA_WHO,
  rankDecisions,
  RISK_RAISE,
  riskOf,
  RUN_WHO,
  SIMULATED_CLOSING,
  simulatedTrail,
  TRAIL_CLOSING,
  type DecisionRisk,
  type RankedDecision,
  type TrailKind,
} from './decided-for-you.js';
export { eventLine, EVENTS_FILE, EVENTS_LOCK, recordEvents } from './events.js';
export { DecisionRefusedError, refusalOf, protocolRefusal, unusableDecision } from './protocol.js';
export {
  DECISIONS_HEADING,
  DEFAULT_REVERSAL,
  isoStamp,
  isPersonaEntry,
  isSilentCharter,
  NO_PERSONA,
  NO_RULES,
  personaLine,
  renderDecision,
} from './render.js';
export {
  DecisionClassSchema,
  DecisionForkSchema,
  DecisionInputSchema,
  DecisionPersonaSchema,
  DecisionRecordSchema,
  EventInputSchema,
  RecordInputSchema,
  type DecisionClass,
  type DecisionFork,
  type DecisionInput,
  type DecisionPersona,
  type DecisionRecord,
  type EventInput,
  type RecordInput,
} from './schema.js';
export { decisionsSince, highestDecisionNumber, readDecisions } from './trail.js';
export {
  DECISION_CLASSES,
  DECISION_FORKS,
  describeRecordIssues,
  parseDecisionInput,
  parseRecordInput,
  type RecordInputResult,
  type RecordIssue,
} from './record-input.js';

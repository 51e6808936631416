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
  decidedForYou,
  FORK_RISK,
  isHeavySubject,
  rankDecisions,
  RISK_RAISE,
  riskOf,
  type DecisionRisk,
  type RankedDecision,
} from './decided-for-you.js';
export { eventLine, EVENTS_FILE, EVENTS_LOCK, recordEvents } from './events.js';
export { DecisionRefusedError, firstRefusal, protocolRefusal } from './protocol.js';
export {
  DECISIONS_HEADING,
  DEFAULT_REVERSAL,
  isoStamp,
  isSilentCharter,
  NO_PERSONA,
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
export { highestDecisionNumber, readDecisions } from './trail.js';
export {
  DECISION_CLASSES,
  DECISION_FORKS,
  describeRecordIssues,
  parseDecisionInput,
  parseRecordInput,
  type RecordInputResult,
  type RecordIssue,
} from './record-input.js';

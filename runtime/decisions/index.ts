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
export { DecisionRefusedError, FULL_ENTRY_FIELDS, refusalOf, protocolRefusal, unusableDecision } from './protocol.js';
export { FILL, placeholdersOf, recordTemplate, type TemplateEntry } from './template.js';
export { recordSchemas, type RecordSchemas } from './record-schemas.js';
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
  RECORDED_EVENT_NAMES,
  RecordInputSchema,
  REPORTED_EVENTS,
  type DecisionClass,
  type DecisionFork,
  type DecisionInput,
  type DecisionPersona,
  type DecisionRecord,
  type EventInput,
  type RecordInput,
  type ReportedEventName,
} from './schema.js';
export { decisionsSince, highestDecisionNumber, readDecisions } from './trail.js';
export { FAILURE_KINDS, LEOPOLD_EVENTS } from './forks.js';
export {
  DECISION_CLASSES,
  DECISION_FORKS,
  describeRecordIssues,
  parseDecisionInput,
  parseRecordInput,
  type RecordInputResult,
  type RecordIssue,
} from './record-input.js';

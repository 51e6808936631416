export { ModelScriptSchema, MainStepSchema, SessionRuleSchema, parseModelScript, type MainStep, type ModelScript, type SessionRule } from './script.js';
export { ScriptedModel, type ModelLogEntry } from './model.js';
export { startModelServer, type ModelServer } from './server.js';
export { findClaudeBinary, runClient, clientEnv, clientJournal, type ClientAgent, type ClientRun, type ClientOptions } from './client.js';
export { scribeCommandsIn, scribeAck } from './scribe.js';
export { STEP_LINE, agentKeyOf } from './request.js';

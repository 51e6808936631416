/** runtime/hooks/stop: the Stop-hook engine (SPEC-RUNTIME §6); see docs/hooks.md. */
export { runStopHook, type StopHookEnvironment } from './hook.js';
export { stopTurn, type Turn, type TurnAction, type TurnInput, type WindowClose } from './engine.js';
export { CHECKPOINT_PATH, renderCheckpoint, type CheckpointInput, type WindowCloseCause } from './checkpoint.js';
export { blockReason, DECISION_PLACEHOLDERS, FAILURE_KINDS, type ReasonInput } from './reason.js';
export { reportedEvents, type LoggedEvent } from './outcome.js';
export { parseStopInput, type StopHookInput } from './input.js';
export { hookMemoryOf, type HookMemory, type WindowMemory } from './memory.js';

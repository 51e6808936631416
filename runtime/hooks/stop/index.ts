/** runtime/hooks/stop: the Stop-hook engine; see docs/hooks.md. */
export { runStopHook, stopAnswerOutput, type StopAnswer, type StopHookEnvironment } from './hook.js';
export { stopTurn, type Turn, type TurnAction, type TurnInput, type WindowClose } from './engine.js';
export { CHECKPOINT_PATH, renderCheckpoint, type CheckpointInput, type WindowCloseCause } from './checkpoint.js';
export { blockReason, FAILURE_KINDS, FORK_TEMPLATE_MARKER, PROTOCOL_MARKER, protocolText, type ReasonInput } from './reason.js';
export { reportedEvents, type LoggedEvent } from './outcome.js';
export { parseStopInput, type StopHookInput } from './input.js';
export { hookMemoryOf, type HookMemory, type WindowMemory } from './memory.js';

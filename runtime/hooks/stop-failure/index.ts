/** runtime/hooks/stop-failure: the StopFailure hook, which ends a session run a turn's API error killed (docs/hooks.md). */
export { runStopFailureHook, type StopFailureEnvironment } from './hook.js';

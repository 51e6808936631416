/** runtime/hooks/guard: the PreToolUse git guard (docs/lock.md); see docs/guard.md. */
export { runGuard, type GuardEnvironment } from './hook.js';
export { findingsForToolCall, type ToolCall } from './tool.js';
export { analyzeCommand } from './analyze/analyze.js';
export type { GuardContext } from './analyze/command.js';
export { decide, type Decision, type Finding, type Lock, type Tokens } from './findings.js';
export { parseShell } from './shell/parse.js';
export { readStdin } from './stdin.js';

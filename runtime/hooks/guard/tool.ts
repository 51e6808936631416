import { basename, dirname, join, resolve } from 'node:path';
import { analyzeCommand, type GuardContext } from './analyze/command.js';
import type { Finding } from './findings.js';

const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** The parts of a PreToolUse hook input the guard reads (anything else is ignored). */
export interface ToolCall {
  tool_name?: unknown;
  tool_input?: unknown;
  cwd?: unknown;
}

/**
 * What a tool call would do that a run locks: a Bash command's git verbs, pushes,
 * force-pushes, kill-switch removal and GUARDRAILS.md writes; a Write/Edit/MultiEdit of
 * GUARDRAILS.md. Other tools, and inputs without the expected fields, find nothing.
 */
export function findingsForToolCall(call: ToolCall, ctx: GuardContext): Finding[] {
  const input = call.tool_input !== null && typeof call.tool_input === 'object' ? (call.tool_input as Record<string, unknown>) : {};
  if (call.tool_name === 'Bash') {
    return typeof input.command === 'string' ? analyzeCommand(input.command, ctx) : [];
  }
  if (typeof call.tool_name === 'string' && FILE_TOOLS.has(call.tool_name)) {
    const path = typeof input.file_path === 'string' ? input.file_path : typeof input.notebook_path === 'string' ? input.notebook_path : null;
    if (path !== null && isGuardrails(path, ctx)) return [{ lock: 'guardrails', what: `${call.tool_name} of ${path}` }];
  }
  return [];
}

/** The project's GUARDRAILS.md, or any `.leopold/GUARDRAILS.md` (names compared without case). */
function isGuardrails(path: string, ctx: GuardContext): boolean {
  const absolute = resolve(ctx.cwd, path);
  if (absolute.toLowerCase() === join(ctx.leopoldDir, 'GUARDRAILS.md').toLowerCase()) return true;
  return basename(absolute).toLowerCase() === 'guardrails.md' && basename(dirname(absolute)).toLowerCase() === '.leopold';
}

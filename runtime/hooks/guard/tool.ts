import { resolve } from 'node:path';
import { analyzeCommand } from './analyze/analyze.js';
import type { GuardContext } from './analyze/command.js';
import { pathHits, protectedTargets } from './analyze/paths.js';
import type { Finding } from './findings.js';
import { READ_ONLY_AGENT } from '../../verify/agent.js';

const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** The parts of a PreToolUse hook input the guard reads (anything else is ignored). */
export interface ToolCall {
  tool_name?: unknown;
  tool_input?: unknown;
  cwd?: unknown;
  /** Inside a subagent: its type; a workflow agent given `agentType` carries that agent's name (measured on 2.1.332). */
  agent_type?: unknown;
  /** The session making the call (every hook input carries it). */
  session_id?: unknown;
}


/**
 * What a tool call would do that a run locks (for a read-only agent, any edit of the project too): a Bash command's git verbs, ref moves,
 * pushes, force-pushes, kill-switch removal and writes of protected files; a
 * Write/Edit/MultiEdit/NotebookEdit of a protected file (GUARDRAILS.md, the tokens,
 * lock.json, the settings, the hooks' code, git's refs, hooks and config), through
 * symlinks too. Other tools, and inputs without the expected fields, find nothing.
 */
export function findingsForToolCall(call: ToolCall, ctx: GuardContext): Finding[] {
  const input = call.tool_input !== null && typeof call.tool_input === 'object' ? (call.tool_input as Record<string, unknown>) : {};
  const readOnly = call.agent_type === READ_ONLY_AGENT;
  if (call.tool_name === 'Bash') {
    // A read-only agent's command is judged by what it shows, OS layer or not: the sandbox lets any agent write the project.
    return typeof input.command === 'string' ? analyzeCommand(input.command, readOnly ? { ...ctx, readOnly, osLayer: false } : ctx) : [];
  }
  if (typeof call.tool_name === 'string' && FILE_TOOLS.has(call.tool_name)) {
    const path = typeof input.file_path === 'string' ? input.file_path : typeof input.notebook_path === 'string' ? input.notebook_path : null;
    // Its definition offers no file tool; should one reach it anyway (a definition changed by hand), every edit is refused.
    if (readOnly) return [{ lock: 'readonly', what: `${call.tool_name} of ${path ?? 'a file'}` }];
    if (path === null) return [];
    const absolute = resolve(ctx.cwd, path);
    const real = ctx.realpath ? ctx.realpath(absolute) : absolute;
    const findings: Finding[] = [];
    for (const t of protectedTargets(ctx.leopoldDir)) {
      if (pathHits(absolute, t, false, false) || pathHits(real, t, false, false) || isAnyGuardrails(absolute, t.lock)) {
        findings.push({ lock: t.lock, what: `${call.tool_name} of ${path}` });
      }
    }
    return findings.filter((f, i) => findings.findIndex((g) => g.lock === f.lock) === i);
  }
  return [];
}

/** Any `.leopold/GUARDRAILS.md` (a nested project's too), names compared without case. */
function isAnyGuardrails(absolute: string, lock: string): boolean {
  return lock === 'guardrails' && /(^|[\\/])\.leopold[\\/]guardrails\.md$/i.test(absolute);
}

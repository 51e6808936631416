import { homedir } from 'node:os';
import { existsSync, lstatSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { decide } from './findings.js';
import { findBriefDirFrom } from '../../fs/brief-dir.js';
import { gitAliasReader, isRunActive, listDirectory, liveExcludedCommands, pathLookup, readBounded, recordedOsLayer, resolveLinks, tokensIn } from './fs.js';
import { findingsForToolCall, type ToolCall } from './tool.js';
import { SUBAGENT_TOOLS, subagentSpawn } from './subagents.js';

/** Where the hook runs: the environment and the process's own directory. */
export interface GuardEnvironment {
  env: NodeJS.ProcessEnv;
  processCwd: string;
  /** The clock the subagent count's events are stamped with. */
  now?: () => Date;
}

/**
 * The PreToolUse guard (docs/lock.md): hook JSON in, the text to print out — a deny
 * object, or '' for "no opinion". Never throws.
 *
 * Fail-open cases (print nothing): stdin that is not a JSON object or names no tool (there
 * is nothing to judge), no `.leopold/`, no active run (state.json missing or corrupt).
 * Fail-closed cases (deny, never lifted): a command the guard cannot parse, see through or
 * judge within its step budget, and any unexpected error once a run is known to be active.
 */
export function runGuard(stdin: string, where: GuardEnvironment): string {
  let call: ToolCall;
  try {
    const parsed = JSON.parse(stdin) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return '';
    call = parsed as ToolCall;
  } catch {
    return '';
  }
  let leopoldDir: string | null = null;
  try {
    const cwd = typeof call.cwd === 'string' && isAbsolute(call.cwd) ? call.cwd : where.processCwd;
    const project = where.env.CLAUDE_PROJECT_DIR;
    leopoldDir = findBriefDirFrom(project ? [project, cwd] : [cwd]);
    if (leopoldDir === null || !isRunActive(leopoldDir)) return '';
    // A subagent spawn: counted against GUARDRAILS max_subagents, refused past it (docs/guardrails.md).
    if (typeof call.tool_name === 'string' && SUBAGENT_TOOLS.has(call.tool_name)) {
      const session = typeof call.session_id === 'string' && call.session_id !== '' ? call.session_id : null;
      const spawn = subagentSpawn(leopoldDir, where.now?.() ?? new Date(), session);
      return spawn === null || spawn.allow ? '' : render({ decision: 'deny', reason: spawn.reason, findings: [] });
    }
    const home = where.env.HOME || homedir();
    const osLayer = osLayerFor(call, leopoldDir, home);
    const root = dirname(leopoldDir);
    const hookCode = existsSync(join(root, 'node_modules', 'leopold')) || isLink(join(root, 'node_modules', '.bin', 'leopold'));
    const ctx = { cwd, leopoldDir, home, osLayer, hookCode, gitAlias: gitAliasReader([cwd, leopoldDir], home, where.env), readFile: readBounded, realpath: resolveLinks, which: pathLookup(where.env.PATH), listDir: listDirectory };
    const findings = findingsForToolCall(call, ctx);
    if (findings.length === 0) return '';
    return render(decide(findings, tokensIn(leopoldDir)));
  } catch {
    if (leopoldDir === null) return '';
    return render(decide([{ lock: 'unjudged', what: 'the guard hit an internal error' }], { allowGit: false, allowPush: false }));
  }
}

/**
 * Whether the OS layer holds for this call (docs/guard.md, "Two modes"): lock.json records
 * the sandbox armed and available, the call does not ask to run unsandboxed, and no
 * command the settings exclude from the sandbox (recorded at arming, or added since) is
 * named in it. A command that names an excluded program anywhere counts as excluded.
 */
export function osLayerFor(call: ToolCall, leopoldDir: string, home: string): boolean {
  const recorded = recordedOsLayer(leopoldDir);
  if (recorded === null || !recorded.available) return false;
  const input = call.tool_input !== null && typeof call.tool_input === 'object' ? (call.tool_input as Record<string, unknown>) : {};
  if (input.dangerouslyDisableSandbox === true) return false;
  const command = typeof input.command === 'string' ? input.command : '';
  const excluded = [...recorded.excluded, ...liveExcludedCommands(dirname(leopoldDir), home)];
  return !excluded.some((pattern) => namesProgram(command, pattern));
}

/** Does the command name the program of an excludedCommands pattern (`docker`, `docker:*`, `npm run *`) as a word? */
function namesProgram(command: string, pattern: string): boolean {
  const program = pattern.trim().replace(/(:\*|\s\*|\*)$/, '').trim().split(/\s+/)[0] ?? '';
  if (program === '' || /[*?[]/.test(program)) return true;
  const escaped = program.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`(^|[\\s;&|()\`'"/=])${escaped}(?=$|[\\s;&|()\`'"])`).test(command);
}

function isLink(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function render(decision: ReturnType<typeof decide>): string {
  if (decision.decision === 'allow') return '';
  return `${JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: decision.reason },
  })}\n`;
}

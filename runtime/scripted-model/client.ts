import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

/**
 * Finding and driving the real Claude Code client headless against the scripted model
 * (docs/host.md): no account, no network, a throwaway HOME.
 */

/** Platform packages that ship the native binary, by `${platform}-${arch}`. */
const NATIVE_PACKAGES: Record<string, string> = {
  'linux-x64': '@anthropic-ai/claude-code-linux-x64/claude',
  'linux-arm64': '@anthropic-ai/claude-code-linux-arm64/claude',
  'darwin-x64': '@anthropic-ai/claude-code-darwin-x64/claude',
  'darwin-arm64': '@anthropic-ai/claude-code-darwin-arm64/claude',
};

/**
 * The client binary: `explicit` (a path), else $LEOPOLD_CLAUDE, else the native binary of
 * an `@anthropic-ai/claude-code` installed next to `from` (a project's node_modules), else
 * `claude` on PATH. Null when none is found.
 */
export function findClaudeBinary(from: string, explicit?: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (explicit) return existsSync(explicit) ? explicit : null;
  if (env.LEOPOLD_CLAUDE) return existsSync(env.LEOPOLD_CLAUDE) ? env.LEOPOLD_CLAUDE : null;
  const native = NATIVE_PACKAGES[`${process.platform}-${process.arch}`];
  if (native) {
    try {
      return createRequire(join(from, 'package.json')).resolve(native);
    } catch {
      // not installed there
    }
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'claude');
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** One headless client run. */
export interface ClientRun {
  exitCode: number | null;
  /** The stream-json events it printed, parsed. */
  events: Record<string, unknown>[];
  stderr: string;
  timedOut: boolean;
}

export interface ClientOptions {
  binary: string;
  cwd: string;
  /** A throwaway HOME (the client keeps its config and transcripts there). */
  home: string;
  baseUrl: string;
  prompt: string;
  /** Extra CLI arguments: permission mode, allowed tools, plugin dirs. */
  args?: readonly string[];
  /** Extra environment (PATH, IS_SANDBOX). */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** The environment a headless run against the scripted model needs, over `base`. */
export function clientEnv(base: NodeJS.ProcessEnv, home: string, baseUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Only what the client needs: no inherited API keys, proxies or Claude Code session variables.
  for (const key of ['PATH', 'LANG', 'TERM', 'TMPDIR', 'SHELL', 'USER', 'LOGNAME']) if (base[key] !== undefined) env[key] = base[key];
  return {
    ...env,
    HOME: home,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'scripted-model',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    // `claude -p` waits for a background workflow 10 minutes by default, then stops it; the
    // rehearsal's own timeout bounds the run instead (docs/workflow.md, "Headless runs").
    CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS: '0',
  };
}

/** Runs `claude -p <prompt> --output-format stream-json --verbose …` and collects its events. */
export function runClient(options: ClientOptions): Promise<ClientRun> {
  const env = { ...clientEnv(process.env, options.home, options.baseUrl), ...options.env };
  const args = ['-p', options.prompt, '--output-format', 'stream-json', '--verbose', ...(options.args ?? [])];
  return new Promise((resolve, reject) => {
    const child = spawn(options.binary, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 120_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const events = stdout
        .split('\n')
        .filter((line) => line.trim() !== '')
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        });
      resolve({ exitCode: code, events, stderr, timedOut });
    });
  });
}

/** One agent as the client's own workflow journal shows it (task_progress events). */
export interface ClientAgent {
  index: number;
  label: string | null;
  phase: string | null;
  /** The client's state word: done, failed, running, … */
  state: string;
}

/** The client's workflow journal: phase titles and agents in call order, from its task_progress events (the last report of each wins). */
export function clientJournal(run: ClientRun): { phases: string[]; agents: ClientAgent[] } {
  const phases = new Map<number, string>();
  const agents = new Map<number, ClientAgent>();
  for (const event of run.events) {
    const progress = event.workflow_progress;
    if (!Array.isArray(progress)) continue;
    for (const entry of progress as Record<string, unknown>[]) {
      const index = typeof entry.index === 'number' ? entry.index : null;
      if (index === null) continue;
      if (entry.type === 'workflow_phase' && typeof entry.title === 'string') phases.set(index, entry.title);
      if (entry.type === 'workflow_agent') {
        agents.set(index, {
          index,
          label: typeof entry.label === 'string' ? entry.label : null,
          phase: typeof entry.phaseTitle === 'string' ? entry.phaseTitle : null,
          state: typeof entry.state === 'string' ? entry.state : 'unknown',
        });
      }
    }
  }
  const byIndex = <T>(map: Map<number, T>) => [...map.entries()].sort((a, b) => a[0] - b[0]).map(([, value]) => value);
  return { phases: byIndex(phases), agents: byIndex(agents) };
}

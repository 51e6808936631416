import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkWorkflowScript } from '../../compiler/emit/check/index.js';
import { SCRIPT_PATH } from '../../compiler/emit/index.js';
import { afterAll, beforeAll } from 'vitest';
import { runWorkflowScript, type HostRun } from '../../runtime/host/index.js';
import {
  clientJournal,
  findClaudeBinary,
  parseModelScript,
  runClient,
  scribeCommandsIn,
  startModelServer,
  type ClientRun,
  type ModelLogEntry,
} from '../../runtime/scripted-model/index.js';
import { agentKeyOf, computedTaskOf, toolResultsOf, type MessagesRequest } from '../../runtime/scripted-model/request.js';
import { PROJECT_CLI_RULE } from '../../runtime/project-cli/index.js';
import { copyDist, root } from '../support/built-dist.js';

// The conformance suite's harness: scratch projects set up as a user would (git, leopold
// init, a brief), the real Claude Code client run headless against the scripted model, the
// same plan and answers run through the stand-in host, and what both leave behind.

// Every conformance file marks when it starts and ends, for the suite's wall time (wall-time.ts).
const mark = () => {
  const file = process.env.LEOPOLD_CONFORMANCE_TIMES;
  if (file) appendFileSync(file, `${Date.now()}\n`);
};
beforeAll(mark);
afterAll(mark);

/**
 * The real client's native binary (the exact-pinned devDependency `npm ci` installs). The
 * suite never skips without it: every scenario fails, saying so, rather than pass hollow.
 */
export const CLAUDE = findClaudeBinary(root);

/** A private copy of dist/ taken under the build lock, so a concurrent rebuild never tears it. */
export async function privateDist(): Promise<{ dir: string; cleanup(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'leopold-conf-dist-'));
  await copyDist({ tree: join(dir, 'dist') });
  // What `leopold init` reads besides dist/: the package's templates, found by its package.json.
  cpSync(join(root, 'templates'), join(dir, 'templates'), { recursive: true });
  cpSync(join(root, 'package.json'), join(dir, 'package.json'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * One conformance file's fixtures: a private dist/ taken before its tests, and a `project`
 * maker; the projects and the copy are removed after the file.
 */
export function projectFixtures(): { project(brief: ProjectBrief): Project; dist(): { dir: string } } {
  let dist: Awaited<ReturnType<typeof privateDist>> | undefined;
  const made: Project[] = [];
  beforeAll(async () => {
    dist = await privateDist();
  });
  afterAll(() => {
    for (const project of made) project.cleanup();
    dist?.cleanup();
  });
  return {
    project: (brief) => {
      const project = makeProject(dist!, brief);
      made.push(project);
      return project;
    },
    dist: () => dist!,
  };
}

/** A scratch project: a git repository with one commit, `leopold init`, the brief given. */
export interface Project {
  dir: string;
  home: string;
  /** PATH for the client (no leopold on it). */
  path: string;
  /** Runs the project's Leopold as the user would in a terminal (`env` adds to the environment, e.g. a session id). */
  leopold(args: string[], input?: string, env?: NodeJS.ProcessEnv): { code: number; stdout: string; stderr: string };
  read(file: string): string;
  cleanup(): void;
}

export interface ProjectBrief {
  plan: string;
  mission?: string;
  charter?: string;
  guardrails?: string;
  /** Files to add and commit besides the brief. */
  files?: Record<string, string>;
}

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export function makeProject(dist: { dir: string }, brief: ProjectBrief): Project {
  const base = mkdtempSync(join(tmpdir(), 'leopold-conf-'));
  const dir = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(dir);
  mkdirSync(home);
  // No `leopold` on PATH: everything runs the project's own install, as on a teammate's clone.
  const path = process.env.PATH ?? '';
  const leopold = (args: string[], input?: string, env: NodeJS.ProcessEnv = {}) => {
    const out = spawnSync(process.execPath, [join(dist.dir, 'dist', 'leopold.js'), ...args], {
      cwd: dir,
      encoding: 'utf8',
      input,
      // A terminal, not a Claude Code session (whatever session the tests run in): no session id, unless given.
      env: { ...process.env, PATH: path, LEOPOLD_AUTONOMY: '', CLAUDE_CODE_SESSION_ID: '', CLAUDECODE: '', ...env },
    });
    return { code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr };
  };
  // The project's own install, as `npm i -D leopold` lays it out: the hooks and the agents'
  // commands run node_modules/… (the hooks through "$CLAUDE_PROJECT_DIR"; runtime/project-cli).
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(dist.dir, join(dir, 'node_modules', 'leopold'));
  symlinkSync('../leopold/dist/leopold.js', join(dir, 'node_modules', '.bin', 'leopold'));
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.email', 'test@example.invalid']);
  git(dir, ['config', 'user.name', 'Conformance']);
  const init = leopold(['init']);
  if (init.code !== 0) throw new Error(`leopold init failed: ${init.stderr}`);
  const write = (file: string, text: string) => {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  };
  write('.leopold/PLAN.md', brief.plan);
  if (brief.mission !== undefined) write('.leopold/MISSION.md', brief.mission);
  if (brief.charter !== undefined) write('.leopold/CHARTER.md', brief.charter);
  if (brief.guardrails !== undefined) write('.leopold/GUARDRAILS.md', brief.guardrails);
  for (const [file, text] of Object.entries(brief.files ?? {})) write(file, text);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'brief']);
  return { dir, home, path, leopold, read: (file) => readFileSync(join(dir, file), 'utf8'), cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** One agent as a host saw it. */
export interface AgentSeen {
  key: string;
  schema: Record<string, unknown> | null;
  attempts: number;
}

/** What a real-client run left: the client's events, the model's request log and the workflow results. */
export interface RealRun {
  client: ClientRun;
  log: ModelLogEntry[];
  results: unknown[];
  /** Each workflow subagent in call order (see inCallOrder): its key (label), StructuredOutput schema and structured-answer attempts. */
  agents: AgentSeen[];
  /** Each main-thread request's messages, as JSON text (what the model was shown). */
  mainTexts: string[];
  /** The tool results each workflow subagent got, by its key (label). */
  agentToolResults: Map<string, { text: string; isError: boolean }[]>;
  wallMs: number;
}

export interface RealOptions {
  prompt: string;
  script: unknown;
  mode?: 'acceptEdits' | 'bypassPermissions' | 'default';
  allowedTools?: string;
  extraArgs?: string[];
  /** Extra environment for the client. */
  env?: NodeJS.ProcessEnv;
  /** Where the client starts, relative to the project (default: its root). */
  subdir?: string;
  /** Called with each request before the scripted model answers it. */
  onRequest?: (body: MessagesRequest, agentId: string | null) => void;
  timeoutMs?: number;
}

/** The permissions a user gives a workflow run (docs/host.md): launch it, and let the scribe run leopold. */
export const WORKFLOW_TOOLS = `Workflow,${PROJECT_CLI_RULE}`;

/** The tool results of each subagent's last request (which holds its whole conversation), by key. */
function agentToolResults(requests: readonly { agentId: string | null; body: MessagesRequest }[]): Map<string, { text: string; isError: boolean }[]> {
  const last = new Map<string, MessagesRequest>();
  for (const request of requests) if (request.agentId !== null) last.set(request.agentId, request.body);
  const out = new Map<string, { text: string; isError: boolean }[]>();
  for (const body of last.values()) {
    const prompt = computedTaskOf(body.messages);
    if (prompt === null) continue;
    const key = agentKeyOf(prompt);
    out.set(key, [...(out.get(key) ?? []), ...toolResultsOf(body.messages).map(({ text, isError }) => ({ text, isError }))]);
  }
  return out;
}

/**
 * `agents` (in the order of their first request) in the order the workflow called them, as
 * the client's own journal numbers them. Agents called together (a review fan-out) reach
 * the model in whatever order the machine's load gives; agents that share a label run one
 * after another, so the n-th of a label is the journal's n-th. Agents the journal does not
 * show keep their place after the ones it does.
 */
function inCallOrder(agents: AgentSeen[], client: ClientRun): AgentSeen[] {
  const calls = new Map<string, number[]>();
  clientJournal(client).agents.forEach((agent, at) => {
    if (agent.label !== null) calls.set(agent.label, [...(calls.get(agent.label) ?? []), at]);
  });
  const position = agents.map((agent) => calls.get(agent.key)?.shift() ?? Number.MAX_SAFE_INTEGER);
  return agents.map((agent, at) => ({ agent, at })).sort((a, b) => (position[a.at] as number) - (position[b.at] as number) || a.at - b.at).map(({ agent }) => agent);
}

/** Runs the real client in the project against the scripted model. */
export async function runReal(project: Project, options: RealOptions): Promise<RealRun> {
  if (!CLAUDE) throw new Error('the Claude Code client is not installed (npm ci installs the pinned @anthropic-ai/claude-code)');
  const server = await startModelServer(parseModelScript(options.script), { keepRequests: true, onRequest: options.onRequest });
  const started = Date.now();
  try {
    const mode = options.mode ?? 'acceptEdits';
    const args = ['--permission-mode', mode, ...(options.allowedTools ? ['--allowedTools', options.allowedTools] : []), ...(options.extraArgs ?? [])];
    const client = await runClient({
      binary: CLAUDE,
      cwd: options.subdir ? join(project.dir, options.subdir) : project.dir,
      home: project.home,
      baseUrl: server.url,
      prompt: options.prompt,
      args,
      env: { PATH: project.path, ...(mode === 'bypassPermissions' ? { IS_SANDBOX: '1' } : {}), ...options.env },
      timeoutMs: options.timeoutMs ?? 150_000,
    });
    const log = [...server.model.log];
    const firsts = new Map<string, ModelLogEntry & { attempts: number }>();
    for (const entry of log) {
      if (entry.thread !== 'subagent' || !entry.agentId) continue;
      const first = firsts.get(entry.agentId);
      if (first) first.attempts = Math.max(first.attempts, entry.attempt);
      else firsts.set(entry.agentId, { ...entry, attempts: entry.attempt });
    }
    return {
      client,
      log,
      results: [...server.model.workflowResults],
      agents: inCallOrder(
        [...firsts.values()].map((entry) => ({ key: entry.key, schema: entry.schema, attempts: entry.attempts })),
        client,
      ),
      mainTexts: server.requests.filter((r) => r.agentId === null).map((r) => JSON.stringify(r.body.messages)),
      agentToolResults: agentToolResults(server.requests),
      wallMs: Date.now() - started,
    };
  } finally {
    await server.close();
  }
}

/** The same compiled script run in the stand-in host with the same agents' answers. */
export async function runStandIn(project: Project, script: unknown): Promise<{ run: HostRun; agents: AgentSeen[] }> {
  const source = project.read(SCRIPT_PATH);
  const args = JSON.parse(project.read('.leopold/workflow-args.json')) as unknown;
  const run = await runWorkflowScript(source, { file: SCRIPT_PATH, staticCheck: checkWorkflowScript, answers: parseModelScript(script).agents, args });
  return {
    run,
    agents: run.journal.map((call) => ({
      key: call.label ?? call.prompt.split('\n', 1)[0]!,
      schema: (call.options.schema as Record<string, unknown> | undefined) ?? null,
      // A death or skip is one attempt in the real client whatever it retries underneath.
      attempts: call.attempts,
    })),
  };
}

/**
 * Plays the stand-in run's scribe for real: runs every command its scribe prompts listed,
 * in order, in `project` (the stand-in only answers the ack; this writes what a scribe
 * would). Stops at the first failing command, as the scribe prompt says.
 */
export function replayScribe(project: Project, run: HostRun): void {
  for (const call of run.journal) {
    if (call.label !== 'scribe' || call.status !== 'answered') continue;
    for (const command of scribeCommandsIn(call.prompt)) {
      const out = spawnSync('sh', ['-c', command], { cwd: project.dir, encoding: 'utf8', env: { ...process.env, PATH: project.path } });
      if (out.status !== 0) return;
    }
  }
}

/** Leopold's files in a project with clocks removed: PLAN.md, DECISIONS.md, events.jsonl. */
export function leopoldFiles(project: Project): Record<string, string> {
  const read = (file: string) => (existsSync(join(project.dir, file)) ? project.read(file) : '(absent)');
  return {
    plan: read('.leopold/PLAN.md'),
    decisions: read('.leopold/DECISIONS.md').replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<ts>'),
    events: read('.leopold/events.jsonl')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const { ts: _ts, ...rest } = JSON.parse(line) as Record<string, unknown>;
        void _ts;
        // A receipt's fingerprint names the tree it verified, HEAD included: two projects
        // (the real client's and the stand-in's twin) have different commits by construction.
        if (typeof rest.fingerprint === 'string') rest.fingerprint = '<fingerprint>';
        return JSON.stringify(rest);
      })
      .join('\n'),
  };
}

/** Every git object, ref and remote ref of a repository, and the hash of each named file: what an effect would change. */
export function gitEffects(dir: string, files: readonly string[] = []): Record<string, string> {
  const objects = spawnSync('git', ['cat-file', '--batch-all-objects', '--batch-check'], { cwd: dir, encoding: 'utf8' }).stdout;
  const refs = spawnSync('git', ['for-each-ref', '--format=%(refname) %(objectname)'], { cwd: dir, encoding: 'utf8' }).stdout;
  const head = spawnSync('git', ['symbolic-ref', '-q', 'HEAD'], { cwd: dir, encoding: 'utf8' }).stdout;
  const out: Record<string, string> = { objects, refs, head };
  for (const file of files) out[file] = existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : '(absent)';
  return out;
}

/** The final `result` events of a client run (one per main-thread turn that ended). */
export function resultTexts(run: RealRun): string[] {
  return run.client.events.filter((event) => event.type === 'result').map((event) => String(event.result ?? ''));
}

/** The text of every tool_result the main thread got, in order (what the scripted user saw). */
export function mainToolOutputs(run: RealRun): string[] {
  const out: string[] = [];
  for (const event of run.client.events) {
    if (event.type !== 'user') continue;
    const content = (event.message as { content?: unknown } | undefined)?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content as { type?: string; content?: unknown }[]) {
      if (block.type === 'tool_result') out.push(typeof block.content === 'string' ? block.content : JSON.stringify(block.content));
    }
  }
  return out;
}

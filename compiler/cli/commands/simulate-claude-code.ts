import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BRIEF_FILES } from '../../brief/load.js';
import { LeopoldError } from '../../diagnostics/diagnostic.js';
import { SCRIPT_PATH } from '../../emit/index.js';
import { READ_ONLY_AGENT_DEFINITION, READ_ONLY_AGENT_PATH } from '../../../runtime/verify/agent.js';
import type { AgentCall, HostRun } from '../../../runtime/host/index.js';
import { clientJournal, findClaudeBinary, runClient, startModelServer, type ModelScript } from '../../../runtime/scripted-model/index.js';
import { PROJECT_CLI, PROJECT_CLI_RULE } from '../../../runtime/project-cli/index.js';
import type { PlanLayout } from '../compile-inputs.js';
import { cliEntry } from '../entry.js';

/**
 * `leopold simulate --host claude-code`: the rehearsal in the user's own Claude Code client
 * (docs/host.md). The compiled script runs in the real workflow loader and runtime,
 * on the built-in scripted model (runtime/scripted-model: the answers file's rules, else
 * schema-shaped defaults, and a scribe that really runs its leopold commands), in a scratch
 * copy of the brief, so nothing in the project changes and no token is spent.
 */

/** What the rehearsal needs from the simulate command. */
export interface RehearsalInput {
  layout: PlanLayout;
  script: string;
  model: ModelScript;
  args: Record<string, unknown> | null;
  claude?: string;
  timeoutMs: number;
}

/** The rehearsal's outcome, in the shape the simulate report renders. */
export interface Rehearsal {
  run: HostRun;
  client: string;
}

/** The brief files beside the plan a rehearsal copies (the run's own files never are, so it starts clean). */
const COPIED = [BRIEF_FILES.mission, BRIEF_FILES.charter, BRIEF_FILES.guardrails, 'DECISIONS.md'];

export async function rehearseInClaudeCode(input: RehearsalInput): Promise<Rehearsal> {
  const binary = findClaudeBinary(input.layout.root, input.claude);
  if (binary === null) {
    throw new LeopoldError(
      input.claude
        ? `no Claude Code client at ${input.claude}`
        : 'no Claude Code client found: install it in the project (npm i -D @anthropic-ai/claude-code), put `claude` on PATH, or pass --claude PATH',
    );
  }
  const version = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (version.status !== 0) throw new LeopoldError(`the Claude Code client at ${binary} does not start (claude --version failed)`);
  const scratch = mkdtempSync(join(tmpdir(), 'leopold-rehearsal-'));
  // The user's main thread, scripted: launch the compiled workflow, and say so when it is done.
  const launch = { scriptPath: SCRIPT_PATH, ...(input.args ? { args: input.args } : {}) };
  const server = await startModelServer({ ...input.model, main: [{ tool: 'Workflow', input: launch }, { text: 'Rehearsal launched.' }], afterWorkflow: [{ text: 'Rehearsal done.' }] });
  try {
    const repo = setUpScratch(scratch, input);
    const client = await runClient({
      binary,
      cwd: repo,
      home: join(scratch, 'home'),
      baseUrl: server.url,
      prompt: 'Run the compiled Leopold workflow (a rehearsal on a scripted model).',
      args: ['--permission-mode', 'acceptEdits', '--allowedTools', `Workflow,${PROJECT_CLI_RULE}`],
      timeoutMs: input.timeoutMs,
    });
    if (client.timedOut) throw new LeopoldError(`the rehearsal did not finish within ${Math.round(input.timeoutMs / 1000)} s (raise --timeout)`);
    return { run: hostRunOf(clientJournal(client), server.model.workflowResults.at(-1), client.stderr), client: version.stdout.trim() };
  } finally {
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The scratch project: the brief, the compiled script, and a `leopold` the scribe can run where it looks (node_modules/.bin). */
function setUpScratch(scratch: string, input: RehearsalInput): string {
  const repo = join(scratch, 'repo');
  // Always .leopold/PLAN.md, whatever the plan is called: that is where the scribe's `leopold plan tick` looks.
  const brief = join(repo, '.leopold');
  mkdirSync(brief, { recursive: true });
  mkdirSync(join(scratch, 'home'));
  copyFileSync(input.layout.planAbs, join(brief, BRIEF_FILES.plan));
  for (const file of COPIED) {
    const from = join(input.layout.briefDir, file);
    if (existsSync(from)) copyFileSync(from, join(brief, file));
  }
  const scriptAbs = join(repo, SCRIPT_PATH);
  mkdirSync(dirname(scriptAbs), { recursive: true });
  writeFileSync(scriptAbs, input.script);
  // The read-only agent the script's verifiers, judges and reviewers name, as compile writes it.
  mkdirSync(join(repo, '.claude', 'agents'), { recursive: true });
  writeFileSync(join(repo, READ_ONLY_AGENT_PATH), READ_ONLY_AGENT_DEFINITION);
  // This very CLI where the scribe's commands look for the project's install (runtime/project-cli).
  mkdirSync(join(repo, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(join(repo, PROJECT_CLI), `#!/bin/sh\nexec "${process.execPath}" "${cliEntry()}" "$@"\n`, { mode: 0o755 });
  return repo;
}

/** The client's journal and the workflow result in the stand-in's report shape, so both hosts print alike. */
function hostRunOf(journal: ReturnType<typeof clientJournal>, result: unknown, stderr: string): HostRun {
  const calls: AgentCall[] = journal.agents.map((agent) => ({
    index: agent.index,
    label: agent.label,
    phase: agent.phase,
    prompt: '',
    options: {},
    answer: null,
    status: agent.state === 'done' ? 'answered' : 'null',
    source: 'default',
    attempts: 1,
    tokens: 0,
  }));
  const stats = { agents: calls.length, maxConcurrency: 0, tokensSpent: 0, logsDropped: 0, virtualMs: 0 };
  if (result === undefined || result === null) {
    const why = stderr.trim().split('\n').at(-1) ?? '';
    return { ok: false, journal: calls, logs: [], phases: journal.phases, meta: {}, stats, error: { name: 'Error', message: `the workflow reported no result${why ? `: ${why}` : ''}` } };
  }
  return { ok: true, result, journal: calls, logs: [], phases: journal.phases, meta: {}, stats };
}

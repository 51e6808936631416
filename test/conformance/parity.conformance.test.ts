import { describe, expect, it } from 'vitest';
import { PROJECT_CLI, PROJECT_CLI_RULE } from '../../runtime/project-cli/index.js';
import { persona } from '../workflow/harness.js';
import { answersOf, forkValue } from '../parity/drivers.js';
import { CASES, type Case, type Fork } from '../parity/table.js';
import { STRESS } from '../support/stress.js';
import { projectFixtures, runReal, type Project } from './harness.js';
import { workflowSuite } from './workflow-scenario.js';

// Parity cases of test/parity/table.ts through the real client: the same case run by the
// compiled workflow (Workflow tool, its agents answered by the scripted model, the scribe
// running the CLI for real) and by the Stop-hook engine (a scripted session following the
// hook's blocks), each judged by the files the run left: the turn events in events.jsonl,
// the stop event, and DECISIONS.md byte for byte (timestamps aside).

const { scenario } = workflowSuite();
const sessions = projectFixtures();
const CHARTER = '# Charter\n\n## Never\n\n- Never add a runtime dependency.\n';

const caseNamed = (start: string): Case => CASES.find((c) => c.name.startsWith(start))!;
const lines = (p: Project, file: string) => {
  try {
    return p.read(file).trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  } catch {
    return [];
  }
};
/** What a run left: the dispatches (turn events), the stop, and the decision entries. */
function trailOf(p: Project) {
  const events = lines(p, '.leopold/events.jsonl');
  const stop = events.find((e) => e.event === 'stop');
  let decisions = '';
  try {
    decisions = p.read('.leopold/DECISIONS.md');
  } catch {
    // none
  }
  return {
    dispatched: events.filter((e) => e.event === 'turn').map((e) => e.item),
    stop: stop?.reason,
    iteration: stop?.iteration,
    entries: decisions.split(/\n(?=## D\d)/).slice(1).map((e) => e.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g, '<ts>').trim()),
  };
}

const RECORD = `${PROJECT_CLI} record < .leopold/record.json`;
const forkEntry = (f: Fork, item: number, subject: string, fork: string, turn: number) => {
  const p = persona(f.role).value;
  const { summary: _summary, ...decided } = forkValue(f);
  return { ...decided, fork, item, subject, persona: { name: p.name, role: p.role, expertise: p.expertise }, turn };
};

/** The session engine in the real client: `session` rules give the scripted main thread's turns for the named items. */
async function sessionRun(c: Case, session: (dir: string) => unknown[]) {
  const p = sessions.project({ plan: c.plan, charter: CHARTER, ...(c.guardrails ? { guardrails: c.guardrails } : {}) });
  const main = [{ tool: 'Bash', input: { command: `${PROJECT_CLI} run start` } }, { text: 'started' }];
  const run = await runReal(p, { prompt: 'Start the Leopold run.', script: { main, session: session(p.dir) }, allowedTools: PROJECT_CLI_RULE });
  expect(run.client.timedOut).toBe(false);
  return trailOf(p);
}

async function workflowRun(c: Case) {
  const kinds = (i: number) => /@(gate|verify)\b/.exec(c.plan.split('\n').filter((l) => /^- \[[ x]\]/.test(l))[i - 1] ?? '')?.[1] ?? 'work';
  const { project } = await scenario({ plan: c.plan, charter: CHARTER, ...(c.guardrails ? { guardrails: c.guardrails } : {}) }, answersOf(c, kinds));
  return trailOf(project);
}

const expected = (c: Case) => ({ dispatched: c.expected.dispatched, stop: c.expected.stop, iteration: c.expected.iteration ?? c.expected.dispatched.length });

describe('engine parity in the real client', () => {
  it('stop and ask: a @human node decided irreversibly on a silent charter stops both engines with escalation, nothing recorded', async () => {
    const c = caseNamed('a @human node decided irreversibly on a silent charter');
    const fork = (c.attempts![2]![0] as { human: Fork }).human;
    // The session writes the decision the fork asked for; leopold record refuses it and records the escalation.
    const session = await sessionRun(c, (dir) => [
      {
        item: 2,
        turns: [
          [
            { tool: 'Write', input: { file_path: `${dir}/.leopold/record.json`, content: JSON.stringify({ decisions: [forkEntry(fork, 2, 'Approve the production cutover', 'human', 2)] }) } },
            { tool: 'Bash', input: { command: RECORD, description: 'Record the decision' } },
            { text: 'leopold record refused it: the escalation is recorded; ending the turn.' },
          ],
        ],
      },
    ]);
    const workflow = await workflowRun(c);
    const { entries: sessionEntries, ...sessionPath } = session;
    const { entries: workflowEntries, ...workflowPath } = workflow;
    expect(sessionPath).toEqual(expected(c));
    expect(workflowPath).toEqual(sessionPath);
    expect(sessionEntries).toEqual([]);
    expect(workflowEntries).toEqual([]);
  });

  it('the stop channel: work GUARDRAILS.md gates stops both engines before it, awaiting_human under full; no persona, no entry', async () => {
    const c = caseNamed('an item GUARDRAILS.md gates');
    const session = await sessionRun(c, () => []);
    const workflow = await workflowRun(c);
    expect({ ...session, entries: session.entries.length }).toEqual({ ...expected(c), entries: 0 });
    expect(workflow).toEqual(session);
  });

  it('the stop channel: a premise found false, reported as needs-person, stops both engines with escalation under full', async () => {
    const c = caseNamed('a premise found false');
    const attempt = c.attempts![1]![0] as { needsPerson: string; question: string };
    const report = { events: [{ event: 'needs-person', item: 1, reason: attempt.needsPerson, question: attempt.question }] };
    const session = await sessionRun(c, (dir) => [
      {
        item: 1,
        turns: [
          [
            { tool: 'Write', input: { file_path: `${dir}/.leopold/record.json`, content: JSON.stringify(report) } },
            { tool: 'Bash', input: { command: RECORD, description: 'Report what only a person can settle' } },
            { text: 'Only the user can settle this; ending the turn.' },
          ],
        ],
      },
    ]);
    const workflow = await workflowRun(c);
    expect({ ...session, entries: session.entries.length }).toEqual({ ...expected(c), entries: 0 });
    expect(workflow).toEqual(session);
  });

  // The two below run in `npm run test:stress` (CI runs it too): npm test keeps to five minutes on two cores.
  it.runIf(STRESS)('an escalation settled by a persona: the same entry, with its Persona and Fork, from both engines', async () => {
    const c = caseNamed('an escalation settled by a persona');
    const fork = (c.attempts![1]![0] as { escalate: Fork }).escalate;
    const session = await sessionRun(c, (dir) => [
      {
        item: 1,
        turns: [
          [
            // The decision, and the receipt a tick needs (done means verified).
            { tool: 'Write', input: { file_path: `${dir}/.leopold/record.json`, content: JSON.stringify({ decisions: [forkEntry(fork, 1, 'Count words', 'escalation', 1)], events: [{ event: 'verified', item: 1, commands: ['npm test'] }] }) } },
            { tool: 'Bash', input: { command: RECORD, description: 'Record the escalation decision and the receipt' } },
            { tool: 'Bash', input: { command: `${PROJECT_CLI} plan tick 1`, description: 'Tick item 1' } },
            { text: 'Item 1 is done.' },
          ],
        ],
      },
    ]);
    const workflow = await workflowRun(c);
    expect({ ...session, entries: session.entries.length }).toEqual({ ...expected(c), entries: 1 });
    expect(workflow).toEqual(session);
    expect(session.entries[0]).toMatch(/\nPersona: +Ada Park — Data Modelling Lead/);
    expect(session.entries[0]).toMatch(/\nFork: +escalation — item 1: "Count words"/);
  });

  it.runIf(STRESS)('the last item done on the last iteration: plan_complete on both engines', async () => {
    const c = caseNamed('the last item done on the last iteration');
    const session = await sessionRun(c, (dir) => []);
    const workflow = await workflowRun(c);
    expect({ ...session, entries: undefined }).toEqual({ ...expected(c), entries: undefined });
    expect(workflow).toEqual(session);
  });
});

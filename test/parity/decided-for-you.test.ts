import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { finishRun, startRun } from '../../compiler/cli/commands/run.js';
import { appendDecisions, renderDecision, type DecisionInput } from '../../runtime/decisions/index.js';
import { messageOf } from '../support/stop-output.js';
import { runStopHook } from '../../runtime/hooks/stop/index.js';
import { notifyRunEnded } from '../../runtime/notify/index.js';
import { charterRules } from '../../runtime/persona/index.js';
import { CHARTER, decisionsOf, MISSION, simulate, verdict } from '../workflow/harness.js';
import { webhookServers } from '../support/webhook-server.js';

// ONE set of decisions, four renderings: the workflow result, `leopold run finish`, the Stop
// hook's final message and the webhook body must carry the same "What I decided for you"
// block, and DECISIONS.md the same entries, byte for byte as the golden files (reviewed like
// code). The decisions are the ones a simulated workflow run makes at its three persona
// forks; the session side writes exactly those through the one writer (`leopold record`).
const GOLDEN = join(import.meta.dirname, 'golden', 'decided-for-you');
const golden = (name: string) => readFileSync(join(GOLDEN, name), 'utf8');

const PLAN = '- [ ] @human Approve the production cutover\n- [ ] Run the production migration\n- [ ] Split the slow test suite\n';
const CHARTER_RULES = `${CHARTER}- Always keep a rollback path.\n`;

const persona = (name: string, role: string, expertise: string) => ({ value: { name, role, expertise: [expertise], optimizesFor: ['safety'], rationale: 'fits' } });
const fork = (decision: string, reversal: string) => ({
  value: { title: decision.replace(/^./, (c) => c.toUpperCase()), class: 'reversible', charter: 'Always keep a rollback path.', decision, why: 'pragmatism', reversal, summary: 'done' },
});
const handoff = (status: 'completed' | 'blocked', blocked = '') => ({
  value: { status, files_changed: ['db/migrate.sql'], tests_run: [{ command: 'npm test', result: status === 'blocked' ? 'not-run' : 'pass', summary: '' }], evidence: '', blocked_reason: blocked, concerns: [] },
});

const ANSWERS = [
  { label: 'i1:persona:human', answers: [persona('Rui Salgado', 'Release Engineer', 'staged rollouts')] },
  { label: 'i1:human', answers: [fork('approve the cutover behind a flag, staged only', 'flip cutover_enabled back to false in config/flags.yml')] },
  { label: 'i2:implement', answers: [handoff('blocked', 'needs-confirm: one migration or two halves?'), handoff('completed')] },
  { label: 'i2:persona:escalation', answers: [persona('Nadia Ferro', 'Data Engineer', 'Postgres migrations')] },
  { label: 'i2:escalation', answers: [fork('run the production migration in two reversible halves', 'run migrations/002_down.sql')] },
  { label: 'i3:verify', answers: [verdict.fail('slow suite timed out'), verdict.fail('slow suite timed out'), verdict.fail('slow suite timed out'), verdict.pass] },
  { label: 'i3:persona:repeated-failure', answers: [persona('Ana Reis', 'Build Engineer', 'test sharding')] },
  { label: 'i3:rescue', answers: [{ value: { approach: 'split the suite and run the slow half serially' } }] },
];

const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-dfy-')));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const server = webhookServers();

/** The block inside a report: from its header to its closing line. */
function blockIn(report: string): string {
  const lines = report.split('\n');
  const from = lines.findIndex((l) => l.startsWith('What I decided for you'));
  const to = lines.findIndex((l, i) => i > from && l.startsWith('The full trail'));
  expect(from, report).toBeGreaterThanOrEqual(0);
  expect(to, report).toBeGreaterThan(from);
  return `${lines.slice(from, to + 1).join('\n')}\n`;
}

// Timestamps are the writer's clock; everything else is the contract.
const entriesOf = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g, '<ts>');

/** A `.leopold/` with the brief, an active session run and the workflow's decisions written through the one writer. */
async function briefWith(name: string, decisions: DecisionInput[], webhook: string, plan: string): Promise<string> {
  const leo = join(work, name, '.leopold');
  mkdirSync(leo, { recursive: true });
  writeFileSync(join(leo, 'PLAN.md'), plan);
  writeFileSync(join(leo, 'MISSION.md'), MISSION);
  writeFileSync(join(leo, 'CHARTER.md'), CHARTER_RULES);
  writeFileSync(join(leo, 'GUARDRAILS.md'), `- notify_webhook: ${webhook}\n`);
  await startRun(leo, { engine: 'session', force: false });
  await appendDecisions(leo, decisions);
  return leo;
}

describe('"What I decided for you": one renderer, four places, the golden text', () => {
  it('the workflow result, run finish, the Stop hook and the webhook body print the same block; DECISIONS.md the same entries', async () => {
    const s = await simulate(PLAN, { answers: ANSWERS, compile: { charter: CHARTER_RULES } });
    expect(s.result.stop).toBe('plan_complete');
    const decisions = decisionsOf(s) as DecisionInput[];
    expect(decisions.map((d) => d.fork)).toEqual(['human', 'escalation', 'repeated-failure']);
    const block = golden('block.txt');

    // 1. The workflow result (numbered D1, D2, D3 by the scribe's acks).
    expect(`${s.result.decidedForYou}\n`).toBe(block);
    expect(s.result.decisions.map((d) => d.n)).toEqual([2, 1, 3]);

    // 2. leopold run finish, and the webhook body it posts.
    const hook = await server();
    const finished = await briefWith('finish', decisions, hook.url, PLAN.replace(/- \[ \]/g, '- [x]'));
    const summary = (await finishRun(finished, 'plan_complete'))!.summary;
    expect(blockIn(summary)).toBe(block);
    await notifyRunEnded(finished, hook.url, summary);

    // 3. The Stop hook's final message (the plan is complete), and the webhook body it posts.
    const stopped = await briefWith('hook', decisions, hook.url, PLAN.replace(/- \[ \]/g, '- [x]'));
    const stdin = JSON.stringify({ session_id: 's', cwd: join(stopped, '..'), hook_event_name: 'Stop', stop_hook_active: true, background_tasks: [] });
    const out = { systemMessage: messageOf(await runStopHook(stdin, { env: {}, processCwd: join(stopped, '..') })) };
    expect(blockIn(out.systemMessage)).toBe(block);

    // 4. The webhook bodies.
    expect(hook.received).toHaveLength(2);
    for (const request of hook.received) expect(blockIn((JSON.parse(request.body) as { body: string }).body)).toBe(block);

    // The entries: what the session wrote, and what the workflow's scribe was handed, rendered by the one renderer.
    const trail = entriesOf(readFileSync(join(finished, 'DECISIONS.md'), 'utf8'));
    expect(trail).toBe(golden('DECISIONS.md'));
    expect(entriesOf(readFileSync(join(stopped, 'DECISIONS.md'), 'utf8'))).toBe(trail);
    const rules = charterRules(CHARTER_RULES);
    const rendered = `# Decisions\n\n${decisions.map((d, i) => renderDecision(d, i + 1, new Date(0), rules)).join('\n\n')}\n`;
    expect(entriesOf(rendered)).toBe(trail);
  });
});

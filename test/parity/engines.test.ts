import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startRun } from '../../compiler/cli/commands/run.js';
import { compile } from '../../compiler/index.js';
import { resolveAutonomy } from '../../runtime/autonomy/index.js';
import { runGuard } from '../../runtime/hooks/guard/index.js';
import { runStopHook } from '../../runtime/hooks/stop/index.js';
import { CHARTER, MISSION, decision, runtimeBundle, simulate } from '../workflow/harness.js';
import { outcomesText, type RunModel } from '../../runtime/run/index.js';
import { answersOf, SESSION_QUESTION, sessionRun, workflowRun, type EngineRun } from './drivers.js';
import { CASES, ROUTED, type Case } from './table.js';

// ONE table (test/parity/table.ts), two engines (test/parity/drivers.ts): both must dispatch
// the same items in the same order, stop for the same reason at the same iteration and write
// the same decision entries (rendered, modulo timestamps).

const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-parity-')));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;

describe('engine parity: the Stop hook and the workflow take the same path', () => {
  it('the table has at least 40 cases, and one for each divergence the shared run model removed', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
    expect(CASES.filter((c) => c.failedBefore).length).toBeGreaterThanOrEqual(5);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const dir = join(work, `case${n++}`);
    const session = await sessionRun(c, dir);
    const expected = { dispatched: c.expected.dispatched, stop: c.expected.stop, iteration: c.expected.iteration ?? c.expected.dispatched.length, entries: c.expected.entries ?? 0 };
    expect({ dispatched: session.dispatched, stop: session.stop, iteration: session.iteration, entries: session.entries.length }).toEqual(expected);
    const workflow = await workflowRun(c);
    if (c.killAfterTurns !== undefined) {
      // The one divergence left (docs/architecture.md): the script cannot see .leopold/STOP,
      // so it runs on; up to the switch both engines dispatched the same items.
      expect(workflow.dispatched.slice(0, session.dispatched.length)).toEqual(session.dispatched);
      expect(workflow.stop).toBe('plan_complete');
      return;
    }
    // The stop's detail too, byte for byte, but where the session itself reported a fork it
    // could not settle: there the rest of the line is the session's own words (the workflow
    // names what was wrong with the answer), and the item named must still be the same.
    const ownWords = session.detail.endsWith(`: ${SESSION_QUESTION}`);
    const itemNamed = session.detail.slice(0, session.detail.length - SESSION_QUESTION.length);
    if (ownWords) expect(itemNamed).toMatch(/^item \d+ \(".+"\): $/);
    const detailOf = (run: EngineRun) => (ownWords && run.detail.startsWith(itemNamed) ? itemNamed : run.detail);
    expect({ dispatched: workflow.dispatched, stop: workflow.stop, detail: detailOf(workflow), iteration: workflow.iteration }).toEqual({
      dispatched: session.dispatched,
      stop: session.stop,
      detail: detailOf(session),
      iteration: session.iteration,
    });
    expect(workflow.entries).toEqual(session.entries);
    // The report's review facts: each item's SDD outcome label (with its concerns) and the final review's follow-ups.
    expect(workflow.review).toEqual(session.review);
    if (c.expected.outcomes !== undefined) expect(outcomesText(session.review.outcomes)).toBe(c.expected.outcomes);
    if (c.expected.followUps !== undefined) expect(session.review.followUps).toHaveLength(c.expected.followUps);
    // Done means verified: the same receipts, item by item (the session's last per item: a refused tick verifies again).
    // (The commands are each engine's own: the workflow's default verifier names a placeholder one.)
    const items = (run: EngineRun) => run.verified.filter((r, i, all) => all.findLastIndex((o) => o.item === r.item) === i).map((r) => r.item);
    expect(items(workflow)).toEqual(items(session));
    for (const r of [...workflow.verified, ...session.verified]) expect(r.commands).toEqual([expect.any(String)]);
    // The workflow's journal, folded by the one reducer, is the model the session's Stop hook
    // kept in state.json: the same counters, rescue, plan changes and routing.
    const kept = (m: RunModel) => ({
      iteration: m.iteration,
      failures: m.failures,
      consecutive_failures: m.consecutive_failures,
      rescue_used: m.rescue_used,
      amendments_used: m.amendments_used,
      final_reviews: m.final_reviews,
      deadlock_repairs: m.deadlock_repairs,
      statuses: m.routing.statuses,
      taken: m.routing.taken,
      halt: m.halt?.reason ?? null,
    });
    expect(kept(workflow.model)).toEqual(kept(session.model));
    // Where the session starts the workflow's agents as subagents, both count them alike.
    if (c.subagents) expect(workflow.model.subagents).toEqual(session.model.subagents);
    if (/generic/.test(c.name)) expect(session.entries[0]).toMatch(/Persona: +none: no role could be synthesized/);
    for (const entry of session.entries.filter((e) => /Fork: +(human|escalation|repeated-failure)/.test(e))) {
      expect(entry).toMatch(/^## D\d+ — .*\(turn \d+, <ts>\)\nPersona:/);
    }
    if (/escalation settled/.test(c.name)) expect(session.entries[0]).toMatch(/Fork: +escalation — item 1/);
  });
});

describe('evidence parity: why a node failed reaches the item that deals with it, in both engines', () => {
  const OUTPUT = 'not ok 1 - counts words\n  ---\n  expected: 3\n  actual: 2\n  ...\n# fail 1';
  const c: Case = {
    name: 'evidence',
    plan: ROUTED,
    attempts: { 2: [{ exit: 1, output: OUTPUT }], 3: [{ fail: 'verification' }, { ok: true }], 4: [{ gate: 'fail' }] },
    expected: { dispatched: [1, 2, 3, 3, 4, 6], stop: 'routed_complete' },
  };

  it("a failing @tool's exit and output reach the fix item; a failed attempt's evidence reaches its retry; a failed gate's reasons reach the rework", async () => {
    const session = await sessionRun(c, join(work, `evidence${n++}`));
    expect(session.dispatched).toEqual(c.expected.dispatched);
    const blockFor = (item: number, k = 0) => session.reasons.filter((r) => r.includes(`Work on item ${item} now`))[k]!;
    const s = await simulate(c.plan, { answers: answersOf(c, (i) => (i === 4 ? 'gate' : 'work')) });
    const promptFor = (label: string, k = 0) => s.run.journal.filter((call) => call.label === label)[k]!.prompt;
    // The fix item (3), dispatched by the route `exit!=0` from the @tool (2).
    for (const text of [blockFor(3), promptFor('i3:implement')]) {
      expect(text).toContain('Why the route from item 2 (@tool `npm test`) sent you here:\n`npm test` exited 1; the end of its output:\n' + OUTPUT);
    }
    // Its retry after a failed verification carries that attempt's evidence (and still the route's).
    expect(blockFor(3, 1)).toContain('The last attempt at this item failed:\nverification: as scripted');
    expect(promptFor('i3:implement', 1)).toContain('The last attempt at this item failed:\nverification: verification failed: npm test: 2 failing');
    // The rework item (6), dispatched by the gate's `fail` route.
    expect(blockFor(6)).toContain('Why the route from item 4 (@gate Review it) sent you here:\n@gate failed: as scripted');
    expect(promptFor('i6:implement')).toContain('Why the route from item 4 (@gate Review it) sent you here:\n@gate failed: as scripted');
    // An item nothing failed before is dispatched without any.
    expect(blockFor(1)).not.toContain('Evidence');
    expect(promptFor('i1:implement')).not.toContain('## Evidence');
  });
});

describe('autonomy parity: every spelling through resolveAutonomy, as compile, the workflow and both hooks use it', () => {
  const SPELLINGS = [
    ['full', 'full'],
    ['FULL', 'full'],
    ['ask', 'ask'],
    ['halt', 'ask'],
    ['human', 'ask'],
    ['junk', 'full'],
  ] as const;
  const HUMAN = '- [ ] @human Pick the licence\n';

  it.each(SPELLINGS)('%s means %s everywhere', async (spelling, posture) => {
    expect(resolveAutonomy({ flag: spelling }).autonomy).toBe(posture);
    // compile: the flag and LEOPOLD_AUTONOMY, and GUARDRAILS.
    const options = { file: '.leopold/PLAN.md', mission: MISSION, charter: CHARTER, runtimeBundle: await runtimeBundle() };
    expect(compile(HUMAN, { ...options, guardrails: '', autonomyFlag: spelling }).autonomy.autonomy).toBe(posture);
    expect(compile(HUMAN, { ...options, guardrails: '', autonomyEnv: spelling }).autonomy.autonomy).toBe(posture);
    expect(compile(HUMAN, { ...options, guardrails: `- autonomy: ${spelling}\n` }).autonomy.autonomy).toBe(posture);
    // The workflow: compiled under the spelling (GUARDRAILS), and args.autonomy over a full plan.
    // Under full a persona decides; it is given a usable decision (an empty one is an escalation).
    const answers = [{ label: 'i1:human', answers: [decision()] }];
    const viaGuardrails = await simulate(HUMAN, { answers, compile: { guardrails: `- autonomy: ${spelling}\n` } });
    const viaArgs = await simulate(HUMAN, { answers, args: { autonomy: spelling } });
    const expectedStop = posture === 'ask' ? 'awaiting_human' : 'plan_complete';
    expect(viaGuardrails.result.stop).toBe(expectedStop);
    expect(viaArgs.result.stop).toBe(expectedStop);
    // The Stop hook: GUARDRAILS and LEOPOLD_AUTONOMY.
    for (const where of ['guardrails', 'env'] as const) {
      const dir = join(work, `autonomy${n++}`);
      mkdirSync(join(dir, '.leopold'), { recursive: true });
      writeFileSync(join(dir, '.leopold', 'PLAN.md'), HUMAN);
      writeFileSync(join(dir, '.leopold', 'GUARDRAILS.md'), where === 'guardrails' ? `- autonomy: ${spelling}\n` : '');
      await startRun(join(dir, '.leopold'), { engine: 'session', force: false });
      const out = await runStopHook(JSON.stringify({ cwd: dir, hook_event_name: 'Stop' }), { env: where === 'env' ? { LEOPOLD_AUTONOMY: spelling } : {}, processCwd: dir });
      if (posture === 'ask') expect(out.kind === 'message' && out.text).toMatch(/awaiting_human/);
      else expect(out.kind).toBe('block');
    }
    // The guard has no posture: under every spelling it denies the same push.
    const dir = join(work, `guard${n++}`);
    mkdirSync(join(dir, '.leopold'), { recursive: true });
    writeFileSync(join(dir, '.leopold', 'state.json'), JSON.stringify({ version: 1, active: true }));
    const push = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git push' }, cwd: dir });
    expect(runGuard(push, { env: { LEOPOLD_AUTONOMY: spelling }, processCwd: dir })).toMatch(/"permissionDecision":"deny"/);
  });
});

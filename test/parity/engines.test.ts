import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordDocument } from '../../compiler/cli/commands/record.js';
import { startRun } from '../../compiler/cli/commands/run.js';
import { tickPlan } from '../../compiler/cli/commands/plan.js';
import { compile } from '../../compiler/index.js';
import { resolveAutonomy } from '../../runtime/autonomy/index.js';
import { renderDecision } from '../../runtime/decisions/render.js';
import type { DecisionInput } from '../../runtime/decisions/schema.js';
import { runGuard } from '../../runtime/hooks/guard/index.js';
import { runStopHook } from '../../runtime/hooks/stop/index.js';
import { charterRules } from '../../runtime/persona/index.js';
import { readState } from '../../runtime/state/index.js';
import type { AnswerScript } from '../../runtime/host/index.js';
import { CHARTER, decisionsOf, MISSION, persona, decision, runtimeBundle, simulate, verdict } from '../workflow/harness.js';

// ONE table, two engines. Each case gives a plan, GUARDRAILS and what happens to each item
// on each attempt. The workflow engine runs the compiled script in the stand-in host with
// those outcomes as its agents' answers; the Stop-hook engine is driven turn by turn in a
// real .leopold/ (state through `leopold run start`'s function): after each block the
// simulated session does what the same outcome says, through the real CLI functions
// (`leopold plan tick`, `leopold record`, filling the hook's own record template), and
// calls the hook again. Both must dispatch the same items in the same order, stop for the
// same reason and write the same decision entries (rendered, modulo timestamps).

/** What one attempt at an item does. */
type Attempt =
  | { ok: true }
  | { fail: 'verification' }
  | { gate: 'pass' | 'fail' }
  | { exit: number }
  | { human: { role: string; title: string; charter: string } }
  /** A @human fork whose answer decides nothing (empty decision): nobody may record it. */
  | { unsettled: { role: string } };

interface Case {
  name: string;
  plan: string;
  guardrails?: string;
  /** Item index -> its attempts in order (the last repeats); unlisted items pass. */
  attempts?: Record<number, Attempt[]>;
  expected: { dispatched: number[]; stop: string };
  /** Raise the kill switch in the session after this many turns (the workflow cannot see it). */
  killAfterTurns?: number;
}

const CASES: Case[] = [
  {
    name: 'a plain checklist, one verification failure recovered',
    plan: '# Plan\n\n- [x] Set up\n- [ ] Count words {#count}\n- [ ] (after: #count) Add --json\n- [ ] Write the README\n',
    attempts: { 2: [{ fail: 'verification' }, { ok: true }] },
    expected: { dispatched: [2, 2, 4, 3], stop: 'plan_complete' },
  },
  {
    name: 'a routed plan taking the fail branch (@tool exit 1, @gate fail)',
    plan: [
      '- [ ] Build it {#build}',
      '- [ ] (after: #build) @tool `npm test` {#test}',
      '  @on exit!=0 -> #fix',
      '  @on exit=0 -> #review',
      '- [ ] Fix what the tests found {#fix}',
      '  @on ok -> #review',
      '- [ ] @gate Review it {#review}',
      '  @on fail -> #rework',
      '  @on pass -> #ship',
      '- [ ] Ship it {#ship}',
      '- [ ] Rework what review rejected {#rework}',
      '',
    ].join('\n'),
    attempts: { 2: [{ exit: 1 }], 4: [{ gate: 'fail' }] },
    expected: { dispatched: [1, 2, 3, 4, 6], stop: 'routed_complete' },
  },
  {
    name: 'a @human node under full: a persona decides, the entry is written',
    plan: '- [ ] Write the code\n- [ ] @human Pick the licence\n- [ ] Publish the docs\n',
    attempts: { 2: [{ human: { role: 'Open Source Licensing Counsel', title: 'Pick the MIT licence', charter: 'silent' } }] },
    expected: { dispatched: [1, 2, 3], stop: 'plan_complete' },
  },
  {
    name: 'a @human node whose persona is generic: written as no role synthesized',
    plan: '- [ ] @human Pick the licence\n',
    attempts: { 1: [{ human: { role: 'An Assistant', title: 'Pick Apache-2.0', charter: 'Never add a runtime dependency.' } }] },
    expected: { dispatched: [1], stop: 'plan_complete' },
  },
  {
    name: 'a @human node whose answer decides nothing: escalation, and no entry is written',
    plan: '- [ ] Write the code\n- [ ] @human Approve the production cutover\n- [ ] Publish the docs\n',
    attempts: { 2: [{ unsettled: { role: 'Release Engineer' } }] },
    expected: { dispatched: [1, 2], stop: 'escalation' },
  },
  {
    name: 'a @human node under ask: awaiting_human',
    plan: '- [ ] Write the code\n- [ ] @human Pick the licence\n- [ ] Publish the docs\n',
    guardrails: '- autonomy: halt\n',
    expected: { dispatched: [1], stop: 'awaiting_human' },
  },
  {
    name: 'the iteration budget',
    plan: '- [ ] One\n- [ ] Two\n- [ ] Three\n',
    guardrails: '- max_iterations: 2\n',
    expected: { dispatched: [1, 2], stop: 'iteration_budget' },
  },
  {
    name: 'the failure ceiling under ask (rescues off)',
    plan: '- [ ] One\n- [ ] Two\n',
    guardrails: '- autonomy: ask\n- max_failures: 2\n',
    attempts: { 1: [{ fail: 'verification' }] },
    expected: { dispatched: [1, 1], stop: 'repeated_failure' },
  },
  {
    name: 'the kill switch (session engine only: the script cannot see .leopold/STOP)',
    plan: '- [ ] One\n- [ ] Two\n- [ ] Three\n',
    killAfterTurns: 1,
    expected: { dispatched: [1], stop: 'kill_switch' },
  },
];

const attemptOf = (c: Case, item: number, k: number): Attempt => {
  const list = c.attempts?.[item] ?? [{ ok: true }];
  return list[Math.min(k, list.length - 1)]!;
};

const personaValue = (role: string) => persona(role).value;
const decisionValue = (a: { title: string; charter: string }) =>
  decision({ title: a.title, charter: a.charter, decision: a.title.replace(/^Pick (the )?/, ''), reversal: 'Replace LICENSE and the licence field.' }).value;

/** The workflow's answer script for a case: the same attempts, as agent answers. */
function answersOf(c: Case): AnswerScript {
  const script: AnswerScript = [];
  for (const [key, attempts] of Object.entries(c.attempts ?? {})) {
    const i = Number(key);
    const first = attempts[0]!;
    if ('fail' in first || 'ok' in first) {
      script.push({ label: `i${i}:verify`, answers: attempts.map((a) => ('fail' in a ? verdict.fail('2 failing') : verdict.pass)) });
    } else if ('gate' in first) {
      script.push({ label: `i${i}:gate`, answers: attempts.map((a) => ({ value: { verdict: (a as { gate: string }).gate, reasons: 'as scripted' } })) });
    } else if ('exit' in first) {
      script.push({ label: `i${i}:tool`, answers: attempts.map((a) => ({ value: { exit: (a as { exit: number }).exit, output: '' } })) });
    } else if ('human' in first) {
      script.push({ label: `i${i}:persona:human`, answers: [{ value: personaValue(first.human.role) }] });
      script.push({ label: `i${i}:human`, answers: [{ value: decisionValue(first.human) }] });
    } else if ('unsettled' in first) {
      script.push({ label: `i${i}:persona:human`, answers: [{ value: personaValue(first.unsettled.role) }] });
      script.push({ label: `i${i}:human`, answers: [decision({ title: '', decision: '', why: '' })] });
    }
  }
  return script;
}

/** The workflow engine: dispatch order (one entry per attempt or node), stop, decision entries. */
async function workflowRun(c: Case): Promise<{ dispatched: number[]; stop: string; entries: string[] }> {
  const s = await simulate(c.plan, { answers: answersOf(c), compile: { guardrails: c.guardrails ?? '' } });
  const dispatched: number[] = [];
  let last = '';
  for (const label of s.labels) {
    const m = /^i(\d+):(implement|gate|tool|human|feedback)$/.exec(label);
    if (!m) {
      last = label;
      continue;
    }
    // A judge or tool asked twice (no answer) is one dispatch.
    if (label !== last || m[2] === 'implement') dispatched.push(Number(m[1]));
    last = label;
  }
  // The writer lifts the persona's binding rules from CHARTER.md; render with the same ones.
  const rules = charterRules(CHARTER);
  const entries = (decisionsOf(s) as DecisionInput[]).map((d, i) => normalise(renderDecision(d, i + 1, new Date(0), rules)));
  return { dispatched, stop: s.result.stop, entries };
}

const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-parity-')));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;

/** The Stop-hook engine, driven turn by turn by a simulated session. */
async function sessionRun(c: Case): Promise<{ dispatched: number[]; stop: string; entries: string[]; reasons: string[] }> {
  const dir = join(work, `case${n++}`);
  const leo = join(dir, '.leopold');
  mkdirSync(leo, { recursive: true });
  writeFileSync(join(leo, 'PLAN.md'), c.plan);
  writeFileSync(join(leo, 'MISSION.md'), MISSION);
  writeFileSync(join(leo, 'CHARTER.md'), CHARTER);
  writeFileSync(join(leo, 'GUARDRAILS.md'), c.guardrails ?? '');
  await startRun(leo, { engine: 'session', force: false });
  const plan = join(leo, 'PLAN.md');
  const stdin = JSON.stringify({ session_id: 'p', cwd: dir, hook_event_name: 'Stop', stop_hook_active: true, background_tasks: [] });
  const dispatched: number[] = [];
  const reasons: string[] = [];
  const attemptsSoFar = new Map<number, number>();
  const record = async (doc: unknown) => {
    const out = await recordDocument(JSON.stringify(doc), dir);
    expect(out.ack, JSON.stringify(doc)).toMatchObject({ ok: true });
  };
  for (let turn = 0; turn < 40; turn++) {
    if (c.killAfterTurns !== undefined && turn === c.killAfterTurns) writeFileSync(join(leo, 'STOP'), '');
    const out = await runStopHook(stdin, { env: {}, processCwd: dir });
    if (out === '') throw new Error('the hook printed nothing during an active run');
    const parsed = JSON.parse(out) as { decision?: string; reason?: string; systemMessage?: string };
    if (parsed.decision !== 'block') break;
    const reason = parsed.reason!;
    reasons.push(reason);
    const item = Number(/Work on item (\d+) now/.exec(reason)![1]);
    dispatched.push(item);
    const k = attemptsSoFar.get(item) ?? 0;
    attemptsSoFar.set(item, k + 1);
    const a = attemptOf(c, item, k);
    // The session does what the attempt says, exactly as the block reason tells it to.
    if ('ok' in a) await tickPlan(plan, String(item));
    else if ('fail' in a) await record({ events: [{ event: 'failure', item, kind: a.fail, evidence: '2 failing' }] });
    else if ('gate' in a) {
      await record({ events: [{ event: 'gate', item, verdict: a.gate, reasons: 'as scripted' }] });
      if (a.gate === 'pass') await tickPlan(plan, String(item));
    } else if ('exit' in a) {
      await record({ events: [{ event: 'tool', item, command: 'npm test', exit: a.exit }] });
      if (a.exit === 0) await tickPlan(plan, String(item));
    } else if ('unsettled' in a) {
      // The session has no usable decision: leopold record refuses the empty entry, and the
      // session reports the escalation exactly as the block reason says.
      const template = /Record the decision with its persona:\nWrite \.leopold\/record\.json with the Write tool, then run: node_modules\/\.bin\/leopold record < \.leopold\/record\.json\n(.*)/.exec(reason)!;
      const doc = JSON.parse(template[1]!) as { decisions: Record<string, unknown>[] };
      const empty = { decisions: doc.decisions.map((entry) => ({ ...entry, title: 'Approve it', class: 'reversible', charter: 'silent', decision: '', why: '', reversal: '', persona: null })) };
      const refused = await recordDocument(JSON.stringify(empty), dir);
      expect(refused.ack).toMatchObject({ ok: false, error: expect.stringMatching(/nobody made it/) });
      const escalation = /node_modules\/\.bin\/leopold record < \.leopold\/record\.json\n(\{"events":\[\{"event":"escalation".*)/.exec(reason);
      expect(escalation, 'the block reason carries the escalation template').not.toBeNull();
      await record(JSON.parse(escalation![1]!.replace('<the fork nobody could settle>', 'no usable decision')));
    } else {
      const template = /Record the decision with its persona:\nWrite \.leopold\/record\.json with the Write tool, then run: node_modules\/\.bin\/leopold record < \.leopold\/record\.json\n(.*)/.exec(reason);
      expect(template, 'the @human block reason carries the record template').not.toBeNull();
      const doc = JSON.parse(template![1]!) as { decisions: Record<string, unknown>[] };
      const p = personaValue(a.human.role);
      const d = decisionValue(a.human);
      const filled = {
        decisions: doc.decisions.map((entry) => ({
          ...entry,
          title: d.title,
          class: d.class,
          charter: d.charter,
          decision: d.decision,
          why: d.why,
          reversal: d.reversal,
          persona: { name: p.name, role: p.role, expertise: p.expertise },
        })),
      };
      expect(JSON.stringify(filled)).not.toMatch(/"<[^"]*>"/);
      await record(filled);
      await tickPlan(plan, String(item));
    }
  }
  const state = readState(leo).state!;
  let trail = '';
  try {
    trail = readFileSync(join(leo, 'DECISIONS.md'), 'utf8');
  } catch {
    // no decisions
  }
  const entries = trail
    .split(/\n(?=## D\d)/)
    .slice(1)
    .map((e) => normalise(e));
  return { dispatched, stop: state.stop_reason ?? '(none)', entries, reasons };
}

// Timestamps differ by engine and moment; everything else must not.
const normalise = (entry: string) => entry.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g, '<ts>').trim();

describe('engine parity: the Stop hook and the workflow take the same path', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const session = await sessionRun(c);
    expect({ dispatched: session.dispatched, stop: session.stop }).toEqual(c.expected);
    const workflow = await workflowRun(c);
    if (c.killAfterTurns !== undefined) {
      // The documented divergence: the script cannot see .leopold/STOP, so it runs on; up
      // to the switch both engines dispatched the same items.
      expect(workflow.dispatched.slice(0, session.dispatched.length)).toEqual(session.dispatched);
      expect(workflow.stop).toBe('plan_complete');
      return;
    }
    expect(workflow.dispatched).toEqual(session.dispatched);
    expect(workflow.stop).toBe(session.stop);
    expect(session.entries).toEqual(workflow.entries);
    const forks = Object.values(c.attempts ?? {}).flat().filter((a) => 'human' in a).length;
    if (session.stop === 'escalation') expect(session.entries).toEqual([]);
    expect(session.entries).toHaveLength(forks);
    if (/generic/.test(c.name)) expect(session.entries[0]).toMatch(/Persona: +none: no role could be synthesized/);
    if (forks > 0) expect(session.entries[0]).toMatch(/^## D1 — .*\(turn \d+, <ts>\)\nPersona:/);
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
      const parsed = JSON.parse(out) as { decision?: string; systemMessage?: string };
      if (posture === 'ask') expect(parsed.systemMessage).toMatch(/awaiting_human/);
      else expect(parsed.decision).toBe('block');
    }
    // The guard has no posture: under every spelling it denies the same push.
    const dir = join(work, `guard${n++}`);
    mkdirSync(join(dir, '.leopold'), { recursive: true });
    writeFileSync(join(dir, '.leopold', 'state.json'), JSON.stringify({ version: 1, active: true }));
    const push = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git push' }, cwd: dir });
    expect(runGuard(push, { env: { LEOPOLD_AUTONOMY: spelling }, processCwd: dir })).toMatch(/"permissionDecision":"deny"/);
  });
});

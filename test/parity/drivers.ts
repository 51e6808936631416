import { DEFAULT_GUARDRAILS } from '../../runtime/guardrails/defaults.js';
// The two engines, each driven through one parity case (test/parity/table.ts). The workflow
// engine runs the compiled script in the stand-in host, each attempt rendered as its agents'
// answers; the Stop-hook engine runs in a real .leopold/ (state through `leopold run
// start`'s function), and after each block a simulated session does what the attempt says
// through the real CLI functions (`leopold plan tick`, `leopold record`, filling the
// templates the hook's own block reason carries) and calls the hook again.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { recordDocument } from '../../compiler/cli/commands/record.js';
import { startRun } from '../../compiler/cli/commands/run.js';
import { tickPlan } from '../../compiler/cli/commands/plan.js';
import { renderDecision } from '../../runtime/decisions/render.js';
import type { DecisionInput } from '../../runtime/decisions/schema.js';
import type { AnswerScript, ScriptedAnswer } from '../../runtime/host/index.js';
import { runStopHook } from '../../runtime/hooks/stop/index.js';
import { runGuard } from '../../runtime/hooks/guard/index.js';
import { FINAL_REVIEW_MARKER, FORK_TEMPLATE_MARKER, PROTOCOL_MARKER, SIGNALS_MARKER } from '../../runtime/hooks/stop/reason.js';
import { charterRules } from '../../runtime/persona/index.js';
import { readState } from '../../runtime/state/index.js';
import { blockingFindings, eventsOfRun, FINAL_REVIEW_LABEL, finalFixText, foldJournal, reviewReport, type ReviewReport, type RunModel } from '../../runtime/run/index.js';
import { readAllEvents } from '../../runtime/decisions/events.js';
import { amendPlan } from '../../compiler/cli/commands/plan-amend.js';
import { parsePlan } from '../../runtime/plan/parse/index.js';
import { CHARTER, decisionsOf, eventsOf, finding, handoff, MISSION, persona, review, simulate, verdict } from '../workflow/harness.js';
import type { Attempt, Case, Decided, Fork } from './table.js';

/** The words the simulated session reports a fork it could not settle with. */
export const SESSION_QUESTION = 'no usable decision';

/** What a run comes to, as the parity assertions compare it. */
export interface EngineRun {
  dispatched: number[];
  stop: string;
  /** The stop's one-line detail, as the run's `stop` event records it. */
  detail: string;
  iteration: number;
  /** DECISIONS.md entries, rendered by the one writer, timestamps normalised. */
  entries: string[];
  /** The run model the engine ended with: the session's state.json, the workflow's journal folded. */
  model: RunModel;
  /** The report's review facts: each item's outcome label, and the final review's follow-ups. */
  review: ReviewReport;
  /** The `verified` receipts the run recorded, in order: item and commands. */
  verified: { item: number; commands: unknown }[];
}

/** The receipts in a run's events (docs/runtime.md, "Done means verified"). */
const receiptsIn = (events: readonly Record<string, unknown>[]) => events.filter((e) => e.event === 'verified').map((e) => ({ item: e.item as number, commands: e.commands }));

export const attemptOf = (c: Case, item: number, k: number): Attempt => {
  const list = c.attempts?.[item] ?? [{ ok: true }];
  return list[Math.min(k, list.length - 1)]!;
};

/** Review rounds per item (GUARDRAILS default): the cap's fix rounds and rulings depend on it. */
// The review round cap the cases run under: GUARDRAILS' default (the SDD protocol's 3).
const ROUNDS = DEFAULT_GUARDRAILS.maxReviewRounds;
const BLOCKING = finding('P0', true);
const ruling = (n: number, text: string, turn: number): DecisionInput & { item: number } => ({
  title: `Ruling: ${BLOCKING.severity} ${BLOCKING.type} in ${BLOCKING.file}:${BLOCKING.line} left open`,
  item: n,
  subject: text,
  class: 'reversible',
  charter: 'silent',
  decision: `Item ${n} stays open with this finding: ${BLOCKING.problem}`,
  why: `the review round cap (${ROUNDS}) was reached with the finding still blocking`,
  reversal: `Fix it: ${BLOCKING.fix}`,
  turn,
});

/** A fork's decision as an agent answers it (and, without `summary`, as a session records it). */
export const forkValue = (f: Fork) => ({
  title: f.title,
  class: f.irreversible ? 'irreversible' : 'reversible',
  charter: f.charter,
  decision: f.title.replace(/^\w+ (the )?/, ''),
  why: 'pragmatism: the smallest change that settles it',
  reversal: 'Revert the change and restore the previous choice.',
  summary: 'done',
});
const EMPTY = { title: '', class: 'reversible', charter: 'silent', decision: '', why: '', reversal: '', summary: '' };

/** The workflow's answer script for a case: the same attempts, as its agents' answers, in order per label. */
export function answersOf(c: Case, kindOf: (item: number) => string): AnswerScript {
  const queues = new Map<string, ScriptedAnswer[]>();
  const push = (label: string, ...answers: ScriptedAnswer[]) => queues.set(label, [...(queues.get(label) ?? []), ...answers]);
  const die = { die: true } as const;
  // An item that reports signals but has no scripted attempts passes on its first.
  const scripted: Record<string, Attempt[]> = { ...Object.fromEntries(Object.keys(c.signals ?? {}).map((key) => [key, [{ ok: true } as Attempt]])), ...c.attempts };
  for (const [key, attempts] of Object.entries(scripted)) {
    const id = `i${key}`;
    // The values this node reports in its structured answer (none: the schema's defaults).
    const signals = c.signals?.[Number(key)];
    const withSignals = (answer: { value: Record<string, unknown> }) => (signals ? { value: { ...answer.value, signals } } : answer);
    const accepted = (decisions?: Decided[], concerns?: string[]) => {
      const done = decisions || concerns ? { value: { ...handoff.completed.value, ...(decisions ? { decisions } : {}), ...(concerns ? { concerns } : {}) } } : handoff.completed;
      push(`${id}:implement`, withSignals(done));
      push(`${id}:verify`, verdict.pass);
      push(`${id}:review:correctness`, review());
    };
    for (const a of attempts) {
      if ('ok' in a) accepted(a.decisions, a.concerns);
      else if ('editAfterVerify' in a) accepted();
      else if ('fail' in a) {
        if (a.fail === 'verification') {
          push(`${id}:implement`, handoff.completed);
          push(`${id}:verify`, verdict.fail('2 failing'));
        } else if (a.fail === 'partial') push(`${id}:implement`, handoff.noTests);
        else if (a.fail === 'blocked') push(`${id}:implement`, handoff.blocked('too-big: split it first'));
        else {
          // A dead implementer charges a round; the last round's death fails the attempt.
          push(`${id}:implement`, die);
          for (let r = 1; r <= ROUNDS; r++) push(`${id}:fix:${r}`, die);
        }
      } else if ('gate' in a) push(`${id}:${kindOf(Number(key))}`, withSignals({ value: { verdict: a.gate, reasons: 'as scripted' } }));
      else if ('deadJudge' in a) push(`${id}:${kindOf(Number(key))}`, die, die);
      else if ('exit' in a) push(`${id}:tool`, withSignals({ value: { exit: a.exit, output: a.output ?? '' } }));
      else if ('human' in a) {
        push(`${id}:persona:human`, persona(a.human.role));
        push(`${id}:human`, withSignals({ value: forkValue(a.human) }));
      } else if ('unsettled' in a) {
        push(`${id}:persona:human`, persona('Release Engineer'));
        push(`${id}:human`, { value: EMPTY });
      } else if ('escalate' in a) {
        push(`${id}:implement`, handoff.blocked(`needs-confirm: ${a.escalate.title}?`));
        push(`${id}:persona:escalation`, persona(a.escalate.role));
        push(`${id}:escalation`, { value: forkValue(a.escalate) });
        if (!(a.escalate.irreversible && a.escalate.charter === 'silent')) accepted();
      } else if ('escalateUnsettled' in a) {
        push(`${id}:implement`, handoff.blocked('needs-confirm: which format?'));
        push(`${id}:persona:escalation`, persona('Data Modelling Lead'));
        push(`${id}:escalation`, { value: EMPTY });
      } else if ('needsPerson' in a) {
        push(`${id}:implement`, handoff.blocked(`${a.needsPerson}: ${a.question}`));
      } else if ('leftOpen' in a) {
        push(`${id}:implement`, handoff.completed);
        for (let r = 0; r <= ROUNDS; r++) {
          if (r > 0) push(`${id}:fix:${r}`, handoff.completed);
          push(`${id}:verify`, verdict.pass);
          push(`${id}:review:correctness`, review([BLOCKING]));
        }
      } else if ('feedback' in a) push(`${id}:feedback`, { value: { amendments: '', summary: 'nothing to add' } });
    }
  }
  for (const [key, r] of Object.entries(c.rescue ?? {})) {
    push(`i${key}:persona:repeated-failure`, persona(r.role));
    push(`i${key}:rescue`, { value: { approach: r.approach } });
  }
  if (c.final) push(FINAL_REVIEW_LABEL, review(finalFindings(c.final)));
  return [...queues].map(([label, answers]) => ({ label, answers }));
}

/** The final review's findings for a case: a P0 defect per `blocking`, a P2 docs finding per `follow-up`. */
export const finalFindings = (kinds: readonly ('blocking' | 'follow-up')[]) =>
  kinds.map((kind, k) => (kind === 'blocking' ? finding('P0', true, `the items disagree (${k + 1})`) : { ...finding('P2', false, `a stale comment (${k + 1})`), type: 'docs' }));

// Timestamps differ by engine and moment; everything else must not.
const normalise = (entry: string) => entry.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g, '<ts>').trim();

/** The workflow engine on one case. */
export async function workflowRun(c: Case): Promise<EngineRun> {
  const kinds = new Map<number, string>();
  c.plan.split('\n').filter((line) => /^- \[[ x]\]/.test(line)).forEach((line, i) => kinds.set(i + 1, /@(gate|verify)\b/.exec(line)?.[1] ?? 'work'));
  const s = await simulate(c.plan, { answers: answersOf(c, (i) => kinds.get(i) ?? 'work'), compile: { guardrails: c.guardrails ?? '' } });
  const events = eventsOf(s);
  const dispatched = events.filter((e) => e.event === 'turn').map((e) => e.item as number);
  const stop = events.find((e) => e.event === 'stop');
  // The writer lifts the persona's binding rules from CHARTER.md; render with the same ones.
  const rules = charterRules(CHARTER);
  const entries = (decisionsOf(s) as DecisionInput[]).map((d, i) => normalise(renderDecision(d, i + 1, new Date(0), rules)));
  // The plan as the run left it: items the final review added are appended, as `leopold plan amend` writes them.
  const added = events.filter((e) => e.event === 'amendments' && e.final === true).flatMap((e) => (e.accepted as string[]).map((raw) => `- [ ] ${raw.replace(/^ADD /, '')}\n`));
  const model = foldJournal(events, parsePlan(`${c.plan}${added.join('')}`, 'PLAN.md').items);
  const review = { outcomes: s.result.outcomes, followUps: s.result.followUps };
  return { dispatched, stop: s.result.stop, detail: String(stop?.detail ?? '(none)'), iteration: (stop?.iteration as number | undefined) ?? -1, entries, model, review, verified: receiptsIn(events) };
}

/**
 * The JSON line after `marker` in a block reason (or the protocol it refers to): the record
 * template the hook gave, with where it was made filled in as the turn names it (the item,
 * its text, the turn), as a session fills the protocol's templates.
 */
function templateIn(reason: string, marker: string, at: { item: number; turn: number; subject: string }): Record<string, unknown> {
  const from = reason.indexOf(marker);
  expect(from, `the block reason carries "${marker}"`).toBeGreaterThanOrEqual(0);
  const line = reason
    .slice(from)
    .split('\n')
    .find((l) => l.startsWith('{'))!
    .replace('<the item number>', String(at.item))
    .replace('<the turn number>', String(at.turn))
    .replace(`"<the item's text, as the turn names it>"`, JSON.stringify(at.subject));
  return JSON.parse(line) as Record<string, unknown>;
}

const FORK_PERSONA = FORK_TEMPLATE_MARKER;
const ESCALATION = 'is an escalation: synthesize the person best placed to decide it';
const DECISION = 'Record every decision you make on the user';
const MECHANICAL = 'One clearly right answer';
const NO_APPROACH = 'If there is no genuinely different approach';
const REPORT_ESCALATION = 'A fork nobody can settle is an escalation';
const REPORT_PERSON = 'What only a person may settle is never a persona';
const CONCERNS = 'Done but with concerns';
const RECORD_HOW_MARKER = 'Record every finding';
const VERIFIED = 'Verified (its tests pass after your last edit): record it';

/** A `.leopold/` with the test brief and this plan, and a session run started in it (`leopold run start`'s function). */
export async function startSession(leo: string, plan: string, guardrails: string): Promise<void> {
  mkdirSync(leo, { recursive: true });
  writeFileSync(join(leo, 'PLAN.md'), plan);
  writeFileSync(join(leo, 'MISSION.md'), MISSION);
  writeFileSync(join(leo, 'CHARTER.md'), CHARTER);
  writeFileSync(join(leo, 'GUARDRAILS.md'), guardrails);
  await startRun(leo, { engine: 'session', force: false });
}

/** The Stop-hook engine on one case, in `dir` (a fresh folder the caller removes). */
export async function sessionRun(c: Case, dir: string): Promise<EngineRun & { reasons: string[] }> {
  const leo = join(dir, '.leopold');
  await startSession(leo, c.plan, c.guardrails ?? '');
  const plan = join(leo, 'PLAN.md');
  const stdin = JSON.stringify({ session_id: 'p', cwd: dir, hook_event_name: 'Stop', stop_hook_active: true, background_tasks: [] });
  const dispatched: number[] = [];
  const reasons: string[] = [];
  let protocol = '';
  const attemptsSoFar = new Map<number, number>();
  const record = async (doc: unknown, ok = true) => {
    const out = await recordDocument(JSON.stringify(doc), dir);
    expect(out.ack, JSON.stringify(doc)).toMatchObject({ ok });
    return out.ack;
  };
  const withFork = (entry: Record<string, unknown>, f: Fork) => {
    const p = persona(f.role).value;
    const v = forkValue(f);
    return { ...entry, title: v.title, class: v.class, charter: v.charter, decision: v.decision, why: v.why, reversal: v.reversal, persona: { name: p.name, role: p.role, expertise: p.expertise } };
  };
  const decisionsIn = (doc: Record<string, unknown>) => doc.decisions as Record<string, unknown>[];
  // A work item's tests passed: the receipt the block asks for before the tick, with the commands the workflow's verifier reports.
  const verified = async (reason: string, n: number) => {
    const doc = templateIn(reason, VERIFIED, { item: n, turn: 0, subject: '' });
    await record({ events: (doc.events as Record<string, unknown>[]).map((e) => ({ ...e, commands: ['npm test'] })) });
  };
  const escalate = async (reason: string, n: number) =>
    record({ events: [{ ...(templateIn(reason, REPORT_ESCALATION, { item: n, turn: 0, subject: '' }).events as Record<string, unknown>[])[0], item: n, question: SESSION_QUESTION }] });

  for (let turn = 0; turn < 60; turn++) {
    if (c.killAfterTurns !== undefined && turn === c.killAfterTurns) writeFileSync(join(leo, 'STOP'), '');
    const out = await runStopHook(stdin, { env: {}, processCwd: dir });
    if (out.kind === 'silent') throw new Error('the hook printed nothing during an active run');
    if (out.kind !== 'block') break;
    reasons.push(out.reason);
    if (out.reason.startsWith(FINAL_REVIEW_MARKER)) {
      // The run's one final review: the findings from the block reason's template, and the fix item it says to add.
      expect(out.reason.slice(out.reason.indexOf(RECORD_HOW_MARKER))).toContain('{"events":[{"event":"final-review","findings":[{"severity":"<P0|P1|P2>"');
      const findings = finalFindings(c.final ?? []);
      await record({ events: [{ event: 'final-review', findings }] });
      const blocking = blockingFindings(findings);
      if (blocking.length > 0) {
        expect(out.reason).toContain('plan amend --json < .leopold/amend.md');
        await amendPlan(plan, `\`\`\`leopold-amend\nADD ${finalFixText(blocking)}\n\`\`\`\n`, 'feedback');
      }
      continue;
    }
    const n = Number(/Work on item (\d+) now/.exec(out.reason)![1]);
    const turnNo = Number(/Leopold run, turn (\d+) of/.exec(out.reason)![1]);
    const itemText = /Work on item \d+ now, and only on it: (.*)/.exec(out.reason)![1]!.replace(/^@\w+(?: \([^)]*\))? /, '');
    // The session keeps the run's protocol from the turn that carried it, as a model keeps it in context.
    if (out.reason.includes(PROTOCOL_MARKER)) protocol = out.reason.slice(out.reason.indexOf(PROTOCOL_MARKER));
    const reason = `${out.reason}\n\n${protocol}`;
    const template = (text: string, marker: string) => templateIn(text, marker, { item: n, turn: turnNo, subject: itemText });
    dispatched.push(n);
    if (/This is the run's one rescue/.test(reason)) {
      const r = c.rescue?.[n] ?? { role: 'Build Engineer', approach: 'another way' };
      if (r.approach === '' && !('silent' in r && r.silent)) {
        await record(template(reason, NO_APPROACH));
        continue;
      }
      if (r.approach !== '') {
        const p = persona(r.role).value;
        const doc = template(reason, FORK_PERSONA);
        await record({ decisions: decisionsIn(doc).map((e) => ({ ...e, decision: r.approach, persona: { name: p.name, role: p.role, expertise: p.expertise } })) });
      }
    }
    const k = attemptsSoFar.get(n) ?? 0;
    attemptsSoFar.set(n, k + 1);
    const a = attemptOf(c, n, k);
    if (c.subagents && 'ok' in a) {
      // The workflow's implement, verify and review, as subagents the session starts; a refusal ends the turn.
      const spawn = () => runGuard(JSON.stringify({ tool_name: 'Agent', tool_input: { description: 'a part of the item', prompt: '…' }, cwd: dir }), { env: {}, processCwd: dir });
      if ([0, 1, 2].some(() => spawn() !== '')) continue;
    }
    // The values the node chose for its `@emit` keys, reported with the block reason's own template.
    const chosen = c.signals?.[n];
    if (chosen) {
      const doc = template(reason, SIGNALS_MARKER);
      const filled = { events: (doc.events as Record<string, unknown>[]).map((e) => ({ ...e, values: chosen })) };
      await record(filled);
    }
    // The session does what the attempt says, exactly as the block reason tells it to.
    if ('ok' in a || 'feedback' in a) {
      if ('ok' in a && a.concerns) {
        const doc = template(reason, CONCERNS);
        await record({ events: (doc.events as Record<string, unknown>[]).map((e) => ({ ...e, concerns: a.concerns })) });
      }
      if ('feedback' in a) await record({ events: [{ event: 'amendments', item: n, proposals: '' }] });
      // Decisions made inside the item, from the protocol's templates, filled as the turn names them.
      for (const d of ('ok' in a ? a.decisions : undefined) ?? []) {
        const doc = template(reason, 'mechanical' in d ? MECHANICAL : DECISION);
        await record({ decisions: decisionsIn(doc).map((e) => ({ ...e, ...d })) });
      }
      if ('ok' in a) await verified(reason, n);
      await tickPlan(plan, String(n));
    } else if ('editAfterVerify' in a) {
      // Verified, then edited: the tick is refused (the tree is not the one verified), so the item is verified again.
      await verified(reason, n);
      writeFileSync(join(dir, 'count.js'), `export const edited = ${turnNo};\n`);
      const refused = await tickPlan(plan, String(n));
      expect(refused.ack.message).toMatch(new RegExp(`^item ${n} was edited after its last verification`));
      expect(refused.code).toBe(1);
      await verified(reason, n);
      expect((await tickPlan(plan, String(n))).code).toBe(0);
    } else if ('fail' in a) await record({ events: [{ event: 'failure', item: n, kind: a.fail, evidence: 'as scripted' }] });
    else if ('gate' in a || 'deadJudge' in a) {
      const verdictOf = 'gate' in a ? a.gate : 'fail';
      const kind = /@(gate|verify)\b/.exec(reason)![1];
      await record({ events: [{ event: kind, item: n, verdict: verdictOf, reasons: 'as scripted' }] });
      if (verdictOf === 'pass') await tickPlan(plan, String(n));
    } else if ('exit' in a) {
      await record({ events: [{ event: 'tool', item: n, command: 'npm test', exit: a.exit, output: a.output ?? '' }] });
      if (a.exit === 0) await tickPlan(plan, String(n));
    } else if ('human' in a || 'escalate' in a) {
      const f = 'human' in a ? a.human : a.escalate;
      const doc = template(reason, 'human' in a ? FORK_PERSONA : ESCALATION);
      const filled = { decisions: decisionsIn(doc).map((e) => withFork(e, f)) };
      expect(JSON.stringify(filled)).not.toMatch(/"<[^"]*>"/);
      const stopAndAsk = f.irreversible === true && f.charter === 'silent';
      // An irreversible decision on a silent charter is refused, and the refusal records the escalation itself.
      await record(filled, !stopAndAsk);
      if (!stopAndAsk && 'escalate' in a) await verified(reason, n);
      if (!stopAndAsk) await tickPlan(plan, String(n));
    } else if ('unsettled' in a || 'escalateUnsettled' in a) {
      const doc = template(reason, 'unsettled' in a ? FORK_PERSONA : ESCALATION);
      const empty = { decisions: decisionsIn(doc).map((e) => ({ ...e, title: 'Approve it', class: 'reversible', charter: 'silent', decision: '', why: '', reversal: '', persona: null })) };
      const refused = await record(empty, false);
      expect(refused).toMatchObject({ error: expect.stringMatching(/nobody made it/) });
      await escalate(reason, n);
    } else if ('needsPerson' in a) {
      const doc = templateIn(reason, REPORT_PERSON, { item: n, turn: turnNo, subject: itemText });
      const [entry] = doc.events as Record<string, unknown>[];
      await record({ events: [{ ...entry, reason: a.needsPerson, question: a.question }] });
    } else if ('leftOpen' in a) {
      const text = /Work on item \d+ now, and only on it: (.*)/.exec(reason)![1]!;
      const doc = template(reason, DECISION);
      await record({ decisions: decisionsIn(doc).map((e) => ({ ...e, ...ruling(n, text, turnNo) })) });
      await record({ events: [{ event: 'item-open', item: n, reason: 'review round cap reached' }] });
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
    .split(/\n(?=## D\d|- D\d+ mechanical)/)
    .slice(1)
    .map((e) => normalise(e));
  const logged = readFileSync(join(leo, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const stopEvent = logged.findLast((e) => e.event === 'stop');
  const review = reviewReport(eventsOfRun(readAllEvents(leo)));
  return { dispatched, stop: state.stop_reason ?? '(none)', detail: String(stopEvent?.detail ?? '(none)'), iteration: state.iteration, entries, reasons, model: state, review, verified: receiptsIn(logged) };
}

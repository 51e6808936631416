import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { amendPlan } from '../../compiler/cli/commands/plan-amend.js';
import { recordDocument } from '../../compiler/cli/commands/record.js';
import { tickPlan } from '../../compiler/cli/commands/plan.js';
import { renderDecision } from '../../runtime/decisions/render.js';
import type { DecisionInput } from '../../runtime/decisions/schema.js';
import { FINAL_REVIEW_MARKER } from '../../runtime/hooks/stop/reason.js';
import { runStopHook } from '../../runtime/hooks/stop/index.js';
import { charterRules } from '../../runtime/persona/index.js';
import { readState } from '../../runtime/state/index.js';
import { CHARTER, decisionsOf, eventsOf, persona, simulate } from '../workflow/harness.js';
import { startSession } from './drivers.js';

// The runtime deadlock repair on both engines. Compile refuses a plan whose items can never
// be ready, so a run meets a deadlock only when its plan changed under it: the workflow's
// embedded plan is edited here, the session's PLAN.md is written stuck. Items 1 and 2 route
// into each other, so once item 3 is done nothing can run; the repair re-points item 1's
// route at item 3, which frees item 2, whose route then dispatches item 1.

const VALID = '- [ ] Write the schema {#a}\n  @on ok -> #c\n- [ ] Write the loader {#b}\n  @on ok -> #a\n- [ ] Write the docs {#c}\n';
const STUCK = VALID.replace('@on ok -> #c', '@on ok -> #b');
const REPAIR = { role: 'Build Engineer', proposal: 'ROUTE 1 ok -> 3' };
const ENTRY = {
  title: `Repaired a deadlock: ${REPAIR.proposal}`,
  fork: 'deadlock' as const,
  item: 1,
  subject: 'Write the schema',
  class: 'reversible' as const,
  charter: 'silent',
  decision: `Applied 1 bounded change to PLAN.md: ${REPAIR.proposal}.`,
  why: 'items 1, 2 waited on each other and the run could not go on; the repair passed every amendment bound (completeness, bias to action). Budget used: 1 of 3.',
  reversal: `In .leopold/PLAN.md, point item 1's "ok" route back to item 2.`,
  turn: 0,
};
const block = (lines: string) => `\`\`\`leopold-amend\n${lines}\n\`\`\`\n`;
const normalise = (entry: string) => entry.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g, '<ts>').trim();

const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-deadlock-')));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;

/** The workflow, its embedded plan made stuck the same way. */
async function workflow(amendments: string) {
  const tamper = (script: string) => script.replace('"routes":[{"when":"ok","kind":"status","target":3}]', '"routes":[{"when":"ok","kind":"status","target":2}]');
  const s = await simulate(VALID, {
    tamper,
    answers: [
      { label: 'i1:persona:repair', answers: [persona(REPAIR.role)] },
      { label: 'i1:repair', answers: [{ value: { amendments, summary: 'rerouted' } }] },
    ],
  });
  const events = eventsOf(s);
  const rules = charterRules(CHARTER);
  return {
    dispatched: events.filter((e) => e.event === 'turn').map((e) => e.item),
    stop: s.result.stop,
    amends: s.scribe.flatMap((b) => b.amends.map((a) => a.command)),
    entries: (decisionsOf(s) as DecisionInput[]).map((d, i) => normalise(renderDecision(d, i + 1, new Date(0), rules))),
  };
}

/** The Stop hook, PLAN.md stuck; the session answers the repair block through the real CLI functions. */
async function session(amendments: string) {
  const dir = join(work, `s${n++}`);
  const leo = join(dir, '.leopold');
  await startSession(leo, STUCK, '');
  const stdin = JSON.stringify({ session_id: 'p', cwd: dir, hook_event_name: 'Stop' });
  const dispatched: number[] = [];
  for (let turn = 0; turn < 20; turn++) {
    const out = await runStopHook(stdin, { env: {}, processCwd: dir });
    if (out.kind !== 'block') break;
    const reason = out.reason;
    if (/the plan is stuck/.test(reason)) {
      expect(reason).toMatch(/plan amend --context runtime --json < \.leopold\/amend\.md/);
      const ack = await amendPlan(join(leo, 'PLAN.md'), amendments, 'runtime');
      if (!ack.ack.ok) continue; // nothing applied: record nothing, end the turn
      const p = persona(REPAIR.role).value;
      const out = await recordDocument(JSON.stringify({ decisions: [{ ...ENTRY, turn: readState(leo).state!.iteration, persona: { name: p.name, role: p.role, expertise: p.expertise } }] }), dir);
      expect(out.ack).toMatchObject({ ok: true });
      continue;
    }
    if (reason.startsWith(FINAL_REVIEW_MARKER)) {
      // The run's one final review, after the repaired plan's last item: nothing found.
      expect((await recordDocument(JSON.stringify({ events: [{ event: 'final-review', findings: [] }] }), dir)).ack).toMatchObject({ ok: true });
      continue;
    }
    const item = Number(/Work on item (\d+) now/.exec(reason)![1]);
    dispatched.push(item);
    // Done means verified: the receipt first, then the tick (the tick refuses an item without one).
    expect((await recordDocument(JSON.stringify({ events: [{ event: 'verified', item, commands: ['npm test'] }] }), dir)).ack).toMatchObject({ ok: true });
    await tickPlan(join(leo, 'PLAN.md'), String(item));
  }
  let trail = '';
  try {
    trail = readFileSync(join(leo, 'DECISIONS.md'), 'utf8');
  } catch {
    // none
  }
  return { dispatched, stop: readState(leo).state!.stop_reason, plan: readFileSync(join(leo, 'PLAN.md'), 'utf8'), entries: trail.split(/\n(?=## D\d)/).slice(1).map(normalise) };
}

describe('the runtime deadlock repair, on both engines', () => {
  it('a bounded ROUTE unsticks the plan: the same dispatches, the same deadlock entry, PLAN.md repaired through plan amend --context runtime', async () => {
    const s = await session(block(REPAIR.proposal));
    const w = await workflow(block(REPAIR.proposal));
    expect(s).toMatchObject({ dispatched: [3, 2, 1], stop: 'plan_complete' });
    expect(s.plan).toBe(STUCK.replace('@on ok -> #b', '@on ok -> 3').replace(/- \[ \]/g, '- [x]'));
    expect({ dispatched: w.dispatched, stop: w.stop }).toEqual({ dispatched: s.dispatched, stop: s.stop });
    expect(w.amends).toEqual([expect.stringMatching(/plan amend --base64 \S+ --context runtime --json$/)]);
    expect(w.entries).toEqual(s.entries);
    expect(s.entries[0]).toMatch(/Persona: +Ada Park — Build Engineer/);
    expect(s.entries[0]).toMatch(/Fork: +deadlock — item 1: "Write the schema"/);
  });

  it('a repair the bounds refuse changes nothing, and the run stops with deadlock (asked once)', async () => {
    const refused = block('DELETE 2');
    const s = await session(refused);
    const w = await workflow(refused);
    expect(s).toMatchObject({ dispatched: [3], stop: 'deadlock', plan: STUCK.replace('- [ ] Write the docs', '- [x] Write the docs'), entries: [] });
    expect({ dispatched: w.dispatched, stop: w.stop, entries: w.entries, amends: w.amends }).toEqual({ dispatched: [3], stop: 'deadlock', entries: [], amends: [] });
  });
});

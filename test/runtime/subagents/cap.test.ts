import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderStatus, startRun } from '../../../compiler/cli/commands/run.js';
import { readState } from '../../../runtime/state/index.js';
import { runGuard } from '../../../runtime/hooks/guard/index.js';
import { runStopHook } from '../../../runtime/hooks/stop/index.js';
import { foldJournal, initialModel, reduce, subagentCap } from '../../../runtime/run/index.js';
import { RunModelSchema } from '../../../runtime/run/schema.js';
import { foldEvent, noEventFacts } from '../../../runtime/watch/model.js';
import { blockOf } from '../../support/stop-output.js';
import { tempDir } from '../../support/temp.js';
import { eventsOf, finding, review, simulate } from '../../workflow/harness.js';

// The subagent cap (GUARDRAILS max_subagents / max_subagents_per_run, docs/guardrails.md):
// one count in the run model, one check before a spawn, the same stop in both engines.

const limits = { maxSubagents: 2, maxSubagentsPerRun: 3 };
const spawned = (item: number | null, count = 1) => (m: ReturnType<typeof initialModel>) => reduce(m, { type: 'subagents', item, count }, []);

describe('the kernel: counts and the cap', () => {
  it('counts per item and per run; a state without the count reads as zero', () => {
    const m = [spawned(1), spawned(1), spawned(2), spawned(null)].reduce((model, step) => step(model), initialModel());
    expect(m.subagents).toEqual({ total: 4, by_item: { '1': 2, '2': 1 } });
    expect(RunModelSchema.parse({}).subagents).toEqual({ total: 0, by_item: {} });
    expect(RunModelSchema.parse({}).subagents).toEqual(initialModel().subagents);
  });

  it('refuses the spawn past the item cap, then past the run cap, never before', () => {
    let m = initialModel();
    expect(subagentCap(m, limits, 1)).toBeNull();
    m = spawned(1, 2)(m);
    expect(subagentCap(m, limits, 1)).toMatchObject({ reason: 'subagent_cap', detail: expect.stringContaining('item 1 has started 2 subagents, the cap (max_subagents: 2)') });
    expect(subagentCap(m, limits, 2)).toBeNull();
    m = spawned(2)(m);
    expect(subagentCap(m, limits, 2)).toMatchObject({ reason: 'subagent_cap', detail: expect.stringContaining('max_subagents_per_run: 3') });
    expect(subagentCap(m, limits, null)).toMatchObject({ reason: 'subagent_cap' });
    expect(subagentCap(m, {}, 1)).toBeNull();
  });

  it('a refused spawn halts the run with subagent_cap; the journal folds both events back', () => {
    const events = [
      { type: 'subagents', item: 1, count: 2 },
      { type: 'subagent-cap', item: 1, detail: 'item 1 has started 2 subagents' },
    ] as const;
    const m = events.reduce((model, event) => reduce(model, event, []), initialModel());
    expect(m.halt).toEqual({ reason: 'subagent_cap', item: 1, detail: 'item 1 has started 2 subagents' });
    const folded = foldJournal(events.map((run) => ({ event: 'run', run })), []);
    expect(folded.subagents).toEqual(m.subagents);
    expect(folded.halt).toEqual(m.halt);
  });

  it('the watch counts a session spawn as one and a workflow journal line as its count', () => {
    const lines = [{ event: 'subagent', item: 1 }, { event: 'run', run: { type: 'subagents', item: 2, count: 3 } }, { event: 'run', run: { type: 'dispatched', item: 2, done: 0 } }];
    expect(lines.reduce(foldEvent, noEventFacts()).agents).toBe(4);
  });
});

describe('the workflow engine', () => {
  const PLAN = '# Plan\n\n- [ ] Count words\n- [ ] (after: 1) Add --json\n';

  it('stops with subagent_cap at the item agent past max_subagents; the scribe is not counted and records the stop', async () => {
    const s = await simulate(PLAN, { compile: { guardrails: 'max_subagents: 2\n' } });
    expect(s.result.stop).toBe('subagent_cap');
    expect(s.result.detail).toMatch(/^item 1 has started 2 subagents, the cap \(max_subagents: 2\)/);
    // implement and verify ran; the reviewer was refused; the scribe recorded the stop.
    expect(s.labels).toEqual(['i1:implement', 'i1:verify', 'scribe']);
    const events = eventsOf(s);
    expect(events).toContainEqual({ event: 'run', run: { type: 'subagents', item: 1, count: 2 } });
    expect(events.at(-1)).toMatchObject({ event: 'stop', reason: 'subagent_cap', iteration: 1 });
  });

  it('stops with subagent_cap when the run reaches max_subagents_per_run, across items', async () => {
    const s = await simulate(PLAN, { compile: { guardrails: 'max_subagents_per_run: 4\n' } });
    expect(s.result.stop).toBe('subagent_cap');
    expect(s.result.done).toBe(1);
    expect(s.result.detail).toMatch(/the run has started 4 subagents, the cap \(max_subagents_per_run: 4\)/);
    expect(s.labels.filter((l) => l !== 'scribe')).toEqual(['i1:implement', 'i1:verify', 'i1:review:correctness', 'i2:implement']);
  });

  it('max_subagents_per_run left unset follows max_iterations: 40 subagents an iteration, never fewer than one item may start', async () => {
    // Reviewers that always find a blocking defect, with review rounds to spare: each item
    // starts agents until its rounds run out (about 60), then the next item starts.
    const plan = '# Plan\n\n- [ ] Count words\n- [ ] Count lines\n- [ ] Count bytes\n';
    const blocked = [{ label: '/^i\\d+:review:correctness$/', answers: [review([finding('P1', true)])], once: false }];
    const capped = await simulate(plan, { compile: { guardrails: 'max_iterations: 3\nmax_review_rounds: 20\n' }, answers: blocked });
    expect(capped.result.stop).toBe('subagent_cap');
    expect(capped.result.detail).toMatch(/the run has started 120 subagents, the cap \(max_subagents_per_run: 120\)/);
    // One iteration: the cap is what one item may start (max_subagents, 100), not 40.
    const one = await simulate(plan, { compile: { guardrails: 'max_iterations: 1\nmax_review_rounds: 40\n' }, answers: blocked });
    expect(one.result.detail).toMatch(/item 1 has started 100 subagents, the cap \(max_subagents: 100\)/);
  });

  it('never stops a run at the defaults', async () => {
    const s = await simulate(PLAN);
    expect(s.result.stop).toBe('plan_complete');
    const counts = eventsOf(s).flatMap((e) => (e.event === 'run' && (e.run as { type: string }).type === 'subagents' ? [e.run] : []));
    expect(counts).toEqual([
      { type: 'subagents', item: 1, count: 3 },
      { type: 'subagents', item: 2, count: 3 },
    ]);
  });
});

describe('the session engine: the guard counts Agent/Task calls, the Stop hook stops the run', () => {
  async function session(guardrails: string) {
    const root = tempDir('leopold-subagents-');
    const leo = join(root, '.leopold');
    mkdirSync(leo);
    writeFileSync(join(leo, 'PLAN.md'), '- [ ] First thing\n- [ ] Second thing\n');
    writeFileSync(join(leo, 'GUARDRAILS.md'), guardrails);
    await startRun(leo, { engine: 'session', force: false });
    const transcript = join(root, 'transcript.jsonl');
    writeFileSync(transcript, '{"type":"user"}\n');
    const stop = () => runStopHook(JSON.stringify({ session_id: 's1', transcript_path: transcript, cwd: root, hook_event_name: 'Stop', background_tasks: [] }), { env: {}, processCwd: root });
    const spawn = (tool = 'Agent', session = 's1') =>
      runGuard(JSON.stringify({ session_id: session, tool_name: tool, tool_input: { description: 'explore', prompt: 'look around' }, cwd: root }), { env: {}, processCwd: root });
    const events = () => readFileSync(join(leo, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const state = () => JSON.parse(readFileSync(join(leo, 'state.json'), 'utf8')) as Record<string, unknown>;
    return { root, leo, stop, spawn, events, state };
  }

  it('counts Agent and Task calls for the item handed out, denies the one past max_subagents, and the next Stop ends the run with subagent_cap', async () => {
    const s = await session('- max_subagents: 2\n');
    // Between items (before the first block) the guard has no opinion and counts nothing.
    expect(s.spawn()).toBe('');
    expect(blockOf(await s.stop())).toMatch(/item 1/);
    expect(s.spawn('Agent')).toBe('');
    expect(s.spawn('Task')).toBe('');
    const denied = JSON.parse(s.spawn('Agent')) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    expect(denied.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(denied.hookSpecificOutput.permissionDecisionReason).toMatch(/item 1 has started 2 subagents, the cap \(max_subagents: 2\).*subagent_cap/);
    expect(s.events().filter((e) => e.event === 'subagent' || e.event === 'subagent-cap').map((e) => [e.event, e.item])).toEqual([
      ['subagent', 1],
      ['subagent', 1],
      ['subagent-cap', 1],
    ]);
    const answer = await s.stop();
    expect(answer.kind).toBe('message');
    expect(s.state()).toMatchObject({ active: false, stop_reason: 'subagent_cap', subagents: { total: 2, by_item: { '1': 2 } } });
    expect(s.events().at(-1)).toMatchObject({ event: 'stop', reason: 'subagent_cap', iteration: 1 });
    expect(renderStatus(readState(s.leo), false)).toMatch(/stop reason: subagent_cap\n[^]*· subagents: 2 \(most: item 1, 2\)\n/);
  });

  it("another session's Agent calls are not the run's: neither counted nor refused; the owner's still are", async () => {
    const s = await session('- max_subagents: 1\n');
    expect(blockOf(await s.stop())).toMatch(/item 1/);
    expect(s.state()).toMatchObject({ owner: { session: 's1' } });
    expect([s.spawn('Agent', 's2'), s.spawn('Task', 's2'), s.spawn('Agent', 's2')]).toEqual(['', '', '']);
    expect(s.events().filter((e) => e.event === 'subagent' || e.event === 'subagent-cap')).toEqual([]);
    expect(s.spawn('Agent', 's1')).toBe('');
    expect(s.spawn('Agent', 's1')).toMatch(/"deny"/);
  });

  it('keeps the run count across items: max_subagents_per_run stops the second item', async () => {
    const s = await session('- max_subagents_per_run: 3\n');
    await s.stop();
    expect([s.spawn(), s.spawn()]).toEqual(['', '']);
    // Item 1 done: the next Stop folds its two spawns and hands out item 2.
    writeFileSync(join(s.leo, 'PLAN.md'), '- [x] First thing\n- [ ] Second thing\n');
    expect(blockOf(await s.stop())).toMatch(/item 2/);
    expect(s.state()).toMatchObject({ subagents: { total: 2, by_item: { '1': 2 } } });
    expect(s.spawn()).toBe('');
    expect(s.spawn()).toMatch(/"deny"/);
    await s.stop();
    expect(s.state()).toMatchObject({ active: false, stop_reason: 'subagent_cap' });
  });
});

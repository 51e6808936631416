import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtLeopold } from '../compile/harness.js';
import { eventsOf, simulate, ticksOf } from './harness.js';
import { PROJECT_CLI } from '../../runtime/project-cli/index.js';
import { tempDir } from '../support/temp.js';

const amendBlock = (...lines: string[]) => `\`\`\`leopold-amend\n${lines.join('\n')}\n\`\`\``;
const feedback = (...lines: string[]) => ({ value: { amendments: lines.length === 0 ? '' : amendBlock(...lines), summary: 'looked at the run' } });
const work = (n: number) => [`i${n}:implement`, `i${n}:verify`, `i${n}:review:correctness`, 'scribe'];

/**
 * Runs the exact scribe command through `sh -c`, as the scribe would, from a subdirectory
 * of a temp project holding `plan` (inside an active workflow run) whose own install is the
 * built binary, with no `leopold` on PATH.
 */
async function runScribeCommand(plan: string, command: string) {
  const { bin } = await builtLeopold();
  const root = tempDir('leopold feedback ');
  mkdirSync(join(root, '.leopold'));
  mkdirSync(join(root, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(bin, join(root, 'node_modules', '.bin', 'leopold'));
  writeFileSync(join(root, '.leopold', 'PLAN.md'), plan);
  writeFileSync(join(root, '.leopold', 'state.json'), `${JSON.stringify({ version: 1, active: true, engine: 'workflow' })}\n`);
  expect(command.startsWith(`${PROJECT_CLI} `)).toBe(true);
  const env = { CLAUDE_PROJECT_DIR: root, PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, LEOPOLD_AUTONOMY: '' };
  const amended = spawnSync('/bin/sh', ['-c', command], { cwd: root, encoding: 'utf8', env });
  const graph = spawnSync(process.execPath, [bin, 'graph', '--json'], { cwd: root, encoding: 'utf8', env });
  return { code: amended.status, ack: JSON.parse(amended.stdout) as unknown, nodes: (JSON.parse(graph.stdout) as { nodes: { index: number; text: string; deps: number[]; kind: string }[] }).nodes };
}

describe('@feedback nodes', () => {
  const PLAN = '# Plan\n\n- [ ] Build the flag {#build}\n- [ ] (after: #build) @feedback Collect what the run learned\n- [ ] (after: #build) Ship it\n';

  it('an accepted ADD goes to the scribe as the exact leopold plan amend command, and the added item is then implemented and ticked', async () => {
    const s = await simulate(PLAN, { answers: [{ label: 'i2:feedback', answers: [feedback('ADD (after: 3) Document the new flag')] }] });
    expect(s.labels).toEqual([...work(1), 'i2:feedback', 'scribe', ...work(3), ...work(4), 'final:review', 'scribe']);
    expect(s.run.phases).toEqual(['Stage 1', 'Stage 2', 'Stage 3']);

    // The feedback node's scribe call: the record, the amendment, then its own tick.
    const batch = s.scribe[1]!;
    const answer = '```leopold-amend\nADD (after: 3) Document the new flag\n```\n';
    expect(batch.amends).toEqual([{ command: `${PROJECT_CLI} plan amend --base64 ${Buffer.from(answer).toString('base64')} --json`, answer }]);
    expect(batch.ticks).toEqual([2]);
    const call = s.run.journal.filter((c) => c.label === 'scribe')[1]!;
    expect(call.prompt.indexOf('leopold record')).toBeLessThan(call.prompt.indexOf('leopold plan amend'));
    expect(call.prompt.indexOf('leopold plan amend')).toBeLessThan(call.prompt.indexOf('leopold plan tick 2'));
    expect(call.options.schema).toMatchObject({ properties: { added: { const: [4] } }, required: expect.arrayContaining(['added']) });
    expect(batch.record!.events!.filter((e) => e.event !== 'run')).toEqual([
      { event: 'turn', item: 2, iteration: 2 },
      { event: 'amendments', item: 2, accepted: ['ADD (after: 3) Document the new flag'], refused: [], added: [4] },
    ]);

    // The added item runs like any other, after its dependency, and is ticked.
    const implement = s.run.journal.find((c) => c.label === 'i4:implement')!;
    expect(implement.prompt).toContain('Document the new flag');
    expect(implement.options.effort).toBe('medium');
    expect(ticksOf(s)).toEqual([1, 2, 3, 4]);
    expect(s.result).toMatchObject({ stop: 'plan_complete', done: 4, total: 4, incomplete: [] });
    expect(eventsOf(s).at(-1)).toMatchObject({ event: 'stop', reason: 'plan_complete', done: 4, total: 4 });

    // The command the scribe runs really appends that item to PLAN.md, with the index the run used.
    const disk = await runScribeCommand(PLAN, batch.amends[0]!.command);
    expect(disk.code).toBe(0);
    expect(disk.ack).toEqual({ ok: true, added: [4], rewritten: [], used: 1 });
    expect(disk.nodes.at(-1)).toMatchObject({ index: 4, text: 'Document the new flag', deps: [3], kind: 'work' });
  });

  it('a 4th change in the run is refused add-budget by the workflow itself: no amend command, the run goes on', async () => {
    const plan = '- [ ] Build\n- [ ] (after: 1) @feedback First look\n- [ ] (after: 2) @feedback Second look\n';
    const s = await simulate(plan, {
      answers: [
        { label: 'i2:feedback', answers: [feedback('ADD (after: 1) Add tests', 'ADD Write docs', 'ADD (after: 4) Add a benchmark')] },
        { label: 'i3:feedback', answers: [feedback('ADD Polish the README')] },
      ],
    });
    expect(s.labels).toEqual([...work(1), 'i2:feedback', 'scribe', 'i3:feedback', 'scribe', ...work(4), ...work(5), ...work(6), 'final:review', 'scribe']);
    expect(s.scribe[1]!.amends.map((a) => a.answer)).toEqual(['```leopold-amend\nADD (after: 1) Add tests\nADD Write docs\nADD (after: 4) Add a benchmark\n```\n']);
    expect(s.scribe[2]!.amends).toEqual([]);
    expect(s.run.journal.find((c) => c.label === 'i3:feedback')!.prompt).toContain('This run has no plan changes left');
    expect(eventsOf(s).filter((e) => e.event === 'amendments')).toEqual([
      { event: 'amendments', item: 2, accepted: ['ADD (after: 1) Add tests', 'ADD Write docs', 'ADD (after: 4) Add a benchmark'], refused: [], added: [4, 5, 6] },
      {
        event: 'amendments',
        item: 3,
        accepted: [],
        refused: [{ proposal: 'ADD Polish the README', code: 'add-budget', detail: "the run's 3 plan changes are spent (3 earlier this run, 0 in this batch)" }],
        added: [],
      },
    ]);
    expect(ticksOf(s)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(s.result).toMatchObject({ stop: 'plan_complete', done: 6, total: 6, incomplete: [] });
  });

  it('a failed amend ack stops the run with scribe_failed and the added item is not run', async () => {
    const s = await simulate(PLAN, {
      answers: [
        { label: 'i2:feedback', answers: [feedback('ADD (after: 3) Document the new flag')] },
        {
          label: 'scribe',
          answers: [
            { value: { ok: true, numbers: [] } },
            { value: { ok: false, numbers: [], added: [4], error: 'leopold plan amend: {"ok":false,"error":"1 of 1 proposal refused"}' } },
          ],
          once: true,
        },
      ],
    });
    expect(s.labels).toEqual([...work(1), 'i2:feedback', 'scribe']);
    expect(s.result).toMatchObject({ stop: 'scribe_failed', done: 1, total: 3, incomplete: [2, 3] });
    expect(s.result.detail).toContain('the scribe reported a failure: leopold plan amend');
    expect(s.result.detail).toContain('leopold plan amend --base64 ');
  });

  it('no proposals: no amend command, nothing added', async () => {
    const s = await simulate(PLAN);
    expect(s.labels).toEqual([...work(1), 'i2:feedback', 'scribe', ...work(3), 'final:review', 'scribe']);
    expect(s.scribe.flatMap((b) => b.amends)).toEqual([]);
    expect(s.run.journal.find((c) => c.label === 'scribe' && c.prompt.includes('tick 2'))!.options.schema).not.toHaveProperty('properties.added.const');
    expect(s.result).toMatchObject({ stop: 'plan_complete', done: 3, total: 3 });
  });
});

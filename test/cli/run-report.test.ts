import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { finishRun, renderStatus, startRun } from '../../compiler/cli/commands/run.js';
import { appendDecisions, recordEvents, type DecisionInput, type EventInput } from '../../runtime/decisions/index.js';
import { runStopHook } from '../../runtime/hooks/stop/index.js';
import { messageOf } from '../support/stop-output.js';
import { readState } from '../../runtime/state/index.js';
import { CHARTER, decision, decisionsOf, eventsOf, MISSION, persona, simulate, verdict } from '../workflow/harness.js';

// The final report names what stopped the run and what is left, with the run's real
// counters: for a workflow run those live only in the events its scribe logged.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-report-')));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;

function brief(plan: string, guardrails = ''): string {
  const leo = join(work, `p${n++}`, '.leopold');
  mkdirSync(leo, { recursive: true });
  writeFileSync(join(leo, 'PLAN.md'), plan);
  writeFileSync(join(leo, 'MISSION.md'), MISSION);
  writeFileSync(join(leo, 'CHARTER.md'), CHARTER);
  writeFileSync(join(leo, 'GUARDRAILS.md'), guardrails);
  return leo;
}

const PLAN = '- [ ] Count words\n- [ ] (after: 1) @human Approve the production cutover\n- [ ] (after: 2) Publish the notes\n';

describe('leopold run finish after a workflow run', () => {
  it('shows the real iterations, failures and rescue, and names the item and the remaining items', async () => {
    // A real simulated run: item 1 fails verification three times, is rescued and passes;
    // item 2's @human answer decides nothing, so the run stops with escalation.
    const s = await simulate(PLAN, {
      answers: [
        { label: 'i1:verify', answers: [verdict.fail('2 failing'), verdict.fail('2 failing'), verdict.fail('2 failing'), verdict.pass] },
        { label: 'i1:persona:repeated-failure', answers: [persona('Build Engineer')] },
        { label: 'i1:rescue', answers: [{ value: { approach: 'split the suite' } }] },
        { label: 'i2:human', answers: [decision({ decision: '' })] },
      ],
    });
    expect(s.result.stop).toBe('escalation');
    const leo = brief(PLAN.replace('- [ ] Count', '- [x] Count'));
    await startRun(leo, { engine: 'workflow', force: false });
    // What the scribe wrote through `leopold record`.
    await appendDecisions(leo, decisionsOf(s) as DecisionInput[]);
    await recordEvents(leo, eventsOf(s) as EventInput[]);

    const finished = (await finishRun(leo, null))!;
    const lines = finished.summary.split('\n');
    expect(lines[0]).toBe('Leopold run ended: escalation');
    expect(lines[1]).toBe('Engine: workflow · iterations: 5 · failures: 3 (verification: 3) · rescue used: yes · plan changes: 0/3');
    expect(lines[2]).toMatch(/^Why: item 2 \("Approve the production cutover"\): the answer at the human fork is unusable \(it names no decision\)/);
    expect(lines.slice(3, 5)).toEqual(['Plan: 1/3 items done', 'Remaining: 2 ("Approve the production cutover"), 3 ("Publish the notes")']);
    expect(finished.summary).toContain('  1. [repeated-failure] Ada Park — Build Engineer (D1): split the suite');
    // state.json keeps what the report showed.
    expect(readState(leo).state).toMatchObject({ active: false, stop_reason: 'escalation', iteration: 5, failures: { verification: 3 }, rescue_used: true });
  });

  it('refuses --reason plan_complete while items remain, and writes nothing', async () => {
    const leo = brief(PLAN.replace('- [ ] Count', '- [x] Count'));
    await startRun(leo, { engine: 'workflow', force: false });
    const before = readFileSync(join(leo, 'state.json'), 'utf8');
    await expect(finishRun(leo, 'plan_complete')).rejects.toThrow('--reason plan_complete: 1 of 3 items are done; items 2, 3 remain');
    expect(readFileSync(join(leo, 'state.json'), 'utf8')).toBe(before);
    writeFileSync(join(leo, 'PLAN.md'), PLAN.replace(/- \[ \]/g, '- [x]'));
    expect((await finishRun(leo, 'plan_complete'))!.summary).toMatch(/^Leopold run ended: plan_complete\n/);
  });
});

describe('the Stop hook final report', () => {
  it('awaiting_human names the item and the remaining items', async () => {
    const leo = brief(PLAN.replace('- [ ] Count', '- [x] Count'), '- autonomy: ask\n');
    await startRun(leo, { engine: 'session', force: false });
    const stdin = JSON.stringify({ session_id: 's', cwd: join(leo, '..'), hook_event_name: 'Stop' });
    const out = { systemMessage: messageOf(await runStopHook(stdin, { env: {}, processCwd: join(leo, '..') })) };
    expect(out.systemMessage.split('\n')).toEqual([
      'Leopold run ended: awaiting_human',
      'Engine: session · iterations: 0 · failures: 0 · rescue used: no · plan changes: 0/3',
      'Why: item 2 ("Approve the production cutover") is a @human node and autonomy is ask',
      'Plan: 1/3 items done',
      'Remaining: 2 ("Approve the production cutover"), 3 ("Publish the notes")',
    ]);
  });
});

describe('leopold run status', () => {
  it('says "Failures: none" rather than {}, and lists failures by kind', async () => {
    const leo = brief(PLAN);
    await startRun(leo, { engine: 'session', force: false });
    const reading = readState(leo);
    expect(renderStatus(reading, false)).toContain('Failures: none · streak: 0');
    expect(renderStatus(reading, false)).not.toContain('{}');
    const failed = { problem: null, state: { ...reading.state!, failures: { verification: 2, partial: 1 } } };
    expect(renderStatus(failed, false)).toContain('Failures: partial: 1, verification: 2');
  });
});

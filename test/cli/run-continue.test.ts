import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { continuationFor, continueRun } from '../../compiler/cli/continue-run.js';
import { recordDocument } from '../../compiler/cli/commands/record.js';
import { renderClient, workflowView } from '../../compiler/cli/commands/run.js';
import { checkWorkflowScript } from '../../compiler/emit/check/index.js';
import { compile } from '../../compiler/index.js';
import { recordEvents } from '../../runtime/decisions/events.js';
import { runWorkflowScript } from '../../runtime/host/index.js';
import { readState, startedState, updateState } from '../../runtime/state/index.js';
import { clientAlive, hookClient, processFacts } from '../../runtime/state/client.js';
import type { WorkflowResult } from '../../runtime/workflow/index.js';
import { CHARTER, MISSION, runtimeBundle, scribeBatches } from '../workflow/harness.js';
import { tempDir } from '../support/temp.js';

// A workflow run whose Claude Code client died: `run status` says so, and `run continue`
// gives the next launch of the same script the model its journal holds.

const PLAN = '# Plan\n\n- [ ] Count words\n- [ ] Count lines\n- [ ] Count bytes\n- [ ] Write the README\n';

/** A pid that no process has now: a child that already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

async function project(): Promise<{ root: string; leo: string; script: string }> {
  const root = tempDir('leopold-continue-');
  const leo = join(root, '.leopold');
  mkdirSync(leo);
  mkdirSync(join(root, '.claude', 'workflows'), { recursive: true });
  writeFileSync(join(leo, 'PLAN.md'), PLAN);
  writeFileSync(join(leo, 'MISSION.md'), MISSION);
  writeFileSync(join(leo, 'CHARTER.md'), CHARTER);
  writeFileSync(join(leo, 'GUARDRAILS.md'), '');
  const compiled = compile(PLAN, { file: '.leopold/PLAN.md', mission: MISSION, charter: CHARTER, guardrails: '', runtimeBundle: await runtimeBundle() });
  if (!compiled.ok) throw new Error('the plan did not compile');
  writeFileSync(join(root, '.claude', 'workflows', 'leopold-run.js'), compiled.script);
  writeFileSync(join(leo, 'workflow-args.json'), compiled.argsJson!);
  return { root, leo, script: compiled.script };
}

describe('a workflow run whose client died', () => {
  it('run status calls it dead with its last step; run continue carries the journal to the next launch, which does only what is left', async () => {
    const { root, leo, script } = await project();
    // The first launch: what its scribe wrote before the client died after item 2.
    const first = await runWorkflowScript(script, { staticCheck: checkWorkflowScript, answers: [] });
    const batches = scribeBatches(first);
    const died = batches.findIndex((batch) => batch.ticks.includes(2));
    await updateState(leo, () => ({ ...startedState('workflow', new Date('2030-01-01T00:00:00Z')), client: { pid: deadPid(), started: null } }));
    await recordEvents(leo, [{ event: 'start', engine: 'workflow' }]);
    for (const batch of batches.slice(0, died + 1)) await recordEvents(leo, (batch.record?.events ?? []) as { event: string }[]);
    writeFileSync(join(leo, 'PLAN.md'), PLAN.replace('- [ ] Count words', '- [x] Count words').replace('- [ ] Count lines', '- [x] Count lines'));

    const { reading, client } = workflowView(leo, readState(leo));
    expect(client).toMatchObject({ alive: false, lastStep: 'item 2 finished ok' });
    expect(renderClient(client!)).toMatch(/^Client: GONE \(pid \d+ has exited\): this workflow run is dead · last completed step: item 2 finished ok\. Continue it/);
    expect(reading.state).toMatchObject({ iteration: 2, routing: { statuses: { '1': 'ok', '2': 'ok' } } });

    const carry = continuationFor(leo, root, { force: false });
    expect(carry).toMatchObject({ launch: 2, model: { iteration: 2, routing: { statuses: { ok: '1-2' } } }, added: [], lastDecision: 0 });
    const second = await runWorkflowScript(script, { staticCheck: checkWorkflowScript, answers: [], args: { continue: JSON.parse(JSON.stringify(carry)) } });
    expect(second.ok).toBe(true);
    const result = second.result as WorkflowResult;
    expect(result.stop).toBe('plan_complete');
    const turns = scribeBatches(second).flatMap((batch) => (batch.record?.events ?? []).filter((e) => e.event === 'turn'));
    expect(turns).toEqual([
      { event: 'turn', item: 3, iteration: 3 },
      { event: 'turn', item: 4, iteration: 4 },
    ]);
  });

  it('run continue refuses while the client is alive, and when no workflow run is active', async () => {
    const { root, leo } = await project();
    await updateState(leo, () => ({ ...startedState('workflow', new Date()), client: { pid: process.pid, started: null } }));
    expect(() => continuationFor(leo, root, { force: false })).toThrow(/still alive; continuing would run the plan twice/);
    expect(continuationFor(leo, root, { force: true }).launch).toBe(1);
    await updateState(leo, () => ({ ...startedState('session', new Date()) }));
    expect(() => continuationFor(leo, root, { force: false })).toThrow(/no active workflow-engine run/);
  });
});

describe('continuing after an API error', () => {
  it("run continue takes back the API error the StopFailure hook kept, so the continued launch's scribe ack no longer stops it", async () => {
    const { root, leo } = await project();
    const failed = { error: 'rate_limit', retryable: true, at: '2026-01-01T00:00:00.000Z' };
    await updateState(leo, () => ({ ...startedState('workflow', new Date()), client: { pid: deadPid(), started: null }, api_error: failed }) as never);
    // Before: every ack of the run reports the error (the script would stop api_error).
    expect((await recordDocument(JSON.stringify({ events: [{ event: 'failure', item: 1, kind: 'blocked', evidence: 'x' }] }), root)).ack).toMatchObject({ ok: true, api_error: { error: 'rate_limit' } });
    const { continuation, cleared } = await continueRun(leo, root, { force: false });
    expect(cleared).toEqual(failed);
    expect(continuation.launch).toBe(1);
    expect(readState(leo).state).toMatchObject({ active: true, engine: 'workflow' });
    expect(readState(leo).state).not.toHaveProperty('api_error');
    const ack = (await recordDocument(JSON.stringify({ events: [{ event: 'failure', item: 1, kind: 'blocked', evidence: 'x' }] }), root)).ack;
    expect(ack).toMatchObject({ ok: true });
    expect(ack).not.toHaveProperty('api_error');
    // Nothing to take back: nothing cleared.
    expect((await continueRun(leo, root, { force: false })).cleared).toBeNull();
  });
});

describe('the client record', () => {
  it("names a hook's client: the nearest ancestor that is not a shell; tells a live one from a gone one", () => {
    // This test process stands in for the client.
    const me = processFacts(process.pid);
    if (me === null) return; // neither /proc nor ps: nothing to record, and status says it cannot tell
    expect(me.ppid).toBe(process.ppid);
    expect(hookClient(process.pid)).toEqual({ pid: process.pid, started: me.started });
    expect(clientAlive({ pid: process.pid, started: me.started })).toBe(true);
    expect(clientAlive({ pid: process.pid, started: 'another start' })).toBe(false);
    expect(clientAlive({ pid: deadPid(), started: null })).toBe(false);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tickPlan } from '../../../compiler/cli/commands/plan.js';
import { recordDocument } from '../../../compiler/cli/commands/record.js';
import { startRun } from '../../../compiler/cli/commands/run.js';
import { treeFingerprint } from '../../../runtime/verify/fingerprint.js';
import { tempDir } from '../../support/temp.js';

const PLAN = '# Plan\n\n- [ ] Count words\n- [ ] @gate Review it\n';

/** A project with a source file and a brief; `git` makes it a repository with one commit. */
async function project(git: boolean, run = true): Promise<{ root: string; leo: string; plan: string }> {
  const root = tempDir('leopold-verified-');
  const leo = join(root, '.leopold');
  mkdirSync(leo);
  writeFileSync(join(root, 'count.js'), 'export const count = (s) => s.split(" ").length;\n');
  writeFileSync(join(leo, 'PLAN.md'), PLAN);
  writeFileSync(join(leo, 'MISSION.md'), '# Mission\n\nCount words.\n');
  writeFileSync(join(leo, 'GUARDRAILS.md'), '');
  if (git) {
    const g = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    g('init', '-q');
    g('-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'empty');
    writeFileSync(join(root, '.gitignore'), 'coverage/\n');
  }
  if (run) await startRun(leo, { engine: 'session', force: false });
  return { root, leo, plan: join(leo, 'PLAN.md') };
}

const verified = (root: string, item = 1) => recordDocument(JSON.stringify({ events: [{ event: 'verified', item, commands: ['npm test'] }] }), root);
const events = (leo: string) => readFileSync(join(leo, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe.each([true, false])('done means verified (git: %s)', (git) => {
  it('a work item with no receipt cannot be ticked during a run; with one it can', async () => {
    const { root, plan } = await project(git);
    const refused = await tickPlan(plan, '1');
    expect(refused.code).toBe(1);
    expect(refused.ack.message).toMatch(/^item 1 has no passing verification recorded: run the item's tests, record \{"events":\[\{"event":"verified","item":1,/);
    expect(readFileSync(plan, 'utf8')).toBe(PLAN);
    expect((await verified(root)).code).toBe(0);
    expect((await tickPlan(plan, '1')).ack).toMatchObject({ ok: true, changed: true });
  });

  it('an item edited after its last verification cannot be ticked, until verified again', async () => {
    const { root, plan } = await project(git);
    await verified(root);
    // Another mtime and content, as an edit after the tests ran gives.
    writeFileSync(join(root, 'count.js'), 'export const count = (s) => s.trim().split(/\\s+/).length;\n');
    const refused = await tickPlan(plan, '1');
    expect(refused.code).toBe(1);
    expect(refused.ack.message).toMatch(/^item 1 was edited after its last verification \(\d{4}-.*: npm test\)/);
    await verified(root);
    expect((await tickPlan(plan, '1')).code).toBe(0);
  });

  it('the bookkeeping (.leopold/, .claude/) is not an edit; gate nodes need no receipt', async () => {
    const { root, leo, plan } = await project(git);
    await verified(root);
    const before = treeFingerprint(root);
    writeFileSync(join(leo, 'DECISIONS.md'), '# Decisions\n');
    mkdirSync(join(root, '.claude'), { recursive: true });
    writeFileSync(join(root, '.claude', 'settings.local.json'), '{}');
    expect(treeFingerprint(root)).toBe(before);
    expect((await tickPlan(plan, '2')).code).toBe(0);
    expect((await tickPlan(plan, '1')).code).toBe(0);
  });

  it('--unverified ticks anyway and says so in the log; outside a run nothing is required', async () => {
    const { leo, plan } = await project(git);
    expect((await tickPlan(plan, '1', { unverified: true })).ack).toMatchObject({ ok: true, changed: true });
    expect(events(leo).filter((e) => e.event === 'unverified-tick')).toEqual([expect.objectContaining({ item: 1 })]);
    const idle = await project(git, false);
    expect((await tickPlan(idle.plan, '1')).code).toBe(0);
  });

  it('the receipt is stamped by leopold record, never taken from the input', async () => {
    const { root, leo } = await project(git);
    await recordDocument(JSON.stringify({ events: [{ event: 'verified', item: 1, commands: ['npm test'], fingerprint: 'sha256:forged' }] }), root);
    const receipt = events(leo).find((e) => e.event === 'verified')!;
    expect(receipt.fingerprint).toBe(treeFingerprint(root));
    const empty = await recordDocument(JSON.stringify({ events: [{ event: 'verified', item: 1, commands: [] }] }), root);
    expect(empty.code).toBe(1);
  });
});

it('with git, ignored build output is not an edit; an untracked source file is', async () => {
  const { root } = await project(true, false);
  const before = treeFingerprint(root);
  mkdirSync(join(root, 'coverage'));
  writeFileSync(join(root, 'coverage', 'lcov.info'), 'TN:\n');
  expect(treeFingerprint(root)).toBe(before);
  writeFileSync(join(root, 'extra.js'), '1;\n');
  expect(treeFingerprint(root)).not.toBe(before);
});

it("the report names each work item's last receipt and the ticks given by hand", async () => {
  const { root, leo, plan } = await project(true);
  await verified(root, 1);
  await recordDocument(JSON.stringify({ events: [{ event: 'verified', item: 1, commands: ['npm test', 'npx tsc --noEmit'] }] }), root);
  await tickPlan(plan, '1');
  await tickPlan(plan, '2', { unverified: true });
  const { runEvidence } = await import('../../../runtime/verify/receipt.js');
  const { renderRunSummary } = await import('../../../runtime/run/summary.js');
  const { readState } = await import('../../../runtime/state/index.js');
  const evidence = runEvidence(events(leo));
  expect(evidence).toEqual({ verified: [{ item: 1, commands: ['npm test', 'npx tsc --noEmit'] }], unverified: [2] });
  const summary = renderRunSummary(readState(leo).state!, { plan: { done: 2, total: 2 }, decidedForYou: '', evidence });
  expect(summary).toContain('\nVerified: 1 (npm test; npx tsc --noEmit)\nTicked without verification (by hand): 2');
});

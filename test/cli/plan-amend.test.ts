import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { leopold, leopoldBinary } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

let bin: string;
beforeAll(async () => {
  bin = await leopoldBinary();
});

function project(plan: string | Buffer, state?: Record<string, unknown>): string {
  const root = tempDir('leopold-amend-');
  mkdirSync(join(root, '.leopold'));
  writeFileSync(join(root, '.leopold', 'PLAN.md'), plan);
  if (state) writeFileSync(join(root, '.leopold', 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
  return root;
}
const planOf = (root: string) => readFileSync(join(root, '.leopold', 'PLAN.md'));
const stateOf = (root: string) => JSON.parse(readFileSync(join(root, '.leopold', 'state.json'), 'utf8')) as { amendments_used: number };
const block = (...lines: string[]) => `Some thinking first.\n\n\`\`\`leopold-amend\n${lines.join('\n')}\n\`\`\`\n`;
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** `leopold plan amend` with the answer on stdin. */
function amendStdin(root: string, answer: string, args: string[] = ['--json']) {
  const out = spawnSync(process.execPath, [bin, 'plan', 'amend', ...args], { cwd: root, input: answer, encoding: 'utf8', env: { ...process.env, LEOPOLD_AUTONOMY: '' } });
  return { code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr };
}

const PLAN = '\uFEFF# Plän\r\n\r\n- [x] Build it {#build}\r\n- [ ] Test it ✓\r\n- [ ] @gate Review {#review}\r\n  @on fail -> 2\r\n- [ ] Ship'; // CRLF, BOM, no final newline

describe('leopold plan amend', () => {
  it('an accepted ADD: the old bytes unchanged, one line appended with the file\'s own ending; state.json counts it', () => {
    const root = project(PLAN, { version: 1, active: true, engine: 'workflow', amendments_used: 1 });
    const before = planOf(root);
    const r = leopold(bin, root, ['plan', 'amend', '--base64', b64(block('ADD (after: #build, 4) Write the changelog')), '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, added: [5], rewritten: [], used: 2 });
    const after = planOf(root);
    expect(after.subarray(0, before.length)).toEqual(before);
    expect(after.subarray(before.length).toString('utf8')).toBe('\r\n- [ ] (after: #build, 4) Write the changelog\r\n');
    expect(stateOf(root).amendments_used).toBe(2);
    // One atomic write: no temp or lock file left behind.
    expect(readdirSync(join(root, '.leopold')).sort()).toEqual(['PLAN.md', 'state.json']);
    // The appended item is a real item of the plan now.
    const graph = JSON.parse(leopold(bin, root, ['graph', '--json']).stdout) as { nodes: { index: number; text: string; deps: number[] }[] };
    expect(graph.nodes.at(-1)).toMatchObject({ index: 5, text: 'Write the changelog', deps: [1, 4] });
  });

  it('reads the answer from stdin; outside a run the budget starts at 0 and state.json is not created', () => {
    const root = project('- [ ] A\n');
    const r = amendStdin(root, block('ADD B', 'ADD (after: 2) C'));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, added: [2, 3], rewritten: [], used: 2 });
    expect(planOf(root).toString('utf8')).toBe('- [ ] A\n- [ ] B\n- [ ] (after: 2) C\n');
    expect(readdirSync(join(root, '.leopold'))).toEqual(['PLAN.md']);
    // Without --json: one human line.
    const text = amendStdin(root, block('ADD D'), []);
    expect(text).toMatchObject({ code: 0, stdout: 'amended the plan: added item 4 (1 of 3 plan changes used this run)\n' });
  });

  it('a refused batch: every refusal names its bound, nothing is applied, PLAN.md byte-identical', () => {
    const root = project(PLAN);
    const before = planOf(root);
    const r = amendStdin(root, block('ADD Fine on its own', 'DELETE 2', 'ROUTE 3 fail -> 4', 'ADD @gate Sneak a gate in', 'TICK 2', 'EDIT 2 Test it harder', 'ADD raise max_iterations to 99'));
    expect(r.code).toBe(1);
    const ack = JSON.parse(r.stdout) as { ok: boolean; error: string; refused: { proposal: string; code: string; detail: string }[] };
    expect(ack.ok).toBe(false);
    expect(ack.error).toBe('6 of 7 proposals refused; nothing was applied (all or nothing)');
    expect(ack.refused.map((x) => [x.proposal, x.code])).toEqual([
      ['DELETE 2', 'no-delete'],
      ['ROUTE 3 fail -> 4', 'repair-only'],
      ['ADD @gate Sneak a gate in', 'work-only'],
      ['TICK 2', 'no-touch-done'],
      ['EDIT 2 Test it harder', 'add-only'],
      ['ADD raise max_iterations to 99', 'no-guardrails'],
    ]);
    expect(ack.refused.every((x) => x.detail.length > 0)).toBe(true);
    expect(planOf(root)).toEqual(before);
  });

  it('the budget comes from state.json during an active run: the 4th change is refused add-budget', () => {
    const root = project('- [ ] A\n', { version: 1, active: true, amendments_used: 2 });
    const before = planOf(root);
    const r = amendStdin(root, block('ADD B', 'ADD C'));
    expect(r.code).toBe(1);
    const ack = JSON.parse(r.stdout) as { refused: { proposal: string; code: string; detail: string }[] };
    expect(ack.refused).toEqual([{ proposal: 'ADD C', code: 'add-budget', detail: "the run's 3 plan changes are spent (2 earlier this run, 1 in this batch)" }]);
    expect(planOf(root)).toEqual(before);
    expect(stateOf(root).amendments_used).toBe(2);
    // An inactive run's leftover count is not this run's budget.
    const idle = project('- [ ] A\n', { version: 1, active: false, amendments_used: 3 });
    expect(JSON.parse(amendStdin(idle, block('ADD B')).stdout)).toEqual({ ok: true, added: [2], rewritten: [], used: 1 });
    expect(stateOf(idle).amendments_used).toBe(3);
  });

  it('an amendment that would make the graph invalid is refused and writes nothing', () => {
    const root = project(PLAN);
    const before = planOf(root);
    const r = amendStdin(root, block('ADD Rebuild it {#build}'));
    expect(r.code).toBe(1);
    const ack = JSON.parse(r.stdout) as { ok: boolean; error: string; refused: unknown[]; diagnostics: { code: string; line: number }[] };
    expect(ack).toMatchObject({ ok: false, refused: [] });
    expect(ack.error).toContain('the amended plan would have 1 error (duplicate-anchor:');
    expect(ack.diagnostics.map((d) => [d.code, d.line])).toEqual([['duplicate-anchor', 8]]);
    expect(planOf(root)).toEqual(before);
  });

  it('--context runtime allows a ROUTE re-point; only the target changes', () => {
    const root = project('- [ ] A\n- [ ] @gate B\n  @on fail -> 1\n- [ ] C\n');
    const r = leopold(bin, root, ['plan', 'amend', '--context', 'runtime', '--base64', b64(block('ROUTE 2 fail -> 3')), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, added: [], rewritten: [3], used: 1 });
    expect(planOf(root).toString('utf8')).toBe('- [ ] A\n- [ ] @gate B\n  @on fail -> 3\n- [ ] C\n');
  });

  it('unusable input exits 2 with the file untouched: no input, no block, a bad --context, no plan', () => {
    const root = project('- [ ] A\n');
    const before = planOf(root);
    const usage = (r: { code: number; stdout: string }) => ({ code: r.code, ack: JSON.parse(r.stdout) as { ok: boolean; error: string } });
    expect(usage(amendStdin(root, ''))).toMatchObject({ code: 2, ack: { ok: false } });
    expect(usage(amendStdin(root, 'ADD B without a fence\n')).ack.error).toContain('no ```leopold-amend block');
    expect(usage(amendStdin(root, block('ADD B'), ['--context', 'repair', '--json']))).toMatchObject({ code: 2, ack: { error: '--context: expected feedback or runtime' } });
    expect(usage(amendStdin(root, block('ADD B'), ['--plan', 'nope.md', '--json']))).toMatchObject({ code: 2, ack: { error: 'no plan file at nope.md' } });
    expect(planOf(root)).toEqual(before);
  });
});

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtLeopold } from '../compile/harness.js';
import { SIMULATED_CLOSING, TRAIL_CLOSING } from '../../runtime/decisions/index.js';

// `leopold simulate` end to end through the built binary.

const repo = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'leopold-simulate-'));
let bin = '';

beforeAll(async () => {
  bin = (await builtLeopold()).bin;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function leopold(args: string[], cwd = repo) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('leopold simulate', () => {
  it('runs the example with its answers file: phases, agents, the failure and recovery, decisions, stop', () => {
    const r = leopold(['simulate', 'fixtures/example/.leopold/PLAN.md', '--answers', 'fixtures/example/answers.json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('7 open items, routed loop, autonomy full');
    // Phases read in order: stages put each route target after its source (no route-only target in the first).
    expect(r.stdout).toContain('Phases: Stage 1 → Stage 2 → Stage 3 → Stage 4 → Stage 5 → Stage 6\n');
    expect(r.stdout).toMatch(/i5:implement +Stage 4 /);
    expect(r.stdout).toMatch(/i2:implement .*answered[\s\S]*i2:verify[\s\S]*i2:implement[\s\S]*i4:tool[\s\S]*i5:implement[\s\S]*i6:gate[\s\S]*i7:persona:human[\s\S]*i7:human/);
    expect(r.stdout).toContain('i2: attempt failed (verification, 1 in a row)');
    expect(r.stdout).toContain(
      [
        'What I decided for you (1 call, riskiest first):',
        '  1. [human] Mara Voss — Open Source Licensing Counsel (D1): Name the release tally 1.0.0 and license it MIT (matches package.json).',
        '     Reversal: Change the version and licence fields in package.json and LICENSE before publishing.',
        // simulate writes nothing: the closing line must not point at a trail.
        SIMULATED_CLOSING,
      ].join('\n'),
    );
    expect(r.stdout).not.toContain(TRAIL_CLOSING);
    expect(r.stdout).toContain('Stop: routed_complete');
    expect(r.stdout).toContain('Done 5/7; incomplete: 4, 8');
  });

  it('--json prints one document with the agents and the result; the same run twice is identical', () => {
    const a = leopold(['simulate', 'fixtures/example/.leopold/PLAN.md', '--json']);
    const b = leopold(['simulate', 'fixtures/example/.leopold/PLAN.md', '--json']);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const doc = JSON.parse(a.stdout) as { ok: boolean; loop: string; agents: { label: string; status: string }[]; result: { stop: string; detail: string } };
    expect(doc.ok).toBe(true);
    expect(doc.loop).toBe('routed');
    expect(doc.agents[0]).toMatchObject({ label: 'i2:implement', status: 'answered' });
    // Unscripted, the @human node's default-shaped answer decides nothing: an escalation, never a made-up decision.
    expect(doc.result).toMatchObject({ stop: 'escalation', detail: expect.stringMatching(/^item 7 \("Decide the 1\.0 name and licence"\): the answer at the human fork is unusable/) });
    const answered = JSON.parse(leopold(['simulate', 'fixtures/example/.leopold/PLAN.md', '--answers', 'fixtures/example/answers.json', '--json']).stdout) as { result: { decidedForYou: string } };
    expect(answered.result.decidedForYou.split('\n').at(-1)).toBe(SIMULATED_CLOSING);
  });

  it('exits 1 on plan errors and 2 on a bad answers file', () => {
    const brief = join(dir, 'broken', '.leopold');
    mkdirSync(brief, { recursive: true });
    writeFileSync(join(brief, 'PLAN.md'), '- [ ] A\n  @on fail -> 9\n');
    expect(leopold(['simulate', join(brief, 'PLAN.md')]).code).toBe(1);
    writeFileSync(join(dir, 'bad.json'), '{"not": "a list"}');
    const bad = leopold(['simulate', 'fixtures/example/.leopold/PLAN.md', '--answers', join(dir, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid answer script');
  });
});

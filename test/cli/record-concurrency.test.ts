import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { highestDecisionNumber, readDecisions } from '../../runtime/decisions/index.js';
import { leopoldBinary } from '../support/built-dist.js';
import { sized } from '../support/stress.js';
import { tempDir } from '../support/temp.js';

// Process start-ups dominate. The stress suite runs it (not `npm test`); unsized, 6 writers ×
// 8 appends: more writers than cores, so the lock is contended on every append; `npm run test:stress` runs 16 × 50
// (800 start-ups, minutes on a loaded 2-core machine, hence the generous timeout: a time
// limit is not what is tested here).
const WRITERS = sized(6, 16);
const APPENDS = sized(8, 50);

let bin: string;
const running = new Set<ChildProcess>();
beforeAll(async () => {
  bin = await leopoldBinary();
});
// A timed-out test must not leave 16 writers spawning into a temp dir.
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

// One writer process: runs `leopold record` APPENDS times in sequence (a fresh process per
// append, as the workflow's scribe does) and prints every ack it got, one per line.
const WRITER = `
const { spawnSync } = require('node:child_process');
const [bin, writer, appends] = process.argv.slice(1);
const parent = process.ppid;
for (let i = 0; i < Number(appends); i++) {
  if (process.ppid !== parent) process.exit(1); // the test runner is gone: stop
  const input = JSON.stringify({ decisions: [{
    title: 'w' + writer + '-' + i, fork: 'escalation', item: i + 1,
    persona: { name: 'Writer ' + writer, role: 'Concurrency Tester', expertise: ['locks', 'renames'] },
    class: 'reversible', charter: 'Never lose a decision.', decision: 'append ' + i,
    why: 'stress', reversal: 'delete entry w' + writer + '-' + i, turn: i,
  }] });
  const r = spawnSync(process.execPath, [bin, 'record'], { input, encoding: 'utf8' });
  process.stdout.write(r.status === 0 ? r.stdout : JSON.stringify({ ok: false, status: r.status, out: r.stdout, err: r.stderr }) + '\\n');
}
`;

function runWriter(cwd: string, writer: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', WRITER, bin, String(writer), String(APPENDS)], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    running.add(child);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      running.delete(child);
      if (code === 0) resolve(out);
      else reject(new Error(`writer ${writer} exited ${code}`));
    });
  });
}

describe('leopold record under concurrency', () => {
  it(`${WRITERS} processes × ${APPENDS} appends leave exactly ${WRITERS * APPENDS} entries, D1..D${WRITERS * APPENDS}, well-formed`, async () => {
    const project = tempDir('leopold-concurrent-');
    mkdirSync(join(project, '.leopold'));
    const outputs = await Promise.all(Array.from({ length: WRITERS }, (_, w) => runWriter(project, w)));
    const total = WRITERS * APPENDS;
    const all = Array.from({ length: total }, (_, i) => i + 1);

    // Every ack is ok, and each writer saw its own numbers rise.
    const acked: number[] = [];
    for (const out of outputs) {
      const acks = out.trim().split('\n').map((l) => JSON.parse(l) as { ok: boolean; numbers: number[] });
      expect(acks).toHaveLength(APPENDS);
      for (const ack of acks) expect(ack.ok, JSON.stringify(ack)).toBe(true);
      const mine = acks.flatMap((a) => a.numbers);
      expect(mine).toEqual([...mine].sort((a, b) => a - b));
      acked.push(...mine);
    }
    expect(acked.sort((a, b) => a - b)).toEqual(all);

    // The file: one heading, then exactly `total` whole entries in number order.
    const text = readFileSync(join(project, '.leopold', 'DECISIONS.md'), 'utf8');
    const records = readDecisions(text);
    expect(records.map((r) => r.n)).toEqual(all);
    expect(highestDecisionNumber(text)).toBe(total);
    expect(new Set(records.map((r) => r.title)).size).toBe(total);
    for (const r of records) {
      expect(r).toMatchObject({ fork: 'escalation', class: 'reversible', charter: 'Never lose a decision.', why: 'stress' });
      expect(r.persona?.role).toBe('Concurrency Tester');
      expect(r.reversal).toBe(`delete entry ${r.title}`);
    }
    const blocks = text.split('\n\n');
    expect(blocks[0]).toBe('# Decisions');
    expect(blocks).toHaveLength(total + 1);
    // Heading, Persona, Bound by, Fork, Class, Charter, Decision, Why, Reversal.
    for (const block of blocks.slice(1)) expect(block.trimEnd().split('\n')).toHaveLength(9);
    expect(text.endsWith('\n')).toBe(true);

    // No lock or temp file left behind: DECISIONS.md and the lift of CHARTER.md the writers share.
    expect(readdirSync(join(project, '.leopold')).sort()).toEqual(['.CHARTER.md.rules', 'DECISIONS.md']);
  });
});

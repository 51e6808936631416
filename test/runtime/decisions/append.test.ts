import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  appendDecisions,
  DecisionRefusedError,
  readDecisions,
  recordEvents,
  type DecisionInput,
} from '../../../runtime/decisions/index.js';
import { tempDir } from '../../support/temp.js';

const AT = () => new Date('2025-05-01T09:30:00Z');
const mech = (title: string): DecisionInput => ({ title, mechanical: true });
let dir: string;

beforeEach(() => {
  dir = tempDir('leopold-append-');
});

// A pid that certainly belongs to no process: one that has just exited.
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

describe('appendDecisions', () => {
  it('creates DECISIONS.md with a heading, numbers on, and releases the lock', async () => {
    expect(await appendDecisions(dir, [mech('a'), mech('b')], AT)).toEqual([1, 2]);
    expect(await appendDecisions(dir, [mech('c')], AT)).toEqual([3]);
    const text = readFileSync(join(dir, 'DECISIONS.md'), 'utf8');
    expect(text).toBe(
      '# Decisions\n\n- D1 mechanical: a   (2025-05-01T09:30:00Z)\n\n- D2 mechanical: b   (2025-05-01T09:30:00Z)\n\n- D3 mechanical: c   (2025-05-01T09:30:00Z)\n',
    );
    expect(readdirSync(dir).sort()).toEqual(['DECISIONS.md']);
  });

  it('refuses irreversible + silent before taking the lock, writing nothing', async () => {
    const bad: DecisionInput = { title: 'Drop the table', class: 'irreversible', charter: 'silent', decision: 'drop', why: 'space' };
    await expect(appendDecisions(dir, [mech('fine'), bad], AT)).rejects.toBeInstanceOf(DecisionRefusedError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('serializes concurrent appends in one process: no number reused', async () => {
    const batches = await Promise.all(Array.from({ length: 20 }, (_, i) => appendDecisions(dir, [mech(`x${i}`), mech(`y${i}`)], AT)));
    expect(batches.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(readDecisions(readFileSync(join(dir, 'DECISIONS.md'), 'utf8')).map((r) => r.n)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('recovers a stale lock left by a dead process', async () => {
    writeFileSync(join(dir, 'DECISIONS.md.lock'), `${deadPid()} deadbeef\n`);
    expect(await appendDecisions(dir, [mech('after a crash')], AT, { timeoutMs: 5000 })).toEqual([1]);
    expect(existsSync(join(dir, 'DECISIONS.md.lock'))).toBe(false);
  });

  it('waits for a live holder and gives up with a clear error after the timeout', async () => {
    writeFileSync(join(dir, 'DECISIONS.md.lock'), `${process.pid} live\n`);
    await expect(appendDecisions(dir, [mech('x')], AT, { timeoutMs: 100 })).rejects.toThrow(/timed out after 100 ms waiting for the lock/);
    expect(existsSync(join(dir, 'DECISIONS.md'))).toBe(false);
  });

  // What a writer killed inside its append leaves: the journal naming the sizes before and
  // after, and the file somewhere between them (or at the end, had the write finished).
  it.each([
    ['cuts an append a killed writer left half done', '\n- D3 mechanical: half', false],
    ['keeps an append that finished before its writer died', '\n- D3 mechanical: whole   (2025-05-01T09:30:00Z)\n', true],
  ])('%s', async (_label, tail, finished) => {
    await appendDecisions(dir, [mech('a'), mech('b')], AT);
    const path = join(dir, 'DECISIONS.md');
    const before = readFileSync(path, 'utf8');
    const size = Buffer.byteLength(before);
    const after = size + Buffer.byteLength(tail) + (finished ? 0 : 40);
    writeFileSync(path, before + tail);
    writeFileSync(join(dir, '.DECISIONS.md.append'), `${size} ${after}\n`);
    expect(await appendDecisions(dir, [mech('c')], AT)).toEqual([finished ? 4 : 3]);
    const text = readFileSync(path, 'utf8');
    expect(text).toBe(`${before}${finished ? tail : ''}\n- D${finished ? 4 : 3} mechanical: c   (2025-05-01T09:30:00Z)\n`);
    expect(readdirSync(dir).sort()).toEqual(['DECISIONS.md']);
  });

  it('numbers on from the tail of a file longer than the 64 KiB it reads', async () => {
    const long = '# Decisions\n\n' + Array.from({ length: 2000 }, (_, i) => `- D${i + 1} mechanical: step ${i + 1} ${'x'.repeat(40)}\n`).join('\n');
    expect(long.length).toBeGreaterThan(64 * 1024);
    writeFileSync(join(dir, 'DECISIONS.md'), long);
    expect(await appendDecisions(dir, [mech('next')], AT)).toEqual([2001]);
    // A tail of prose with no numbered line reaches further back.
    writeFileSync(join(dir, 'DECISIONS.md'), `${long}\n${'A note a person added.\n'.repeat(4000)}`);
    expect(await appendDecisions(dir, [mech('after the notes')], AT)).toEqual([2001]);
  });
});

describe('recordEvents', () => {
  it('appends one JSON object per line, ts and event first, ts stamped by the writer', async () => {
    await recordEvents(dir, [{ event: 'start', item: 3, ts: 'caller clock' }, { event: 'tick', n: 1 }], AT);
    const lines = readFileSync(join(dir, 'events.jsonl'), 'utf8');
    expect(lines).toBe(
      '{"ts":"2025-05-01T09:30:00.000Z","event":"start","item":3}\n{"ts":"2025-05-01T09:30:00.000Z","event":"tick","n":1}\n',
    );
  });

  it.each([
    ['a torn last line', '{"ts":"a","event":"x"}\n{"ts":"b","ev', '{"ts":"a","event":"x"}\n'],
    ['a file that is all torn', '{"ts":"b","ev', ''],
    ['a clean file', '{"ts":"a","event":"x"}\n', '{"ts":"a","event":"x"}\n'],
  ])('cuts %s back to its last newline before appending', async (_label, before, kept) => {
    writeFileSync(join(dir, 'events.jsonl'), before);
    await recordEvents(dir, [{ event: 'next' }], AT);
    expect(readFileSync(join(dir, 'events.jsonl'), 'utf8')).toBe(`${kept}{"ts":"2025-05-01T09:30:00.000Z","event":"next"}\n`);
  });

  it('finds the last newline of a torn tail longer than one read chunk', async () => {
    const long = `{"event":"big","pad":"${'x'.repeat(200_000)}`;
    writeFileSync(join(dir, 'events.jsonl'), `{"event":"a"}\n${long}`);
    await recordEvents(dir, [{ event: 'b' }], AT);
    expect(readFileSync(join(dir, 'events.jsonl'), 'utf8')).toBe('{"event":"a"}\n{"ts":"2025-05-01T09:30:00.000Z","event":"b"}\n');
  });
});

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyState, parseState, readState, renderState, RunStateSchema, startedState, updateState } from '../../../runtime/state/index.js';
import { finishedState, reduce, windowClosed, type RunModel } from '../../../runtime/run/index.js';
// The run model's reducer (runtime/run) for the transitions these tests drive.
const failed = <S extends RunModel>(s: S, kind: string) => reduce(s, { type: 'failed', item: 1, kind }, []);
const succeeded = <S extends RunModel>(s: S) => reduce(s, { type: 'succeeded', item: 1 }, []);
const granted = <S extends RunModel>(s: S) => reduce(s, { type: 'rescue-granted', item: 1 }, []);
const dispatched = <S extends RunModel>(s: S, done: number) => reduce(s, { type: 'dispatched', item: 1, done }, []);


let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'leopold-state-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('state.json schema', () => {
  it('an empty object reads as a fresh inactive state with zeroed counters', () => {
    expect(RunStateSchema.parse({})).toEqual(emptyState());
    expect(emptyState()).toMatchObject({
      version: 1,
      active: false,
      engine: 'session',
      iteration: 0,
      failures: {},
      consecutive_failures: { kind: null, count: 0 },
      no_progress: 0,
      rescue_used: false,
      amendments_used: 0,
      routing: { statuses: {}, signals: {}, channel: {}, taken: [] },
      stop_reason: null,
    });
  });

  it('round-trips and keeps unknown fields a newer writer added', () => {
    const state = { ...startedState('workflow', new Date('2026-01-02T03:04:05Z')), future_field: { a: 1 } };
    const reading = parseState(renderState(state));
    expect(reading.problem).toBeNull();
    expect(reading.state).toEqual(state);
  });

  it('corrupt files are "no state" with a clear reason, never an exception', () => {
    expect(parseState('{ not json')).toMatchObject({ state: null, problem: expect.stringMatching(/^corrupt: not JSON/) });
    expect(parseState('[]')).toMatchObject({ state: null, problem: expect.stringMatching(/^corrupt:/) });
    expect(parseState('null')).toMatchObject({ state: null, problem: expect.stringMatching(/^corrupt:/) });
    expect(parseState('{"iteration": -3}')).toMatchObject({ state: null, problem: expect.stringMatching(/^corrupt: iteration:/) });
    expect(parseState('{"engine": "rocket"}')).toMatchObject({ state: null, problem: expect.stringMatching(/^corrupt: engine:/) });
    expect(parseState('')).toMatchObject({ state: null });
  });

  it('readState: missing and corrupt files', () => {
    expect(readState(dir)).toEqual({ state: null, problem: 'missing' });
    writeFileSync(join(dir, 'state.json'), '\u0000\u0001garbage');
    expect(readState(dir).problem).toMatch(/^corrupt: not JSON/);
  });

  it('updateState over a corrupt file hands null and the reason, then writes a valid file', async () => {
    writeFileSync(join(dir, 'state.json'), '{"active": "yes"}');
    let seen: unknown = 'unset';
    const written = await updateState(dir, (current, problem) => {
      seen = { current, problem };
      return startedState('session', new Date('2026-01-01T00:00:00Z'));
    });
    expect(seen).toMatchObject({ current: null, problem: expect.stringMatching(/^corrupt: active:/) });
    expect(readState(dir).state).toEqual(written);
    expect(existsSync(join(dir, 'state.json.lock'))).toBe(false);
  });

  it('updateState refuses to write an invalid state and leaves the file as it was', async () => {
    await updateState(dir, () => emptyState());
    const before = readFileSync(join(dir, 'state.json'), 'utf8');
    await expect(updateState(dir, (s) => ({ ...s!, iteration: -1 }))).rejects.toThrow();
    expect(readFileSync(join(dir, 'state.json'), 'utf8')).toBe(before);
    expect(existsSync(join(dir, 'state.json.lock'))).toBe(false);
  });

  it('8 processes incrementing 25 times each leave exactly 200', async () => {
    const worker = join(import.meta.dirname, 'increment-worker.ts');
    // tsx keeps a compile cache in the temp folder; give the workers one the test removes.
    const env = { ...process.env, TMPDIR: join(dir, 'tmp') };
    mkdirSync(env.TMPDIR);
    const runs = Array.from(
      { length: 8 },
      () =>
        new Promise<number>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', worker, dir, '25'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
          let err = '';
          child.stderr.on('data', (d) => (err += d));
          child.on('error', reject);
          child.on('exit', (code) => (code === 0 ? resolve(code) : reject(new Error(`worker exit ${code}: ${err}`))));
        }),
    );
    await Promise.all(runs);
    expect(readState(dir).state?.iteration).toBe(200);
  });
});

describe('state transitions', () => {
  const t0 = new Date('2026-03-01T10:00:00Z');

  it('start zeroes everything, finish stamps and keeps an earlier stop reason', () => {
    const started = startedState('workflow', t0);
    expect(started).toMatchObject({ active: true, engine: 'workflow', started_at: '2026-03-01T10:00:00.000Z', iteration: 0 });
    const done = finishedState({ ...started, stop_reason: 'kill_switch' }, t0, 'plan_complete');
    expect(done).toMatchObject({ active: false, finished_at: '2026-03-01T10:00:00.000Z', stop_reason: 'kill_switch' });
    expect(finishedState(started, t0, null).stop_reason).toBeNull();
  });

  it('turns count no-progress until the done count moves', () => {
    let s = startedState('session', t0);
    s = dispatched(s, 0);
    s = dispatched(s, 0);
    expect(s).toMatchObject({ iteration: 2, no_progress: 2 });
    s = dispatched(s, 1);
    expect(s).toMatchObject({ iteration: 3, no_progress: 0, last_done: 1 });
  });

  it('failures: counted by kind, the streak restarts on another kind and ends on success', () => {
    let s = startedState('session', t0);
    s = failed(s, 'test');
    s = failed(s, 'test');
    expect(s.consecutive_failures).toEqual({ kind: 'test', count: 2 });
    s = failed(s, 'build');
    expect(s.consecutive_failures).toEqual({ kind: 'build', count: 1 });
    expect(s.failures).toEqual({ test: 2, build: 1 });
    s = succeeded(s);
    expect(s.consecutive_failures).toEqual({ kind: null, count: 0 });
  });

  it('windows: counted, and windows in a row without progress', () => {
    let s = startedState('session', t0);
    s = windowClosed(s, 0);
    s = windowClosed(s, 0);
    expect(s).toMatchObject({ windows: 2, windows_without_progress: 2 });
    s = windowClosed(s, 3);
    expect(s).toMatchObject({ windows: 3, windows_without_progress: 0 });
  });
});

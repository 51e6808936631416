import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rescueVerdict } from '../../../runtime/run/index.js';
import { readState, startedState, updateState, type RunState } from '../../../runtime/state/index.js';
import { reduce, type RunModel } from '../../../runtime/run/index.js';
// The run model's reducer (runtime/run) for the transitions these tests drive.
const failed = <S extends RunModel>(s: S, kind: string) => reduce(s, { type: 'failed', item: 1, kind }, []);
const succeeded = <S extends RunModel>(s: S) => reduce(s, { type: 'succeeded', item: 1 }, []);
const granted = <S extends RunModel>(s: S) => reduce(s, { type: 'rescue-granted', item: 1 }, []);
const dispatched = <S extends RunModel>(s: S, done: number) => reduce(s, { type: 'dispatched', item: 1, done }, []);


const fail = (s: RunState, kind = 'test', times = 1) => {
  for (let i = 0; i < times; i += 1) s = failed(s, kind);
  return s;
};
const start = () => startedState('session', new Date('2026-01-01T00:00:00Z'));

describe('once-per-run rescue', () => {
  it('continues below the ceiling, rescues on the last allowed failure, stops when the rescue attempt fails', () => {
    let s = fail(start(), 'test', 2);
    expect(rescueVerdict({ state: s, maxFailures: 3, autonomy: 'full' })).toBe('continue');
    s = fail(s);
    expect(rescueVerdict({ state: s, maxFailures: 3, autonomy: 'full' })).toBe('rescue');
    s = granted(s);
    expect(s).toMatchObject({ rescue_used: true, rescue_for: { kind: 'test', failures: 3 } });
    // The rescued attempt runs.
    expect(rescueVerdict({ state: s, maxFailures: 3, autonomy: 'full' })).toBe('continue');
    s = fail(s);
    expect(rescueVerdict({ state: s, maxFailures: 3, autonomy: 'full' })).toBe('stop');
  });

  it('is once per run: a later streak of another kind stops at the ceiling', () => {
    let s = granted(fail(start(), 'test', 3));
    s = succeeded(s);
    s = fail(s, 'build', 3);
    expect(rescueVerdict({ state: s, maxFailures: 3, autonomy: 'full' })).toBe('stop');
    expect(() => granted(s)).toThrow(/already used/);
  });

  it('is off under ask', () => {
    expect(rescueVerdict({ state: fail(start(), 'test', 3), maxFailures: 3, autonomy: 'ask' })).toBe('stop');
  });

  it('is persisted: a resumed run (state read back from disk) inherits it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leopold-rescue-'));
    try {
      await updateState(dir, () => granted(fail(start(), 'test', 3)));
      const resumed = readState(dir).state!;
      expect(resumed.rescue_used).toBe(true);
      const later = fail(succeeded(resumed), 'lint', 3);
      expect(rescueVerdict({ state: later, maxFailures: 3, autonomy: 'full' })).toBe('stop');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leopold, leopoldBinary } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';
import { parseOptions } from '../../compiler/brief/options.js';
import { ALLOWABLE_STOPS, CiOptionsSchema, END_STOPS, passingStop } from '../../compiler/cli/commands/ci.js';
import { LeopoldError } from '../../compiler/diagnostics/error.js';
import { STOP_REASONS } from '../../runtime/run/index.js';

// `leopold ci`'s verdict on the rehearsal, without a client (the real-client runs are in
// test/conformance/ci.conformance.test.ts): the end of the plan passes, any other stop
// only when --allow-stop names it.

describe('leopold ci: usage', () => {
  it('an answers file that cannot be read: exit 2, one line, before any step runs', async () => {
    const bin = await leopoldBinary();
    const dir = tempDir('leopold-ci-usage-');
    mkdirSync(join(dir, '.leopold'));
    writeFileSync(join(dir, '.leopold', 'PLAN.md'), '- [ ] one\n');
    const out = leopold(bin, dir, ['ci', '--answers', 'missing.json']);
    expect([out.code, out.stdout, out.stderr]).toEqual([2, '', 'leopold: missing.json: no such file (expected an answers file)\n']);
    expect(existsSync(join(dir, 'leopold-ci'))).toBe(false);
  });
});

describe('leopold ci: which stops pass', () => {
  it('the end of the plan always passes; every other stop only when allowed', () => {
    for (const stop of END_STOPS) expect(passingStop(stop, [])).toBe(true);
    for (const stop of ALLOWABLE_STOPS) {
      expect([stop, passingStop(stop, [])]).toEqual([stop, false]);
      expect(passingStop(stop, [stop])).toBe(true);
      expect(passingStop(stop, ALLOWABLE_STOPS.filter((s) => s !== stop))).toBe(false);
    }
  });

  it('--allow-stop takes every stop a rehearsal in the stand-in host can end at, and nothing else', () => {
    // api_error needs a real API to refuse: the stand-in host never ends a rehearsal there.
    const workflowStops = [...STOP_REASONS.filter((s) => !['kill_switch', 'invalid_graph', 'context_budget', 'no_progress_across_windows', 'max_windows', 'api_error'].includes(s)), 'scribe_failed'];
    expect([...END_STOPS, ...ALLOWABLE_STOPS].sort()).toEqual(workflowStops.sort());
    expect(parseOptions(CiOptionsSchema, { allowStop: ['awaiting_human', 'escalation'] }).allowStop).toEqual(['awaiting_human', 'escalation']);
    expect(parseOptions(CiOptionsSchema, {}).allowStop).toEqual([]);
    expect(() => parseOptions(CiOptionsSchema, { allowStop: ['awaiting-human'] })).toThrow(LeopoldError);
    expect(() => parseOptions(CiOptionsSchema, { allowStop: ['plan_complete'] })).toThrow(/--allow-stop must be awaiting_human, escalation, .* or scribe_failed/);
  });
});

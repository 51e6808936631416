import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leopold, leopoldBinary } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

let bin: string;
beforeAll(async () => {
  bin = await leopoldBinary();
});

// Every directory a test makes, removed when the file is done.
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const root = tempDir('leopold-run-');
  mkdirSync(join(root, '.leopold'));
  writeFileSync(join(root, '.leopold', 'PLAN.md'), '- [x] one\n- [ ] two\n- [ ] three\n');
  return root;
}
const state = (root: string) => JSON.parse(readFileSync(join(root, '.leopold', 'state.json'), 'utf8'));
const events = (root: string) =>
  readFileSync(join(root, '.leopold', 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

const DECISION = [
  '# Decisions',
  '',
  '## D1 — Chose the schema migration order   (turn 3, 2999-01-01T00:00:00Z)',
  'Persona:     Dana — Database Reliability Lead (migrations; postgres)',
  'Fork:        escalation: item 2',
  'Class:       reversible',
  'Charter:     silent',
  'Decision:    Run the additive migration first.',
  'Why:         completeness',
  'Reversal:    Re-run the down migration.',
  '',
].join('\n');

describe('leopold run', () => {
  it('start / status / stop / finish end to end', () => {
    const root = project();
    const cwd = join(root, '.leopold'); // any directory inside the project works
    const start = leopold(bin, cwd, ['run', 'start', '--engine', 'workflow']);
    expect(start.code).toBe(0);
    expect(start.stdout).toMatch(/Run started \(engine: workflow\)/);
    expect(state(root)).toMatchObject({ active: true, engine: 'workflow', iteration: 0, rescue_used: false, amendments_used: 0 });

    // A second start is refused while the run is active.
    const again = leopold(bin, root, ['run', 'start']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already active.*--force/);

    const status = leopold(bin, root, ['run', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/Run: active · engine workflow/);
    expect(status.stdout).toMatch(/Kill switch: not raised/);
    const json = JSON.parse(leopold(bin, root, ['run', 'status', '--json']).stdout);
    expect(json).toMatchObject({ state: { active: true, engine: 'workflow' }, problem: null, killSwitch: false });

    const stop = leopold(bin, root, ['run', 'stop']);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toMatch(/Kill switch raised: \.leopold\/STOP/);
    expect(stop.stdout).toMatch(/rm \.leopold\/STOP/);
    expect(existsSync(join(root, '.leopold', 'STOP'))).toBe(true);
    expect(leopold(bin, root, ['run', 'stop']).stdout).toMatch(/already raised/);
    expect(JSON.parse(leopold(bin, root, ['run', 'status', '--json']).stdout).killSwitch).toBe(true);

    writeFileSync(join(root, '.leopold', 'DECISIONS.md'), DECISION);
    const finish = leopold(bin, root, ['run', 'finish', '--reason', 'kill_switch']);
    expect(finish.code).toBe(0);
    expect(finish.stdout).toMatch(/^Leopold run ended: kill_switch/);
    expect(finish.stdout).toMatch(/Plan: 1\/3 items done/);
    expect(finish.stdout).toMatch(/What I decided for you/);
    expect(finish.stdout).toContain('  1. [decision] Dana — Database Reliability Lead (D1): Run the additive migration first.\n     Reversal: Re-run the down migration.');
    expect(state(root)).toMatchObject({ active: false, stop_reason: 'kill_switch', finished_at: expect.any(String) });
    expect(events(root).map((e) => e.event)).toEqual(['start', 'kill_switch', 'finish']);
    expect(events(root)[2]).toMatchObject({ event: 'finish', reason: 'kill_switch', iteration: 0 });

    // Finishing again: nothing active, nothing written; the run's report once more (a run the
    // Stop hook ended showed it only in the client).
    const before = readFileSync(join(root, '.leopold', 'state.json'), 'utf8');
    const eventsBefore = readFileSync(join(root, '.leopold', 'events.jsonl'), 'utf8');
    const ended = leopold(bin, root, ['run', 'finish']);
    expect(ended.code).toBe(0);
    expect(ended.stdout).toMatch(/^No active run: the last run already ended \(kill_switch, \d{4}-\d\d-\d\dT[\d:.]+Z\)\. Its report:\n\nLeopold run ended: kill_switch/);
    expect(ended.stdout).toContain('  1. [decision] Dana — Database Reliability Lead (D1): Run the additive migration first.');
    expect(readFileSync(join(root, '.leopold', 'state.json'), 'utf8')).toBe(before);
    expect(readFileSync(join(root, '.leopold', 'events.jsonl'), 'utf8')).toBe(eventsBefore);

    // The kill switch blocks a new start until a person removes it.
    const blocked = leopold(bin, root, ['run', 'start']);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/rm \.leopold\/STOP/);
    rmSync(join(root, '.leopold', 'STOP'));
    expect(leopold(bin, root, ['run', 'start']).code).toBe(0);
    expect(state(root)).toMatchObject({ active: true, engine: 'session', stop_reason: null, finished_at: null });
    // Finishing while the kill switch is raised records it as the reason.
    leopold(bin, root, ['run', 'stop']);
    expect(leopold(bin, root, ['run', 'finish']).stdout).toMatch(/^Leopold run ended: kill_switch/);
  });

  describe('finish after a workflow agent died on an API error (the StopFailure hook kept it in state.json)', () => {
    const failedRun = (error: string, retryable: boolean) => {
      const root = project();
      expect(leopold(bin, root, ['run', 'start', '--engine', 'workflow']).code).toBe(0);
      writeFileSync(join(root, '.leopold', 'state.json'), JSON.stringify({ ...state(root), api_error: { error, retryable, at: '2999-01-01T00:00:00.000Z' } }));
      return root;
    };

    it('--reason api_error (the script recorded its stop): state.json keeps the error, the report says it and how to resume', () => {
      const root = failedRun('server_error', true);
      const detail = 'an agent died on an API error: server_error: the API answered with a server error (HTTP 500 or 529); it is usually brief, so wait a moment. A retry can help.';
      const doc = JSON.stringify({ events: [{ event: 'stop', reason: 'api_error', detail, error: 'server_error', retryable: true, iteration: 1, done: 0, total: 2 }] });
      // The scribe's record of the script's stop: its ack still reports the error (the run is active).
      const recorded = leopold(bin, root, ['record', '--base64', Buffer.from(doc).toString('base64')]);
      expect(JSON.parse(recorded.stdout)).toEqual({ ok: true, numbers: [], events: 1, api_error: { error: 'server_error', retryable: true } });
      const finish = leopold(bin, root, ['run', 'finish', '--reason', 'api_error']);
      expect(finish.code).toBe(0);
      expect(finish.stdout).toMatch(/^Leopold run ended: api_error\n/);
      expect(finish.stdout).toContain(detail);
      expect(finish.stdout).toContain('When the API answers again, resume with /leopold-workflow in Claude Code');
      expect(state(root)).toMatchObject({ active: false, stop_reason: 'api_error', api_error: { error: 'server_error', retryable: true, at: '2999-01-01T00:00:00.000Z' } });
      expect(events(root).at(-1)).toMatchObject({ event: 'finish', reason: 'api_error' });
    });

    it('no reason (the scribe died too, so no stop was recorded): the run ends api_error from state.json, with the detail and the resume hint', () => {
      const root = failedRun('authentication_failed', false);
      const finish = leopold(bin, root, ['run', 'finish']);
      expect(finish.stdout).toMatch(/^Leopold run ended: api_error\n/);
      expect(finish.stdout).toContain('an agent died on an API error: authentication_failed: the API refused the credentials (HTTP 401)');
      expect(finish.stdout).toContain('Once that is fixed, resume with /leopold-workflow in Claude Code');
      expect(state(root)).toMatchObject({ active: false, stop_reason: 'api_error', api_error: { error: 'authentication_failed', retryable: false } });
    });

    it('another stop (the error came too late to stop the script): the run ends with it, and state.json keeps no api_error', () => {
      const root = failedRun('rate_limit', true);
      const finish = leopold(bin, root, ['run', 'finish', '--reason', 'repeated_failure']);
      expect(finish.stdout).toMatch(/^Leopold run ended: repeated_failure\n/);
      expect(finish.stdout).not.toContain('resume with');
      expect(state(root)).toMatchObject({ active: false, stop_reason: 'repeated_failure' });
      expect(state(root)).not.toHaveProperty('api_error');
    });
  });

  it('finish prints nothing about decisions when none were made, and ignores earlier runs', () => {
    const root = project();
    writeFileSync(join(root, '.leopold', 'DECISIONS.md'), DECISION.replace('2999-01-01', '2001-01-01'));
    leopold(bin, root, ['run', 'start']);
    const finish = leopold(bin, root, ['run', 'finish']);
    expect(finish.stdout).toMatch(/^Leopold run ended: finished/);
    expect(finish.stdout).not.toMatch(/decided/i);
  });

  it('--force restarts an active run with zeroed counters', () => {
    const root = project();
    leopold(bin, root, ['run', 'start']);
    const path = join(root, '.leopold', 'state.json');
    writeFileSync(path, JSON.stringify({ ...state(root), iteration: 7, rescue_used: true }));
    const forced = leopold(bin, root, ['run', 'start', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/Replaced the active run/);
    expect(state(root)).toMatchObject({ active: true, iteration: 0, rescue_used: false });
  });

  it.each(['session', 'workflow'])('start --engine %s refuses a GUARDRAILS.md not read as written: errors with line and column, nothing written', (engine) => {
    const root = project();
    writeFileSync(join(root, '.leopold', 'GUARDRAILS.md'), '# Guardrails\n\n- autonomy: akss   # strict\n- max_iteration: 2   # cap\n');
    const before = readdirSync(join(root, '.leopold')).sort();
    const start = leopold(bin, join(root, '.leopold'), ['run', 'start', '--engine', engine]);
    expect(start.code).toBe(1);
    expect(start.stdout).toBe('');
    // The same diagnostics graph warns about, as errors, each with its code frame and hint.
    expect(start.stderr).toMatch(/^GUARDRAILS\.md:3:13: error: autonomy is "akss"; expected full or ask.* \[bad-guardrail\]$/m);
    expect(start.stderr).toMatch(/^ {2}hint: Did you mean "ask"\?/m);
    expect(start.stderr).toMatch(/^GUARDRAILS\.md:4:3: error: "max_iteration" is not a GUARDRAILS key.* \[unknown-guardrail\]$/m);
    expect(start.stderr).toMatch(/^ {2}hint: Did you mean "max_iterations"\?/m);
    expect(start.stderr).toMatch(/^leopold: run start refused: the brief does not pass leopold graph --strict \(2 problems above\); fix it and start again\. Nothing was started\.$/m);
    // Refused before the lock is armed or a state written.
    expect(readdirSync(join(root, '.leopold')).sort()).toEqual(before);

    // Written as the documents write it, the same file starts the run.
    writeFileSync(join(root, '.leopold', 'GUARDRAILS.md'), '# Guardrails\n\n- autonomy: ask   # strict\n- max_iterations: 2   # cap\n');
    expect(leopold(bin, root, ['run', 'start', '--engine', engine]).code).toBe(0);
    expect(state(root)).toMatchObject({ active: true, engine });
  });

  it.each(['session', 'workflow'])('start --engine %s refuses a plan graph --strict refuses, with the same diagnostics: a route to an item that does not exist', (engine) => {
    const root = project();
    writeFileSync(join(root, '.leopold', 'PLAN.md'), '# Plan\n\n- [ ] @tool `npm test`\n  @on exit!=0 -> #fix\n- [ ] Ship it\n');
    const before = readdirSync(join(root, '.leopold')).sort();
    const graph = leopold(bin, root, ['graph', '--strict']);
    const start = leopold(bin, root, ['run', 'start', '--engine', engine]);
    expect(graph.code).toBe(1);
    expect(start.code).toBe(1);
    const diagnostics = (text: string) => text.split('\n').filter((line) => /^\S+:\d+:\d+: /.test(line));
    expect(diagnostics(start.stderr)).toEqual(diagnostics(graph.stderr));
    expect(start.stderr).toMatch(/dangling-edge/);
    expect(start.stderr).toMatch(/^leopold: run start refused: the brief does not pass leopold graph --strict/m);
    expect(readdirSync(join(root, '.leopold')).sort()).toEqual(before);
  });

  it('a corrupt state.json is reported by status and replaced by start, never a crash', () => {
    const root = project();
    writeFileSync(join(root, '.leopold', 'state.json'), '{"active": tru');
    const status = leopold(bin, root, ['run', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/No usable run state: state.json is corrupt: not JSON/);
    expect(JSON.parse(leopold(bin, root, ['run', 'status', '--json']).stdout)).toMatchObject({ state: null, problem: expect.stringMatching(/^corrupt/) });
    expect(leopold(bin, root, ['run', 'finish']).stdout).toBe('No active run.\n');
    const start = leopold(bin, root, ['run', 'start']);
    expect(start.code).toBe(0);
    expect(start.stdout).toMatch(/Replaced an unusable state.json \(corrupt/);
    expect(state(root).active).toBe(true);
  });

  it('usage errors exit 2: bad engine, bad reason, no .leopold/', () => {
    const root = project();
    expect(leopold(bin, root, ['run', 'start', '--engine', 'rocket'])).toMatchObject({ code: 2 });
    leopold(bin, root, ['run', 'start']);
    expect(leopold(bin, root, ['run', 'finish', '--reason', 'bored']).code).toBe(2);
    const nowhere = tempDir('leopold-none-');
    for (const sub of ['start', 'finish', 'status', 'stop']) {
      const r = leopold(bin, nowhere, ['run', sub]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/no \.leopold\/ directory/);
    }
    expect(existsSync(join(nowhere, '.leopold'))).toBe(false);
  });

  it('status without any state says so', () => {
    const root = project();
    const r = leopold(bin, root, ['run', 'status']);
    expect(r.stdout).toMatch(/No run state \(\.leopold\/state\.json does not exist\)/);
  });
});

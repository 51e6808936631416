import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readDecisions } from '../../runtime/decisions/index.js';
import { leopoldBinary } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

let bin: string;
let project: string;

beforeAll(async () => {
  bin = await leopoldBinary();
});

beforeEach(() => {
  project = tempDir('leopold-record-');
  mkdirSync(join(project, '.leopold'));
});

function record(input: unknown, options: { cwd?: string; args?: string[] } = {}) {
  const result = spawnSync(process.execPath, [bin, 'record', ...(options.args ?? [])], {
    cwd: options.cwd ?? project,
    input: typeof input === 'string' ? input : JSON.stringify(input),
    encoding: 'utf8',
  });
  return { code: result.status, ack: result.stdout === '' ? undefined : (JSON.parse(result.stdout) as Record<string, unknown>), stdout: result.stdout, stderr: result.stderr };
}

const DECISION = {
  title: 'Keep refunded invoices',
  fork: 'escalation',
  item: 4,
  persona: { name: 'Ada Park', role: 'Billing Operations Lead', expertise: ['invoicing'] },
  class: 'reversible',
  charter: 'Never hide money movements.',
  decision: 'Include them with a status column.',
  why: 'completeness',
  reversal: 'Filter status=refunded.',
  turn: 3,
};

const decisionsFile = () => join(project, '.leopold', 'DECISIONS.md');

describe('leopold record', () => {
  it('appends decisions and events and prints the ack on one line', () => {
    const result = record({ decisions: [DECISION, { title: 'Formatted', mechanical: true }], events: [{ event: 'start', item: 4 }] });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('{"ok":true,"numbers":[1,2],"path":".leopold/DECISIONS.md","events":1}\n');
    const text = readFileSync(decisionsFile(), 'utf8');
    expect(text).toMatch(/^# Decisions\n\n## D1 — Keep refunded invoices {3}\(turn 3, \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)\nPersona: {5}Ada Park — Billing Operations Lead \(invoicing\)\n/);
    expect(readDecisions(text).map((r) => r.n)).toEqual([1, 2]);
    const events = readFileSync(join(project, '.leopold', 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events).toEqual([{ ts: expect.stringMatching(/Z$/), event: 'start', item: 4 }]);
  });

  it('continues numbering across separate runs', () => {
    expect(record({ decisions: [DECISION, DECISION] }).ack).toEqual({ ok: true, numbers: [1, 2], path: '.leopold/DECISIONS.md' });
    expect(record({ decisions: [{ title: 'later', mechanical: true }] }).ack).toEqual({ ok: true, numbers: [3], path: '.leopold/DECISIONS.md' });
    expect(record({ decisions: [DECISION] }).ack).toMatchObject({ numbers: [4] });
    expect(readDecisions(readFileSync(decisionsFile(), 'utf8')).map((r) => r.n)).toEqual([1, 2, 3, 4]);
  });

  it('accepts --base64 and finds .leopold/ from a subdirectory', () => {
    const sub = join(project, 'src', 'deep');
    mkdirSync(sub, { recursive: true });
    const payload = Buffer.from(JSON.stringify({ decisions: [DECISION] })).toString('base64');
    expect(record('', { cwd: sub, args: ['--base64', payload] })).toMatchObject({ code: 0, ack: { ok: true, numbers: [1], path: '.leopold/DECISIONS.md' } });
    expect(existsSync(decisionsFile())).toBe(true);
  });

  it('records events alone with no decision numbers', () => {
    expect(record({ events: [{ event: 'turn', item: 1 }] })).toMatchObject({ code: 0, ack: { ok: true, numbers: [], events: 1 } });
    expect(record({ events: [{ event: 'turn', item: 1 }] }).ack).not.toHaveProperty('path'); // nothing went to DECISIONS.md
    expect(existsSync(decisionsFile())).toBe(false);
  });

  it('refuses irreversible + silent with exit 1: no decision, none of the events, only the escalation for its item', () => {
    record({ decisions: [DECISION] });
    const before = readFileSync(decisionsFile(), 'utf8');
    const filesBefore = readdirSync(join(project, '.leopold')).sort();
    const result = record({
      decisions: [DECISION, { ...DECISION, title: 'Drop the orders table', class: 'irreversible', charter: 'Silent' }],
      events: [{ event: 'turn', item: 9, note: 'should not appear' }],
    });
    expect(result.code).toBe(1);
    expect(result.ack).toEqual({ ok: false, error: expect.stringContaining('stop and ask the user instead') });
    expect(result.ack?.error).toContain('Drop the orders table');
    expect(result.ack?.error).toContain('The escalation for item 4 is recorded');
    expect(readFileSync(decisionsFile(), 'utf8')).toBe(before);
    // The protocol's one mandatory stop: the Stop hook reads this line and ends the run with escalation.
    const events = readFileSync(join(project, '.leopold', 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toEqual([
      { ts: expect.any(String), event: 'escalation', item: 4, question: '"Drop the orders table" is irreversible and the charter is silent; stop and ask' },
    ]);
    // DECISIONS.md and the first call's lift of CHARTER.md (.CHARTER.md.rules), and the escalation's events.jsonl: nothing else.
    expect(filesBefore).toEqual(['.CHARTER.md.rules', 'DECISIONS.md']);
    expect(readdirSync(join(project, '.leopold')).sort()).toEqual([...filesBefore, 'events.jsonl']);
  });

  it('an irreversible step on a silent charter written as mechanical is the same mandatory stop: refused, and its escalation recorded', () => {
    record({ decisions: [DECISION] });
    const before = readFileSync(decisionsFile(), 'utf8');
    const result = record({ decisions: [{ title: 'Drop the legacy orders table', mechanical: true, item: 6, class: 'irreversible' }] });
    expect(result.code).toBe(1);
    expect(result.ack?.error).toContain('stop and ask the user instead');
    expect(result.ack?.error).toContain('The escalation for item 6 is recorded');
    expect(readFileSync(decisionsFile(), 'utf8')).toBe(before);
    const events = readFileSync(join(project, '.leopold', 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toEqual([{ ts: expect.any(String), event: 'escalation', item: 6, question: '"Drop the legacy orders table" is irreversible and the charter is silent; stop and ask' }]);
  });

  it('in a batch, the mandatory stop is the answer even after a refusal the agent could correct: the ack names the entry it escalates', () => {
    record({ decisions: [DECISION] });
    const result = record({ decisions: [{ ...DECISION, why: '' }, { ...DECISION, item: 7, title: 'Drop the orders table', class: 'irreversible', charter: 'silent' }] });
    expect(result.code).toBe(1);
    expect(result.ack?.error).toMatch(/^refused "Drop the orders table": it is irreversible and the charter is silent on it\..* The escalation for item 7 is recorded/);
    const events = readFileSync(join(project, '.leopold', 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toEqual([{ ts: expect.any(String), event: 'escalation', item: 7, question: '"Drop the orders table" is irreversible and the charter is silent; stop and ask' }]);
  });

  it('a fork decision written as mechanical is told to become a full entry, and nothing is escalated on that message, irreversible or not', () => {
    record({ decisions: [DECISION] });
    const result = record({ decisions: [{ title: 'Drop the orders table', mechanical: true, fork: 'human', item: 2, class: 'irreversible' }] });
    expect(result.code).toBe(1);
    expect(result.ack).toEqual({ ok: false, error: expect.stringMatching(/^refused "Drop the orders table": a decision at a human fork is never mechanical\. [^]*Persona and Reversal\.$/) });
    expect(existsSync(join(project, '.leopold', 'events.jsonl'))).toBe(false);
  });

  it('records no escalation for a refusal the agent can correct (no why), nor for one that names no item', () => {
    record({ decisions: [DECISION] });
    expect(record({ decisions: [{ ...DECISION, why: '' }] }).code).toBe(1);
    expect(record({ decisions: [{ ...DECISION, item: 'PLAN.md', title: 'Drop it', class: 'irreversible', charter: 'silent' }] }).code).toBe(1);
    expect(existsSync(join(project, '.leopold', 'events.jsonl'))).toBe(false);
  });

  it.each([
    ['bad JSON', '{"decisions": [', /not valid JSON/],
    ['empty input', '', /no input/],
  ])('answers %s with ok:false and exit 2', (_label, input, error) => {
    const result = record(input);
    expect(result.code).toBe(2);
    expect(result.ack).toEqual({ ok: false, error: expect.stringMatching(error) });
    expect(readdirSync(join(project, '.leopold'))).toEqual([]);
  });

  // A document that parses but is wrong is the agent's to correct: refused (exit 1), naming the field, nothing written.
  it.each([
    ['a value outside its enum', { decisions: [{ ...DECISION, class: 'sometimes' }] }, /decisions\.0\.class: expected one of "reversible", "irreversible", got the string "sometimes"/],
    ['a full entry without its charter', { decisions: [{ title: 'x', class: 'reversible', decision: 'd', why: 'w' }] }, /a full entry needs class, charter, decision, why; it has no charter/],
    ['an unknown fork', { decisions: [{ ...DECISION, fork: 'whim' }] }, /decisions\.0\.fork/],
    ['nothing to record', {}, /nothing to record/],
    ['an event without a name', { events: [{ item: 1 }] }, /events\.0\.event: missing/],
    ['an unknown event', { events: [{ event: 'failur', item: 1 }] }, /events\.0\.event: unknown event "failur"; expected one of failure, /],
    ['a string where a number belongs', { events: [{ event: 'tool', item: 4, command: 'npm test', exit: '1', output: 'x' }] }, /events\.0\.exit: expected an integer or null, got the string "1"/],
    ['an item number as a string', { events: [{ event: 'failure', item: '2', kind: 'verification', evidence: 'x' }] }, /events\.0\.item: expected an integer, got the string "2"/],
    ['an unfilled decision template', { decisions: [{ ...DECISION, decision: '<what you chose>' }] }, /decisions\.0\.decision: still holds the template's placeholder "<what you chose>"/],
    ['a placeholder inside a value', { decisions: [{ ...DECISION, reversal: 'Revert: <how to undo it, concretely>' }] }, /decisions\.0\.reversal: still holds/],
    ['an unfilled event template', { events: [{ event: 'failure', item: 2, kind: 'verification', evidence: '<what failed: the command and the lines of its output that show it>' }] }, /events\.0\.evidence: still holds/],
    ['an unfilled enum', { events: [{ event: 'gate', item: 2, verdict: '<pass|fail>', reasons: 'r' }] }, /events\.0\.verdict: expected one of "pass", "fail"/],
  ])('refuses %s with ok:false and exit 1, writing nothing', (_label, input, error) => {
    const result = record(input);
    expect(result.code).toBe(1);
    expect(result.ack).toEqual({ ok: false, error: expect.stringMatching(error) });
    expect(readdirSync(join(project, '.leopold'))).toEqual([]);
  });

  it('answers exit 2 when there is no .leopold/ above the working directory', () => {
    const bare = tempDir('leopold-bare-');
    const result = record({ decisions: [DECISION] }, { cwd: bare });
    expect(result.code).toBe(2);
    expect(result.ack).toEqual({ ok: false, error: expect.stringContaining('no .leopold/ directory') });
  });

  it('answers --help', () => {
    const result = spawnSync(process.execPath, [bin, 'record', '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('--base64 <text>');
  });
});

describe('leopold record: the API error a workflow agent died on, in the ack', () => {
  const writeState = (state: Record<string, unknown>) => writeFileSync(join(project, '.leopold', 'state.json'), JSON.stringify(state));
  const FAILED = { error: 'server_error', retryable: true, at: '2026-01-01T00:00:00.000Z' };
  const EVENT = { events: [{ event: 'turn', item: 1, iteration: 1 }] };

  it("reports the active workflow run's api_error (kept by the StopFailure hook) in every ack until the run ends", () => {
    writeState({ version: 1, active: true, engine: 'workflow', api_error: FAILED });
    expect(record(EVENT)).toMatchObject({ code: 0, stdout: '{"ok":true,"numbers":[],"events":1,"api_error":{"error":"server_error","retryable":true}}\n' });
    expect(record(EVENT).ack).toEqual({ ok: true, numbers: [], events: 1, api_error: { error: 'server_error', retryable: true } });
    // A decision recorded alongside: the numbers and the error both.
    expect(record({ decisions: [DECISION] }).ack).toEqual({ ok: true, numbers: [1], path: '.leopold/DECISIONS.md', api_error: { error: 'server_error', retryable: true } });
  });

  it('reports nothing for a session run, an ended run, a run without one, or a state it cannot read; a refused record reports nothing either', () => {
    const states: (Record<string, unknown> | string | null)[] = [
      { version: 1, active: true, engine: 'session', api_error: FAILED },
      { version: 1, active: false, engine: 'workflow', stop_reason: 'api_error', api_error: FAILED },
      { version: 1, active: true, engine: 'workflow' },
      { version: 1, active: true, engine: 'workflow', api_error: 'server_error' },
      'not json',
      null,
    ];
    for (const state of states) {
      rmSync(join(project, '.leopold', 'state.json'), { force: true });
      if (typeof state === 'string') writeFileSync(join(project, '.leopold', 'state.json'), state);
      else if (state !== null) writeState(state);
      expect(record(EVENT)).toMatchObject({ code: 0, ack: { ok: true, numbers: [], events: 1 } });
      expect(record(EVENT).ack).not.toHaveProperty('api_error');
    }
    writeState({ version: 1, active: true, engine: 'workflow', api_error: FAILED });
    expect(record({ decisions: [{ title: 'no why', class: 'reversible', charter: 'silent', decision: 'x', why: '', reversal: 'y' }] }).ack).toMatchObject({ ok: false });
    expect(record({ decisions: [{ title: 'no why', class: 'reversible', charter: 'silent', decision: 'x', why: '', reversal: 'y' }] }).ack).not.toHaveProperty('api_error');
  });
});

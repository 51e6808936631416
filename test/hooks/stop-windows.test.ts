import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtHook } from '../support/built-dist.js';
import { blockOf, messageOf } from '../support/stop-output.js';

// The context windows of the in-session engine (docs/runtime.md), through the BUILT
// `node dist/hooks/stop.js` with real hook JSON on stdin and a real transcript file of a
// chosen size (sparse, so 5 MiB costs nothing): the roll past max_context_mb (CHECKPOINT.md,
// window event, the stop allowed, the run still active), the next session's first turn
// pointed at the checkpoint, and the two window stops.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-stop-windows-')));
let hook: string[] = [];

beforeAll(async () => {
  hook = (await builtHook(work, 'stop'))['dist/hooks/stop.js']!;
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MIB = 1024 * 1024;
const PLAN = '# Plan\n\n- [x] Set up\n- [ ] Count words\n- [ ] Add --json\n- [ ] @gate (docs) Write the README\n';
const ACTIVE = { version: 1, active: true, engine: 'session', started_at: '2020-01-01T00:00:00.000Z' };

let n = 0;
function project(files: Record<string, string> = {}): string {
  const dir = join(work, `p${n++}`);
  mkdirSync(join(dir, '.leopold'), { recursive: true });
  writeFileSync(join(dir, '.leopold', 'state.json'), JSON.stringify(ACTIVE));
  writeFileSync(join(dir, '.leopold', 'PLAN.md'), PLAN);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, '.leopold', name), text);
  return dir;
}

/** A transcript of exactly `bytes` bytes for `session` (sparse: the size is what the hook reads). */
function transcript(dir: string, session: string, bytes: number): string {
  const path = join(dir, `${session}.jsonl`);
  writeFileSync(path, '');
  truncateSync(path, bytes);
  return path;
}

/** One Stop of `session` whose transcript is `bytes` long (null: the input names no transcript). */
function stop(dir: string, session: string, bytes: number | null, extra: Record<string, unknown> = {}) {
  const input = {
    session_id: session,
    ...(bytes === null ? {} : { transcript_path: transcript(dir, session, bytes) }),
    cwd: dir,
    hook_event_name: 'Stop',
    stop_hook_active: false,
    background_tasks: [],
    ...extra,
  };
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CLAUDE_PROJECT_DIR;
  delete env.LEOPOLD_AUTONOMY;
  const out = spawnSync(process.execPath, hook, { input: JSON.stringify(input), cwd: dir, encoding: 'utf8', env });
  return { stdout: out.stdout, stderr: out.stderr, status: out.status };
}

const stateOf = (dir: string) => JSON.parse(readFileSync(join(dir, '.leopold', 'state.json'), 'utf8')) as Record<string, unknown>;
const eventsOf = (dir: string) =>
  readFileSync(join(dir, '.leopold', 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const checkpointOf = (dir: string) => readFileSync(join(dir, '.leopold', 'CHECKPOINT.md'), 'utf8');
const tick = (dir: string, index: number) => {
  const path = join(dir, '.leopold', 'PLAN.md');
  const lines = readFileSync(path, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith('- [')) + index - 1;
  lines[at] = lines[at]!.replace('- [ ]', '- [x]');
  writeFileSync(path, lines.join('\n'));
};
const report = (dir: string, event: Record<string, unknown>) =>
  appendFileSync(join(dir, '.leopold', 'events.jsonl'), `${JSON.stringify({ ts: '2030-01-01T00:00:00.000Z', ...event })}\n`);

const DECISIONS =
  '# Decisions\n\n' +
  '## D1 — Use a streaming parser   (turn 1, 2030-01-01T00:00:00Z)\nFork:        escalation — item 2\nClass:       reversible\nCharter:     silent\nDecision:    stream\nWhy:         bias to action\nReversal:    Swap it back.\n\n' +
  '## D2 — Count words per line   (turn 1, 2030-01-01T00:00:01Z)\nFork:        escalation — item 2\nClass:       reversible\nCharter:     silent\nDecision:    per line\nWhy:         simplest\nReversal:    Count per file.\n';

describe('context windows (dist/hooks/stop.js)', () => {
  it('a transcript of exactly max_context_mb is under the budget: the normal block, no window closed', () => {
    const dir = project();
    expect(blockOf(stop(dir, 's1', 5 * MIB))).toMatch(/^Leopold run protocol[\s\S]*\n\nLeopold run, turn 1 of at most 50\. Work on item 2 now/);
    expect(stateOf(dir)).toMatchObject({ active: true, iteration: 1, windows: 0, windows_without_progress: 0 });
    expect(existsSync(join(dir, '.leopold', 'CHECKPOINT.md'))).toBe(false);
  });

  it('past max_context_mb: the stop is allowed, CHECKPOINT.md written, the window counted, the run still active; the next session resumes from it', () => {
    const dir = project({ 'DECISIONS.md': DECISIONS });
    expect(blockOf(stop(dir, 's1', 1000))).toMatch(/item 2 now/);
    // The session fails item 2 once (it is still open), then its transcript passes 5 MiB.
    report(dir, { event: 'failure', item: 2, kind: 'verification', evidence: '2 failing' });
    const message = messageOf(stop(dir, 's1', 5 * MIB + 1));
    expect(message).toContain('the context window is full');
    expect(message).toContain('(5.0 MB) passed max_context_mb (5 MB)');
    expect(message).toContain('Window 1 of at most 10 closed');
    expect(message).toContain('the run stays active');
    expect(message).toContain(`Checkpoint: ${join(dir, '.leopold', 'CHECKPOINT.md')}`);
    expect(message).toContain('start a fresh Claude Code session in this project and run /leopold-run');
    expect(message).toContain('next: item 2, "Count words"');

    expect(checkpointOf(dir)).toBe(
      [
        '# Leopold checkpoint',
        '',
        'Context window 1 of at most 10 closed: the session transcript passed max_context_mb (5 MB). It closed 0 items.',
        'The run is still active: continue it, do not start a new one.',
        '',
        '## Run',
        '',
        '- Engine: session · started: 2020-01-01T00:00:00.000Z',
        '- Turns: 1 of at most 50 · turns without a plan change: 0 (limit 6)',
        '- Windows closed: 1 of at most 10 · in a row without closing an item: 1 (the run stops at 2)',
        '- Failures: 1 (verification: 1) · rescue used: no · plan changes: 0/3',
        '',
        '## Items: 1 of 4 done',
        '',
        'Done: 1',
        '',
        'Open:',
        '- item 2: Count words',
        '- item 3: Add --json',
        '- item 4: @gate (docs) Write the README',
        '',
        '## Next',
        '',
        'Item 2: Count words',
        '',
        '## Recent decisions',
        '',
        '- D1 Use a streaming parser',
        '- D2 Count words per line',
        '',
        '## Open failures',
        '',
        '- Failure streak: 1 consecutive verification failure (ceiling 3)',
        '',
        '## Continue',
        '',
        'Start a fresh Claude Code session in this project and run /leopold-run. It resumes this run:',
        'read this file, end your first turn, and the Stop hook hands out item 2.',
        'Never run `leopold run start --force` to continue: it discards the run.',
        '',
      ].join('\n'),
    );
    expect(stateOf(dir)).toMatchObject({
      active: true,
      stop_reason: null,
      iteration: 1,
      windows: 1,
      windows_without_progress: 1,
      failures: { verification: 1 },
      hook: { pending: null, window: { session: 's1', done: 1, rolled: true } },
    });
    expect(eventsOf(dir).at(-1)).toMatchObject({ event: 'window', window: 1, cause: 'context_budget', closed: 0, transcript_bytes: 5 * MIB + 1, checkpoint: '.leopold/CHECKPOINT.md' });
    expect(eventsOf(dir).some((e) => e.event === 'stop')).toBe(false);

    // The rolled session is no longer conducted: never blocked, never rolled twice, nothing changes.
    const before = readFileSync(join(dir, '.leopold', 'state.json'), 'utf8');
    expect(messageOf(stop(dir, 's1', 5 * MIB + 1))).toMatch(/context window was closed \(window 1 of at most 10\).*\/leopold-run/);
    expect(readFileSync(join(dir, '.leopold', 'state.json'), 'utf8')).toBe(before);

    // A fresh session: its first turn is pointed at CHECKPOINT.md, and gets the same item.
    const resumed = blockOf(stop(dir, 's2', 2000));
    expect(resumed).toMatch(/^Leopold run: this session is context window 2 of an active run\. Read \.leopold\/CHECKPOINT\.md first/);
    expect(resumed).toMatch(/turn 2 of at most 50\. Work on item 2 now, and only on it: Count words/);
    expect(stateOf(dir)).toMatchObject({ active: true, iteration: 2, windows: 1, hook: { window: { session: 's2', done: 1, rolled: false } } });
    // Its later turns are plain.
    tick(dir, 2);
    const later = blockOf(stop(dir, 's2', 3000));
    expect(later).not.toContain('CHECKPOINT.md');
    expect(later).toMatch(/^Leopold run, turn 3 .*item 3 now/);
  });

  it('after a takeover, the next session opens a window even without a roll: the old one closes (cause new_session) and leaves its checkpoint', () => {
    const dir = project();
    blockOf(stop(dir, 's1', 1000));
    tick(dir, 2);
    // Another session is a bystander until the user hands the run over (`leopold run takeover` from a terminal: no owner).
    expect(stop(dir, 's2', 1000)).not.toContain('"decision"');
    writeFileSync(join(dir, '.leopold', 'state.json'), JSON.stringify({ ...stateOf(dir), owner: null }));
    const reason = blockOf(stop(dir, 's2', 1000));
    expect(reason).toMatch(/context window 2 of an active run\. Read \.leopold\/CHECKPOINT\.md first[\s\S]*item 3 now/);
    expect(checkpointOf(dir)).toMatch(/^Context window 1 of at most 10 closed: a Stop came from a new session\. It closed 1 item\.$/m);
    expect(checkpointOf(dir)).toMatch(/## Next\n\nItem 3: Add --json\n/);
    expect(stateOf(dir)).toMatchObject({ active: true, iteration: 2, windows: 1, windows_without_progress: 0 });
    expect(eventsOf(dir).slice(-2)).toMatchObject([
      { event: 'window', window: 1, cause: 'new_session', closed: 1, checkpoint: '.leopold/CHECKPOINT.md' },
      { event: 'turn', item: 3, iteration: 2 },
    ]);
  });

  it('max_windows reached: the run ends max_windows with the summary', () => {
    const dir = project({ 'GUARDRAILS.md': '- max_windows: 2\n' });
    blockOf(stop(dir, 's1', 1000));
    tick(dir, 2);
    messageOf(stop(dir, 's1', 6 * MIB)); // window 1 rolls, having closed item 2
    expect(stateOf(dir)).toMatchObject({ active: true, windows: 1, windows_without_progress: 0 });
    expect(blockOf(stop(dir, 's2', 1000))).toMatch(/CHECKPOINT\.md[\s\S]*item 3 now/);
    tick(dir, 3);
    const message = messageOf(stop(dir, 's2', 6 * MIB)); // window 2 is the last one
    expect(message).toMatch(/^Leopold run ended: max_windows\n/);
    expect(message).toContain('Plan: 3/4 items done');
    expect(message).toMatch(/^Why: 2 of 2 context windows used$/m);
    expect(stateOf(dir)).toMatchObject({ active: false, stop_reason: 'max_windows', windows: 2, windows_without_progress: 0 });
    expect(eventsOf(dir).slice(-2)).toMatchObject([
      { event: 'window', window: 2, cause: 'context_budget', closed: 1 },
      { event: 'stop', reason: 'max_windows', engine: 'session', done: 3, total: 4 },
    ]);
    expect(stop(dir, 's3', 1000)).toEqual({ stdout: '', stderr: '', status: 0 }); // the run is over
  });

  it('two windows in a row that closed no item end the run no_progress_across_windows', () => {
    const dir = project();
    blockOf(stop(dir, 's1', 1000));
    messageOf(stop(dir, 's1', 6 * MIB)); // window 1: no item closed
    expect(stateOf(dir)).toMatchObject({ active: true, windows: 1, windows_without_progress: 1 });
    blockOf(stop(dir, 's2', 1000));
    const message = messageOf(stop(dir, 's2', 6 * MIB)); // window 2: none either
    expect(message).toMatch(/^Leopold run ended: no_progress_across_windows\n/);
    expect(message).toMatch(/^Why: 2 windows in a row closed no item$/m);
    expect(stateOf(dir)).toMatchObject({ active: false, stop_reason: 'no_progress_across_windows', windows: 2, windows_without_progress: 2 });
    expect(eventsOf(dir).at(-1)).toMatchObject({ event: 'stop', reason: 'no_progress_across_windows' });
  });

  it('a transcript the hook cannot size (no path, missing file, a directory) is unknown: the normal turn, never a roll', () => {
    const dir = project({ 'GUARDRAILS.md': '- max_context_mb: 0.000001\n' });
    expect(blockOf(stop(dir, 's1', null))).toMatch(/turn 1 .*item 2 now/);
    expect(blockOf(stop(dir, 's1', null, { transcript_path: join(dir, 'gone.jsonl') }))).toMatch(/turn 2 .*item 2 now/);
    expect(blockOf(stop(dir, 's1', null, { transcript_path: dir }))).toMatch(/turn 3 .*item 2 now/);
    expect(blockOf(stop(dir, 's1', null, { transcript_path: 42 }))).toMatch(/turn 4 .*item 2 now/);
    expect(stateOf(dir)).toMatchObject({ active: true, windows: 0 });
    expect(existsSync(join(dir, '.leopold', 'CHECKPOINT.md'))).toBe(false);
  });

  it('a stop condition earlier in the order beats the roll (plan complete, kill switch)', () => {
    const dir = project();
    for (const i of [2, 3, 4]) tick(dir, i);
    expect(messageOf(stop(dir, 's1', 6 * MIB))).toMatch(/^Leopold run ended: plan_complete/);
    const killed = project({ STOP: '' });
    expect(messageOf(stop(killed, 's1', 6 * MIB))).toMatch(/^Leopold run ended: kill_switch/);
    expect(stateOf(killed)).toMatchObject({ windows: 0 });
  });

  it('fails open: a checkpoint that cannot be written leaves the state untouched and prints nothing', () => {
    const dir = project();
    blockOf(stop(dir, 's1', 1000));
    mkdirSync(join(dir, '.leopold', 'CHECKPOINT.md')); // rename onto a directory fails
    const before = readFileSync(join(dir, '.leopold', 'state.json'), 'utf8');
    expect(stop(dir, 's1', 6 * MIB)).toEqual({ stdout: '', stderr: '', status: 0 });
    expect(readFileSync(join(dir, '.leopold', 'state.json'), 'utf8')).toBe(before);
    expect(statSync(join(dir, '.leopold', 'CHECKPOINT.md')).isDirectory()).toBe(true);
    expect(eventsOf(dir).at(-1)).toMatchObject({ event: 'error', hook: 'stop' });
  });
});

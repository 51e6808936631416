import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtHook } from '../support/built-dist.js';
import { blockOf, messageOf } from '../support/stop-output.js';

// The BUILT Stop hook with real hook JSON on stdin: `node dist/hooks/stop.js` (what
// `leopold init` registers) and `node dist/leopold.js hook stop` must answer alike, always
// exit 0, and never block when they cannot count the turn.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-stop-bin-')));
let bins: Record<string, string[]> = {};

beforeAll(async () => {
  bins = await builtHook(work, 'stop');
  chmodSync(work, 0o755); // the read-only case runs the hook as nobody
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const PLAIN = '# Plan\n\n- [ ] First thing\n- [ ] Second thing\n';
const ACTIVE = { version: 1, active: true, engine: 'session', started_at: '2020-01-01T00:00:00.000Z' };

let n = 0;
function project(options: { state?: unknown; plan?: string | null; files?: Record<string, string> } = {}): string {
  const dir = join(work, `p${n++}`);
  mkdirSync(join(dir, '.leopold'), { recursive: true });
  const state = options.state === undefined ? ACTIVE : options.state;
  if (state !== null) writeFileSync(join(dir, '.leopold', 'state.json'), typeof state === 'string' ? state : JSON.stringify(state));
  const plan = options.plan === undefined ? PLAIN : options.plan;
  if (plan !== null) writeFileSync(join(dir, '.leopold', 'PLAN.md'), plan);
  for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(dir, '.leopold', name), text);
  return dir;
}

const stopInput = (cwd: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    session_id: 's1',
    transcript_path: join(cwd, 'transcript.jsonl'),
    cwd,
    hook_event_name: 'Stop',
    permission_mode: 'default',
    stop_hook_active: false,
    last_assistant_message: 'Done with the item.',
    background_tasks: [],
    ...extra,
  });

function run(bin: string, stdin: string, opts: { cwd?: string; env?: NodeJS.ProcessEnv; asNobody?: boolean } = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CLAUDE_PROJECT_DIR;
  delete env.LEOPOLD_AUTONOMY;
  Object.assign(env, opts.env);
  const argv = opts.asNobody
    ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, ...bins[bin]!]]
    : [process.execPath, bins[bin]!];
  const out = spawnSync(argv[0] as string, argv[1] as string[], { input: stdin, cwd: opts.cwd ?? work, encoding: 'utf8', env });
  return { code: out.status, status: out.status, stdout: out.stdout, stderr: out.stderr };
}

const stateOf = (dir: string) => JSON.parse(readFileSync(join(dir, '.leopold', 'state.json'), 'utf8')) as Record<string, unknown>;
const eventsOf = (dir: string) =>
  existsSync(join(dir, '.leopold', 'events.jsonl'))
    ? readFileSync(join(dir, '.leopold', 'events.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
const silent = { code: 0, status: 0, stdout: '', stderr: '' };

const setprivWorks = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', '0']).status === 0;

describe.each(['dist/hooks/stop.js', 'dist/leopold.js hook stop'])('%s', (bin) => {
  it('says nothing without a .leopold/, without state, or with an inactive run', () => {
    expect(run(bin, stopInput(join(work, 'nowhere')))).toEqual(silent);
    for (const state of [null, { version: 1, active: false }]) {
      const dir = project({ state });
      expect(run(bin, stopInput(dir))).toEqual(silent);
    }
  });

  it('blocks with the next item, the record protocol and one more turn counted', () => {
    const dir = project();
    const reason = blockOf(run(bin, stopInput(dir)));
    expect(reason).toMatch(/Work on item 1 now, and only on it: First thing/);
    expect(reason).toContain('leopold plan tick 1');
    // The first turn carries the run's protocol: how to record, the decision protocol and its templates.
    expect(reason).toMatch(/^Leopold run protocol/);
    expect(reason).toContain('write the JSON with the Write tool to .leopold/record.json, then run: node_modules/.bin/leopold record < .leopold/record.json');
    expect(reason).toMatch(/Decision protocol/);
    expect(reason).toContain('{"events":[{"event":"failure","item":1,"kind":"<implementer|blocked|partial|verification|review>","evidence":"<what failed');
    expect(stateOf(dir)).toMatchObject({ iteration: 1, hook: { pending: { item: 1 }, protocol: true } });
    // The same item again while nothing was reported; the turn counter keeps counting. The protocol is not sent again.
    const again = blockOf(run(bin, stopInput(dir)));
    expect(again).toMatch(/^Leopold run, turn 2 .*item 1 now/);
    expect(again).not.toContain('Decision protocol');
    expect(again).toContain('as the protocol says');
    writeFileSync(join(dir, '.leopold', 'PLAN.md'), PLAIN.replace('- [ ] First', '- [x] First'));
    expect(blockOf(run(bin, stopInput(dir)))).toMatch(/item 2 now, and only on it: Second thing/);
  });

  it('finds .leopold/ from CLAUDE_PROJECT_DIR first, else the input cwd, walking up', () => {
    const dir = project();
    mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
    expect(blockOf(run(bin, stopInput(join(dir, 'src', 'deep'))))).toMatch(/item 1/);
    expect(blockOf(run(bin, stopInput(join(work, 'nowhere')), { env: { CLAUDE_PROJECT_DIR: dir } }))).toMatch(/item 1/);
  });

  it('allows the stop while a workflow runs in background_tasks, and never blocks a workflow-engine run', () => {
    const dir = project();
    expect(run(bin, stopInput(dir, { background_tasks: [{ id: 'w1', type: 'workflow', description: 'leopold-workflow-run' }] }))).toEqual(silent);
    const wf = project({ state: { ...ACTIVE, engine: 'workflow' } });
    expect(run(bin, stopInput(wf))).toEqual(silent);
    expect(stateOf(dir).iteration ?? 0).toBe(0);
  });

  it('ends the run at a stop condition with the summary and What I decided for you', () => {
    const dir = project({ plan: '- [x] First thing\n- [x] Second thing\n' });
    writeFileSync(
      join(dir, '.leopold', 'DECISIONS.md'),
      '# Decisions\n\n## D1 — Ship to production on Friday   (turn 1, 2030-01-01T00:00:00Z)\nFork:        escalation — item 1\nClass:       reversible\nCharter:     silent\nDecision:    Friday\nWhy:         bias to action\nReversal:    Roll back.\n',
    );
    const message = messageOf(run(bin, stopInput(dir)));
    expect(message).toMatch(/^Leopold run ended: plan_complete/);
    expect(message).toContain('What I decided for you');
    expect(message).toContain('  1. [escalation] No persona — default worker (D1): Friday\n     Reversal: Roll back.');
    expect(stateOf(dir)).toMatchObject({ active: false, stop_reason: 'plan_complete' });
    expect(eventsOf(dir).at(-1)).toMatchObject({ event: 'stop', reason: 'plan_complete', engine: 'session' });
    expect(run(bin, stopInput(dir))).toEqual(silent); // the run is over
  });

  it('the kill switch ends the run first', () => {
    const dir = project({ files: { STOP: '' } });
    expect(messageOf(run(bin, stopInput(dir)))).toMatch(/ended: kill_switch/);
  });

  it('@human under ask stops awaiting_human naming the item; under full it carries the charter rules and persona shape', () => {
    const plan = '- [ ] @human Pick the licence\n- [ ] Write the README\n';
    const charter = '# Charter\n\n## Never\n\n- Never use a copyleft licence.\n';
    const ask = project({ plan, files: { 'GUARDRAILS.md': '- autonomy: ask\n', 'CHARTER.md': charter } });
    expect(messageOf(run(bin, stopInput(ask)))).toMatch(/awaiting_human[\s\S]*item 1 \("Pick the licence"\)/);
    const full = project({ plan, files: { 'CHARTER.md': charter } });
    const reason = blockOf(run(bin, stopInput(full)));
    expect(reason).toContain('- Never use a copyleft licence.');
    expect(reason).toContain('"fork":"human","item":1,"subject":"Pick the licence","turn":1,"persona":{"name":"<name>","role":"<a specific job, never a generic role>","expertise":["<expertise>"]}');
    // LEOPOLD_AUTONOMY beats GUARDRAILS, spelled any way.
    const env = project({ plan, files: { 'CHARTER.md': charter } });
    expect(messageOf(run(bin, stopInput(env), { env: { LEOPOLD_AUTONOMY: 'HALT' } }))).toMatch(/awaiting_human/);
  });

  it('fails open: corrupt state.json, missing PLAN.md, empty and garbage stdin all exit 0 without blocking', () => {
    for (const corrupt of ['{not json', '', '{"active":"yes"}', '[true]', '{"active":true,"iteration":-4}']) {
      expect(run(bin, stopInput(project({ state: corrupt })))).toEqual(silent);
    }
    const noPlan = project({ plan: null });
    expect(run(bin, stopInput(noPlan))).toEqual(silent);
    expect(eventsOf(noPlan).at(-1)).toMatchObject({ event: 'error', hook: 'stop' });
    expect(stateOf(noPlan).iteration ?? 0).toBe(0);
    const dir = project();
    for (const stdin of ['', '   \n', 'garbage', '{"cwd":', '[1,2]', 'null', '\u0000\u0001\u0002']) {
      expect(run(bin, stdin, { cwd: dir })).toEqual(silent);
    }
  });

  it.skipIf(!setprivWorks)('a read-only .leopold/ (run as nobody: chmod does not stop root) lets the session stop, untouched', () => {
    const dir = project();
    chmodSync(join(dir, '.leopold'), 0o555);
    for (const f of ['state.json', 'PLAN.md']) chmodSync(join(dir, '.leopold', f), 0o444);
    chmodSync(dir, 0o755);
    try {
      const before = readFileSync(join(dir, '.leopold', 'state.json'), 'utf8');
      expect(run(bin, stopInput(dir), { asNobody: true })).toMatchObject({ code: 0, stdout: '' });
      expect(readFileSync(join(dir, '.leopold', 'state.json'), 'utf8')).toBe(before);
    } finally {
      chmodSync(join(dir, '.leopold'), 0o755);
    }
  });
});

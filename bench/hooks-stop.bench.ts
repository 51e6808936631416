import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bareNode, coldLatency, dist, LATENCY_COLUMNS, type ColdCase } from './cold-process.js';
import type { BenchTable } from './run.js';
import { benchTempDir } from './temp.js';

const here = resolve(fileURLToPath(new URL('.', import.meta.url)));
const RUNS = 50;
const TARGET = 3;

/** A realistic Stop input: the main session finished a turn, nothing in the background. */
function input(project: string): string {
  return JSON.stringify({
    session_id: '9f1c2d3e-bench',
    transcript_path: join(project, '.claude', 'transcript.jsonl'),
    cwd: project,
    hook_event_name: 'Stop',
    permission_mode: 'default',
    stop_hook_active: true,
    last_assistant_message: 'Item 2 is implemented and its tests pass; ticked it.',
    background_tasks: [],
  });
}

// An active session run a few turns in, its last item reported done (so the hook folds an
// outcome, routes, and hands out the next item).
const STATE = {
  version: 1,
  active: true,
  engine: 'session',
  started_at: '2030-01-01T00:00:00.000Z',
  iteration: 3,
  last_done: 1,
  hook: { pending: { item: 2, offset: 0, rescue: false }, waves: null },
};

/** Stop-hook latency per call: cold `node` processes beside a bare node start, interleaved. */
export default async function stopHookBench(): Promise<BenchTable> {
  const project = benchTempDir('leopold-bench-stop-');
  const leo = join(project, '.leopold');
  mkdirSync(leo);
  // The example brief: a routed plan with a @tool, a @gate and a @human node, and a charter.
  for (const f of ['MISSION.md', 'CHARTER.md', 'GUARDRAILS.md']) copyFileSync(join(here, '../fixtures/example/.leopold', f), join(leo, f));
  writeFileSync(join(leo, 'PLAN.md'), readFileSync(join(here, '../fixtures/example/.leopold/PLAN.md'), 'utf8').replace('- [ ] (after: #setup) Count', '- [x] (after: #setup) Count'));
  const fresh = () => writeFileSync(join(leo, 'state.json'), JSON.stringify(STATE));
  const done = JSON.stringify({ ...STATE, hook: null });
  const stdin = input(project);
  const env: NodeJS.ProcessEnv = { ...process.env, CLAUDE_PROJECT_DIR: project };
  delete env.LEOPOLD_AUTONOMY;
  const cases: ColdCase[] = [
    bareNode(stdin),
    { label: 'node dist/hooks/stop.js (block: next item)', args: [join(dist, 'hooks', 'stop.js')], stdin, prepare: fresh, expect: /Work on item \d+ now/, status: 2 },
    { label: 'node dist/hooks/stop.js (no active run)', args: [join(dist, 'hooks', 'stop.js')], stdin, prepare: () => writeFileSync(join(leo, 'state.json'), JSON.stringify({ ...JSON.parse(done), active: false })), expect: /^$/ },
    { label: 'node dist/leopold.js hook stop (block)', args: [join(dist, 'leopold.js'), 'hook', 'stop'], stdin, prepare: fresh, expect: /Work on item \d+ now/, status: 2 },
  ];
  const { rows, ratios } = coldLatency(cases, { cwd: project, env, runs: RUNS });
  rmSync(project, { recursive: true, force: true });
  const ratio = ratios[1]!;
  return {
    title: 'Stop hook: latency per call (median of 50 cold process runs)',
    columns: LATENCY_COLUMNS,
    rows,
    notes: [
      `Target: the Stop hook at most ${TARGET}x a bare \`node -e 0\` start. Measured: ${ratio.toFixed(2)}x (${ratio <= TARGET ? 'met' : 'NOT met'}).`,
      'Each run is a fresh process with a realistic Stop JSON on stdin and an active session run (state.json rewritten before every call) on the example brief: the hook folds the last item\'s tick, routes, checks the stop conditions, writes state.json under its lock, appends a turn event and prints the block reason. Interleaved round by round (3 warm-up rounds discarded).',
      'dist/hooks/stop.js has no commander but does load zod (state.json), and holds remark, which it runs only for a PLAN.md that is neither its kept parse nor a plain plan (runtime/plan/parse/plain.ts) and for CHARTER.md at a persona fork; GUARDRAILS.md is read line by line: zod, without its locales, is about half of the ~400 KB bundle and most of the cost over a bare start, even when no run is active.',
    ],
  };
}

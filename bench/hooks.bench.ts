import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bareNode, coldLatency, dist, LATENCY_COLUMNS, type ColdCase } from './cold-process.js';
import type { BenchTable } from './run.js';
import { benchTempDir } from './temp.js';

const RUNS = 50;
const TARGET = 1.5;

/** A realistic PreToolUse input: a Bash call in a project with an active run. */
function input(project: string, command: string): string {
  return JSON.stringify({
    session_id: '9f1c2d3e-bench',
    transcript_path: join(project, '.claude', 'transcript.jsonl'),
    cwd: project,
    hook_event_name: 'PreToolUse',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command, description: 'Run the tests and show status' },
    tool_use_id: 'toolu_bench',
  });
}

/** PreToolUse guard latency per call: cold `node` processes, interleaved so load drift hits every row alike. */
export default async function hooksBench(): Promise<BenchTable> {
  const project = benchTempDir('leopold-bench-hooks-');
  mkdirSync(join(project, '.leopold'));
  writeFileSync(join(project, '.leopold', 'state.json'), JSON.stringify({ version: 1, active: true, engine: 'session' }));
  const allowed = input(project, 'npm test 2>&1 | tail -20 && git status --short && git diff --stat');
  const denied = input(project, 'npm test && git add -A && git commit -m "wip" && git push origin HEAD');
  const env = { ...process.env, CLAUDE_PROJECT_DIR: project };
  const cases: ColdCase[] = [
    bareNode(allowed),
    { label: 'node dist/hooks/guard.js (allowed command)', args: [join(dist, 'hooks', 'guard.js')], stdin: allowed, expect: /^$/ },
    { label: 'node dist/hooks/guard.js (denied command)', args: [join(dist, 'hooks', 'guard.js')], stdin: denied, expect: /\S/ },
    { label: 'node dist/leopold.js hook guard (allowed)', args: [join(dist, 'leopold.js'), 'hook', 'guard'], stdin: allowed, expect: /^$/ },
  ];
  const { rows, ratios } = coldLatency(cases, { cwd: project, env, runs: RUNS });
  rmSync(project, { recursive: true, force: true });
  const guardRatio = ratios[1]!;
  return {
    title: 'PreToolUse guard: latency per call (median of 50 cold process runs)',
    columns: LATENCY_COLUMNS,
    rows,
    notes: [
      `Target: the guard at most ${TARGET}x a bare \`node -e 0\` start. Measured: ${guardRatio.toFixed(2)}x (${guardRatio <= TARGET ? 'met' : 'NOT met'}).`,
      'Each run is a fresh process given a realistic hook JSON on stdin with an active run in .leopold/state.json; the four commands are interleaved round by round (3 warm-up rounds discarded) so machine load affects them alike.',
      '`leopold hook guard` loads commander and the guard from their chunks of dist/leopold.js; `leopold init` registers dist/hooks/guard.js directly, which needs neither.',
    ],
  };
}

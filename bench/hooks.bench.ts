import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchTable } from './run.js';

const dist = resolve(fileURLToPath(new URL('.', import.meta.url)), '../dist');
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

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

/** PreToolUse guard latency per call: cold `node` processes, interleaved so load drift hits every row alike. */
export default async function hooksBench(): Promise<BenchTable> {
  const project = mkdtempSync(join(tmpdir(), 'leopold-bench-hooks-'));
  mkdirSync(join(project, '.leopold'));
  writeFileSync(join(project, '.leopold', 'state.json'), JSON.stringify({ version: 1, active: true, engine: 'session' }));
  const allowed = input(project, 'npm test 2>&1 | tail -20 && git status --short && git diff --stat');
  const denied = input(project, 'npm test && git add -A && git commit -m "wip" && git push origin HEAD');
  const env = { ...process.env, CLAUDE_PROJECT_DIR: project };
  const cases: { label: string; args: string[]; stdin: string; expectOutput: boolean | null }[] = [
    { label: 'node -e 0 (bare start)', args: ['-e', '0'], stdin: allowed, expectOutput: null },
    { label: 'node dist/hooks/guard.js (allowed command)', args: [join(dist, 'hooks', 'guard.js')], stdin: allowed, expectOutput: false },
    { label: 'node dist/hooks/guard.js (denied command)', args: [join(dist, 'hooks', 'guard.js')], stdin: denied, expectOutput: true },
    { label: 'node dist/leopold.js hook guard (allowed)', args: [join(dist, 'leopold.js'), 'hook', 'guard'], stdin: allowed, expectOutput: false },
  ];
  const times = cases.map(() => [] as number[]);
  for (let round = -3; round < RUNS; round++) {
    cases.forEach((c, i) => {
      const started = performance.now();
      const out = spawnSync(process.execPath, c.args, { input: c.stdin, cwd: project, env, encoding: 'utf8' });
      const ms = performance.now() - started;
      if (out.status !== 0) throw new Error(`${c.label} exited ${out.status}: ${out.stderr}`);
      if (c.expectOutput !== null && (out.stdout !== '') !== c.expectOutput) throw new Error(`${c.label}: unexpected output ${JSON.stringify(out.stdout)}`);
      if (round >= 0) times[i]!.push(ms);
    });
  }
  rmSync(project, { recursive: true, force: true });
  const bare = median(times[0]!);
  const rows = cases.map((c, i) => {
    const m = median(times[i]!);
    return [c.label, RUNS, m.toFixed(1), (m - bare).toFixed(1), (m / bare).toFixed(2)];
  });
  const guardRatio = median(times[1]!) / bare;
  return {
    title: 'PreToolUse guard: latency per call (median of 50 cold process runs)',
    columns: ['command', 'runs', 'median ms', 'over bare node ms', 'ratio to node -e 0'],
    rows,
    notes: [
      `Target: the guard at most ${TARGET}x a bare \`node -e 0\` start. Measured: ${guardRatio.toFixed(2)}x (${guardRatio <= TARGET ? 'met' : 'NOT met'}).`,
      'Each run is a fresh process given a realistic hook JSON on stdin with an active run in .leopold/state.json; the four commands are interleaved round by round (3 warm-up rounds discarded) so machine load affects them alike.',
      '`leopold hook guard` loads the whole CLI (commander, zod, remark); `leopold init` registers dist/hooks/guard.js directly for that reason.',
    ],
  };
}

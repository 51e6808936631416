import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeCommand } from '../runtime/hooks/guard/analyze/analyze.js';
import { readBounded, resolveLinks } from '../runtime/hooks/guard/fs.js';
import { ALLOW } from '../test/guard/corpus/allow.js';
import { DENY } from '../test/guard/corpus/deny.js';
import { ATTACKS, ORDINARY } from '../test/redteam/corpus.js';
import { seedRedteamRepo } from '../test/redteam/fixture.js';
import { bareNode, coldLatency, dist, LATENCY_COLUMNS } from './cold-process.js';
import type { BenchTable } from './run.js';
import { benchTempDir } from './temp.js';

const ROUNDS = 5;
const RUNS = 30;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;

/**
 * The guard's analysis time per command over the red-team and guard corpora (max and p99
 * of the best of 5 rounds per command, in a seeded fixture with the real file reads), and the
 * built guard's cold-start latency on a benign command against `node -e 0`.
 */
export default async function guardCorpusBench(): Promise<BenchTable> {
  const work = realpathSync(benchTempDir('leopold-bench-guard-corpus-'));
  const project = join(work, 'project');
  mkdirSync(join(project, '.leopold'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: project, stdio: 'ignore', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Bench');
  git('config', 'user.email', 'bench@example.invalid');
  git('commit', '-q', '--allow-empty', '-m', 'init');
  seedRedteamRepo(project, join(work, 'remote.git'));
  writeFileSync(join(project, '.leopold', 'state.json'), JSON.stringify({ version: 1, active: true }));
  const ctx = { cwd: project, leopoldDir: join(project, '.leopold'), home: join(work, 'home'), readFile: readBounded, realpath: resolveLinks };

  const corpora: [string, string[]][] = [
    ['red-team attacks (Bash)', ATTACKS.flatMap((a) => ('command' in a ? [a.command] : []))],
    ['red-team ordinary', ORDINARY.map((o) => o.command)],
    ['guard deny corpus', DENY.map(([, c]) => c)],
    ['guard allow corpus', ALLOW],
  ];
  const rows: (string | number)[][] = [];
  for (const [name, commands] of corpora) {
    const times = commands.map((command) => {
      let best = Number.POSITIVE_INFINITY;
      for (let r = 0; r < ROUNDS; r++) {
        const started = performance.now();
        analyzeCommand(command, ctx);
        best = Math.min(best, performance.now() - started);
      }
      return best;
    });
    const sorted = [...times].sort((a, b) => a - b);
    const worst = commands[times.indexOf(sorted.at(-1) as number)] as string;
    rows.push([name, commands.length, quantile(sorted, 0.5).toFixed(3), quantile(sorted, 0.99).toFixed(2), (sorted.at(-1) as number).toFixed(2), JSON.stringify(worst.slice(0, 40))]);
  }

  const benign = JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test 2>&1 | tail -20 && git status --short && git diff --stat' }, cwd: project });
  const { rows: latency, ratios } = coldLatency(
    [bareNode(benign), { label: 'node dist/hooks/guard.js (benign command)', args: [join(dist, 'hooks', 'guard.js')], stdin: benign, expect: /^$/ }],
    { cwd: project, env: { ...process.env, CLAUDE_PROJECT_DIR: project }, runs: RUNS },
  );
  rmSync(work, { recursive: true, force: true });
  const ratio = ratios[1] as number;
  return {
    title: 'Guard: analysis time per command over the corpora, and cold-start latency',
    columns: ['corpus', 'commands', 'median ms', 'p99 ms', 'max ms', 'slowest command'],
    rows,
    notes: [
      `Each command's time is the best of ${ROUNDS} rounds of analyzeCommand in a seeded red-team fixture with an active run (real file reads: scripts, package.json, Makefile).`,
      `Cold start (${RUNS} runs, interleaved): ${LATENCY_COLUMNS.join(' / ')}`,
      ...latency.map((r) => `  ${r.join(' / ')}`),
      `Guard on a benign command: ${ratio.toFixed(2)}x \`node -e 0\` (target 1.5x: ${ratio <= 1.5 ? 'met' : 'NOT met'}).`,
    ],
  };
}

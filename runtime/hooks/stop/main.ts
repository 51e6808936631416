// The bundled Stop hook (dist/hooks/stop.js): `leopold init` registers it as a direct
// `node <path>` Stop hook. It loads no commander; see scripts/build.mjs for what it does load.
// The plugin runs the same file with `--plugin`: then it stays silent when the project
// registers its own Stop hook, so a turn never gets two (docs/init.md).
import { projectRunsOwnHook } from '../../project-cli/registered.js';
import { readStdin } from '../guard/stdin.js';
import { runStopHook, stopAnswerOutput } from './hook.js';

process.exitCode = 0;
try {
  const stdin = readStdin();
  const stepAside = process.argv.includes('--plugin') && projectRunsOwnHook(process.env.CLAUDE_PROJECT_DIR || process.cwd(), 'stop');
  const out = stopAnswerOutput(stepAside ? { kind: 'silent' } : await runStopHook(stdin, { env: process.env, processCwd: process.cwd() }));
  if (out.stdout !== '') process.stdout.write(out.stdout);
  if (out.stderr !== '') process.stderr.write(out.stderr);
  process.exitCode = out.exitCode;
} catch {
  // runStopHook never throws; if it somehow did, print nothing: the session may stop.
  process.exitCode = 0;
}

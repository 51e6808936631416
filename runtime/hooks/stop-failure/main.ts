// The bundled StopFailure hook (dist/hooks/stop-failure.js): `leopold init` registers it as
// a direct `node <path>` hook. It runs only when a turn dies on an API error. The plugin runs
// the same file with `--plugin`: then it stays silent when the project registers its own.
import { projectRunsOwnHook } from '../../project-cli/registered.js';
import { readStdin } from '../guard/stdin.js';
import { runStopFailureHook } from './hook.js';

process.exitCode = 0;
try {
  const stdin = readStdin();
  const stepAside = process.argv.includes('--plugin') && projectRunsOwnHook(process.env.CLAUDE_PROJECT_DIR || process.cwd(), 'stop-failure');
  const out = stepAside ? '' : await runStopFailureHook(stdin, { env: process.env, processCwd: process.cwd() });
  if (out !== '') {
    process.stdout.write(out);
    // Claude Code 2.1.332 ignores a StopFailure hook's output; stderr reaches its debug log.
    process.stderr.write(`${(JSON.parse(out) as { systemMessage: string }).systemMessage}\n`);
  }
} catch {
  // runStopFailureHook never throws; if it somehow did, print nothing.
}
process.exitCode = 0;

// The bundled StopFailure hook (dist/hooks/stop-failure.js). `leopold init` registers it
// wrapped so that it runs detached from Claude Code (runtime/project-cli detachedHook): the
// client does not wait for a StopFailure hook, and measured on 2.1.332 in -p mode it sends
// the hook SIGTERM as it exits right after the failed turn and kills it ~1.5 s later, long
// before node, starting under load, could end the run. The plugin runs the same file with
// `--plugin`: then it stays silent when the project registers its own.
import { projectRunsOwnHook } from '../../project-cli/registered.js';
import { readStdin } from '../guard/stdin.js';
import { runStopFailureHook } from './hook.js';

process.exitCode = 0;
try {
  const stdin = readStdin();
  const stepAside = process.argv.includes('--plugin') && projectRunsOwnHook(process.env.CLAUDE_PROJECT_DIR || process.cwd(), 'stop-failure');
  const out = stepAside ? '' : await runStopFailureHook(stdin, { env: process.env, processCwd: process.cwd() });
  if (out !== '') process.stdout.write(out);
} catch {
  // runStopFailureHook never throws; if it somehow did, print nothing.
}
process.exitCode = 0;

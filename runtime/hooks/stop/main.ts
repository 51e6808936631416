// The bundled Stop hook (dist/hooks/stop.js): `leopold init` registers it as a direct
// `node <path>` Stop hook. It loads no commander; see scripts/build.mjs for what it does load.
import { readStdin } from '../guard/stdin.js';
import { runStopHook } from './hook.js';

process.exitCode = 0;
try {
  const out = await runStopHook(readStdin(), { env: process.env, processCwd: process.cwd() });
  if (out !== '') process.stdout.write(out);
} catch {
  // runStopHook never throws; if it somehow did, print nothing: the session may stop.
}
process.exitCode = 0;

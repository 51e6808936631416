// The bundled guard command (dist/hooks/guard.js): `leopold init` registers it as a direct
// `node <path>` PreToolUse hook. It loads only the guard: no commander, no zod, no remark.
import { runGuard } from './hook.js';
import { readStdin } from './stdin.js';

process.exitCode = 0;
try {
  const out = runGuard(readStdin(), { env: process.env, processCwd: process.cwd() });
  if (out !== '') process.stdout.write(out);
} catch {
  // runGuard never throws; if it somehow did, a crash would allow everything anyway.
}

// The bundled guard command (dist/hooks/guard.js): `leopold init` registers it as a direct
// `node <path>` PreToolUse hook. It loads only the guard: no commander, no zod, no remark.
// The plugin runs the same file with `--plugin`: then it stays silent when the project
// registers its own guard, so a project never runs two (docs/init.md).
import { projectRunsOwnHook } from '../../project-cli/registered.js';
import { runGuard } from './hook.js';
import { readStdin } from './stdin.js';

process.exitCode = 0;
try {
  const stdin = readStdin();
  const stepAside = process.argv.includes('--plugin') && projectRunsOwnHook(process.env.CLAUDE_PROJECT_DIR || process.cwd(), 'guard');
  const out = stepAside ? '' : runGuard(stdin, { env: process.env, processCwd: process.cwd() });
  if (out !== '') process.stdout.write(out);
} catch {
  // runGuard never throws; if it somehow did, a crash would allow everything anyway.
}

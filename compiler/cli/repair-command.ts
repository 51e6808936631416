import { spawn } from 'node:child_process';

/** How long `--repair-cmd` may run before it is killed and the repair refused. */
export const DEFAULT_REPAIR_TIMEOUT_MS = 120_000;

/** The largest answer read from a repair command; a repair is a few lines. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** A repair command's answer, or why there is none (a refusal, never a crash). */
export type RepairCommandResult = { ok: true; answer: string } | { ok: false; reason: string };

/**
 * Runs `--repair-cmd` through `/bin/sh -c` in `cwd` with the repair prompt on stdin and
 * returns its stdout. A non-zero exit, a signal, a timeout, an answer over 1 MiB or a
 * failure to start is a refusal with the reason (and the tail of stderr). The command runs
 * in its own process group, so a timeout kills everything it started.
 */
export function runRepairCommand(command: string, prompt: string, cwd: string, timeoutMs: number): Promise<RepairCommandResult> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let verdict: string | null = null;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      verdict = `the repair command timed out after ${formatSeconds(timeoutMs)}`;
      killGroup();
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > MAX_ANSWER_BYTES) {
        verdict ??= `the repair command wrote more than ${MAX_ANSWER_BYTES} bytes`;
        killGroup();
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    // A command that never reads its stdin closes the pipe early; that is its business.
    child.stdin.on('error', () => {});
    child.stdin.end(prompt);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: `the repair command could not start (${error.message})` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const tail = stderr.trim() === '' ? '' : `; its stderr ended with: ${stderr.trim().split('\n').slice(-3).join(' | ')}`;
      if (verdict) return resolve({ ok: false, reason: `${verdict}${tail}` });
      if (signal) return resolve({ ok: false, reason: `the repair command was killed by ${signal}${tail}` });
      if (code !== 0) return resolve({ ok: false, reason: `the repair command exited with status ${code}${tail}` });
      resolve({ ok: true, answer: Buffer.concat(stdout).toString('utf8') });
    });
  });
}

/** LEOPOLD_REPAIR_TIMEOUT (seconds, > 0) or the default; anything else is the default. */
export function repairTimeoutMs(env: string | undefined): number {
  const seconds = env === undefined ? NaN : Number(env.trim());
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : DEFAULT_REPAIR_TIMEOUT_MS;
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

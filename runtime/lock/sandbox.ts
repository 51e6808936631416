import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Whether Claude Code's Bash sandbox can run on this machine: bubblewrap and socat on
 * Linux and WSL2 (CLAUDE-CODE.md §6), Seatbelt (`sandbox-exec`) on macOS, nothing on
 * native Windows. Linux also gets a smoke run of bwrap, since a container without user
 * namespaces has the binary but cannot use it.
 */
export type SandboxAvailability = { available: true; via: string } | { available: false; why: string; fix: string };

export function sandboxAvailability(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): SandboxAvailability {
  if (platform === 'darwin') {
    return existsSync('/usr/bin/sandbox-exec')
      ? { available: true, via: 'Seatbelt (sandbox-exec)' }
      : { available: false, why: '/usr/bin/sandbox-exec is missing', fix: 'use a stock macOS, where Seatbelt is built in' };
  }
  if (platform !== 'linux') {
    return { available: false, why: `Claude Code has no sandbox on ${platform}`, fix: 'run Claude Code inside WSL2 or Linux' };
  }
  const bwrap = onPath('bwrap', env);
  const socat = onPath('socat', env);
  const missing = [bwrap ? null : 'bubblewrap (bwrap)', socat ? null : 'socat'].filter((name) => name !== null);
  if (missing.length > 0) {
    return { available: false, why: `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not installed`, fix: 'install them (Debian/Ubuntu: sudo apt-get install bubblewrap socat)' };
  }
  const smoke = spawnSync(bwrap!, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', 'true'], { timeout: 5_000, stdio: 'ignore' });
  if (smoke.status !== 0) {
    return { available: false, why: 'bubblewrap is installed but cannot create a sandbox here (no user namespaces?)', fix: 'allow unprivileged user namespaces, or run outside this container' };
  }
  return { available: true, via: 'bubblewrap' };
}

/** The named warning init, `run start` and `run status` print when the sandbox cannot hold the lock. */
export function sandboxWarning(availability: Extract<SandboxAvailability, { available: false }>): string {
  return (
    `warning[sandbox-unavailable]: Claude Code's sandbox cannot run here: ${availability.why}. ` +
    'During a run only the git guard holds the lock, and a guard that reads shell text can be talked around. ' +
    `To have the operating system hold it, ${availability.fix}; \`leopold run start --require-sandbox\` ` +
    'makes Claude Code refuse to run commands at all without the sandbox.'
  );
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { trustedPathEntries } from './trusted.js';

/**
 * Whether Claude Code's Bash sandbox can run on this machine: bubblewrap and socat on
 * Linux and WSL2 (docs/lock.md), Seatbelt (`sandbox-exec`) on macOS, nothing on
 * native Windows. Linux also gets a smoke run of bwrap, since a container without user
 * namespaces has the binary but cannot use it.
 */
export type SandboxAvailability = { available: true; via: string } | { available: false; why: string; fix: string };

export function sandboxAvailability(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, root = ''): SandboxAvailability {
  if (platform === 'darwin') {
    return existsSync('/usr/bin/sandbox-exec')
      ? { available: true, via: 'Seatbelt (sandbox-exec)' }
      : { available: false, why: '/usr/bin/sandbox-exec is missing', fix: 'use a stock macOS, where Seatbelt is built in' };
  }
  if (platform !== 'linux') {
    return { available: false, why: `Claude Code has no sandbox on ${platform}`, fix: 'run Claude Code inside WSL2 or Linux' };
  }
  // Never a program the project could have put on PATH (`npx` puts node_modules/.bin first).
  const bwrap = onPath('bwrap', env, root);
  const socat = onPath('socat', env, root);
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
/** Why `run start --require-sandbox` refused. */
export function sandboxRequiredError(availability: Extract<SandboxAvailability, { available: false }>): string {
  return `--require-sandbox: Claude Code's sandbox cannot run here (${availability.why}); ${availability.fix}. No run was started.`;
}

export function sandboxWarning(availability: Extract<SandboxAvailability, { available: false }>): string {
  return (
    `warning[sandbox-unavailable]: Claude Code's sandbox cannot run here: ${availability.why}. ` +
    'During a run only the git guard holds the lock, and a guard that reads shell text can be talked around. ' +
    `To have the operating system hold it, ${availability.fix}; \`leopold run start --require-sandbox\` ` +
    'makes Claude Code refuse to run commands at all without the sandbox.'
  );
}

function onPath(name: string, env: NodeJS.ProcessEnv, root: string): string | null {
  for (const dir of trustedPathEntries(root, env.PATH)) {
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/**
 * Commands the user's Claude Code settings run outside the sandbox
 * (`sandbox.excludedCommands`, merged across every settings file, so the lock's own file
 * cannot take them back). For each: the file it is in, and the commands.
 */
export function excludedCommands(root: string, home: string): { file: string; commands: string[] }[] {
  const files = [join(home, '.claude', 'settings.json'), join(root, '.claude', 'settings.json'), join(root, '.claude', 'settings.local.json'), '/etc/claude-code/managed-settings.json'];
  const found: { file: string; commands: string[] }[] = [];
  for (const file of files) {
    try {
      const settings = JSON.parse(readFileSync(file, 'utf8')) as { sandbox?: { excludedCommands?: unknown } };
      const list = settings?.sandbox?.excludedCommands;
      const commands = Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : [];
      if (commands.length > 0) found.push({ file, commands });
    } catch {
      // missing or not JSON: nothing excluded there
    }
  }
  return found;
}

/** The named warning for excluded commands, or null when there are none. */
export function excludedWarning(found: readonly { file: string; commands: string[] }[]): string | null {
  if (found.length === 0) return null;
  const where = found.map((f) => `${f.file}: ${f.commands.join(', ')}`).join('; ');
  return `warning[sandbox-excluded]: sandbox.excludedCommands run outside Claude Code's sandbox (${where}); for those the run lock is the git guard alone. Remove them to have the operating system hold it.`;
}

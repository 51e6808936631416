import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The Claude Code process a workflow run lives in. The script has no file system and no
 * heartbeat; when its client dies (killed, crashed, `claude -p` gave up waiting), the run
 * stays active in state.json and nothing else says so. The Stop hook, which the client
 * spawns (outside its sandbox) when the launching turn ends, records the client's process;
 * `leopold run status` asks whether it is still there.
 */
export interface ClientRecord {
  pid: number;
  /** When the process started (Linux: boot-relative clock ticks; macOS: `ps`'s lstart), to tell a reused pid apart; null when unknown. */
  started: string | null;
}

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'fish', 'busybox', 'env', 'timeout']);

interface ProcessFacts {
  ppid: number;
  name: string;
  started: string | null;
}

/** A process's parent, name and start, or null when it cannot be read (gone, or no /proc and no ps). */
export function processFacts(pid: number): ProcessFacts | null {
  try {
    // /proc/<pid>/stat: "pid (name) state ppid … starttime(22nd field) …"; the name may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const rest = stat.slice(close + 2).split(' ');
    return { ppid: Number(rest[1]), name, started: rest[19] ?? null };
  } catch {
    // no /proc (macOS): ask ps
  }
  try {
    const out = execFileSync('ps', ['-o', 'ppid=', '-o', 'lstart=', '-o', 'comm=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const m = /^(\d+)\s+(\w{3}\s+\w{3}\s+\d+\s+[\d:]+\s+\d+)\s+(.*)$/.exec(out);
    if (!m) return null;
    return { ppid: Number(m[1]), started: m[2]!, name: m[3]!.split('/').at(-1)! };
  } catch {
    return null;
  }
}

/** The client that spawned this hook process: the nearest ancestor that is not a shell (at most five levels up), or null. */
export function hookClient(from: number = process.ppid): ClientRecord | null {
  let pid = from;
  for (let level = 0; level < 5 && pid > 1; level++) {
    const facts = processFacts(pid);
    if (facts === null) return null;
    if (!SHELLS.has(facts.name)) return { pid, started: facts.started };
    pid = facts.ppid;
  }
  return null;
}

/** Whether a recorded client is still running: true, false (gone, or its pid now names a later process), or null when it cannot be told. */
export function clientAlive(client: ClientRecord): boolean | null {
  try {
    process.kill(client.pid, 0);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return false;
    if (code !== 'EPERM') return null;
  }
  if (client.started === null) return true;
  const facts = processFacts(client.pid);
  if (facts === null) return null;
  return facts.started === client.started;
}

import type { Word } from '../shell/types.js';

/** How a command that runs another command takes its options. */
interface WrapperSpec {
  /** Options whose value is the next word (or attached: `-uroot`, `--user=root`). */
  withValue: string[];
  /** `NAME=value` words may come before the command (env, sudo). */
  assignments?: boolean;
  /** Positional words before the command (timeout's duration, flock's lock file). */
  skip?: number;
  /** Options meaning "do not run it" (`command -v git`). */
  noRun?: string[];
  /** Options after which the next word is a shell script (`su -c`, `flock -c`). */
  script?: string[];
  /** An option whose value is split into more words of the command (`env -S`). */
  split?: string[];
  /** More arguments arrive at run time (xargs). */
  trailing?: boolean;
}

const UNSHARE_VALUES = ['-S', '--setuid', '-G', '--setgid', '-R', '--root', '-w', '--wd', '--propagation', '--map-user', '--map-group', '--map-users', '--map-groups', '--kill-child', '-l', '--load-interp'];

export const WRAPPERS: Record<string, WrapperSpec> = {
  env: { withValue: ['-u', '--unset', '-C', '--chdir', '-P', '-S', '--split-string', '-a', '--argv0'], assignments: true, split: ['-S', '--split-string'] },
  'cross-env': { withValue: [], assignments: true },
  'cross-env-shell': { withValue: [], assignments: true },
  sudo: {
    withValue: ['-u', '--user', '-g', '--group', '-h', '--host', '-p', '--prompt', '-C', '--close-from', '-D', '--chdir', '-r', '--role', '-t', '--type', '-U', '--other-user', '-T', '--command-timeout'],
    assignments: true,
    noRun: ['-l', '--list', '-v', '--validate', '-k', '-K', '-e', '--edit', '-V'],
  },
  doas: { withValue: ['-u', '-C'] },
  command: { withValue: [], noRun: ['-v', '-V'] },
  builtin: { withValue: [] },
  exec: { withValue: ['-a'] },
  nohup: { withValue: [] },
  time: { withValue: ['-f', '--format', '-o', '--output'] },
  nice: { withValue: ['-n', '--adjustment'] },
  ionice: { withValue: ['-c', '--class', '-n', '--classdata'], noRun: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  timeout: { withValue: ['-s', '--signal', '-k', '--kill-after'], skip: 1 },
  gtimeout: { withValue: ['-s', '--signal', '-k', '--kill-after'], skip: 1 },
  stdbuf: { withValue: ['-i', '--input', '-o', '--output', '-e', '--error'] },
  setsid: { withValue: [] },
  chronic: { withValue: [] },
  unbuffer: { withValue: [] },
  caffeinate: { withValue: ['-t', '-w'] },
  chrt: { withValue: [], skip: 1 },
  taskset: { withValue: [], skip: 1 },
  xcrun: { withValue: ['--sdk', '-sdk', '--toolchain', '-toolchain'] },
  busybox: { withValue: [] },
  coproc: { withValue: [] },
  noglob: { withValue: [] },
  xargs: {
    withValue: ['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--max-lines', '--process-slot-var'],
    trailing: true,
  },
  flock: { withValue: ['-w', '--timeout', '-E', '--conflict-exit-code'], skip: 1, script: ['-c', '--command'] },
  su: { withValue: ['-s', '--shell', '-g', '--group', '-G', '--supp-group', '-w', '--whitelist-environment'], script: ['-c', '--command'] },
  runuser: { withValue: ['-u', '--user', '-s', '--shell', '-g', '--group', '-G', '--supp-group', '-w'], script: ['-c', '--command'] },
  unshare: { withValue: UNSHARE_VALUES },
  nsenter: { withValue: ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '--user-parent', '-W', '--wdns'] },
  chroot: { withValue: ['--userspec', '--groups'], skip: 1 },
  strace: { withValue: ['-e', '-o', '-p', '-s', '-u', '-E', '-a', '-b', '-I', '-O', '-P', '-S', '-X', '--output', '--signal', '--trace', '--user'], noRun: ['-p', '--attach'] },
  ltrace: { withValue: ['-e', '-o', '-p', '-s', '-u', '-a', '-A', '-D', '-l', '-n', '-w', '-x', '-F', '--output'], noRun: ['-p'] },
  sg: { withValue: [], skip: 1, script: ['-c'] },
  prlimit: { withValue: ['-p', '--pid', '-o', '--output'] },
  'systemd-run': { withValue: ['-u', '--unit', '-p', '--property', '-E', '--setenv', '--uid', '--gid', '--slice', '-M', '--machine', '--description'] },
  catchsegv: { withValue: [] },
  valgrind: { withValue: [] },
  faketime: { withValue: ['-f'], skip: 1 },
  fakeroot: { withValue: ['-l', '--lib', '--faked', '-s', '-i'] },
  proot: { withValue: ['-r', '-b', '-w', '-q'] },
  script: { withValue: ['-E', '--echo', '-I', '--log-in', '-O', '--log-out', '-B', '--log-io', '-T', '--log-timing', '-m', '--logging-format'], script: ['-c', '--command'] },
};

/** What a wrapper runs: an argv, a script, or nothing (it only inspects). */
export type Unwrapped =
  | { kind: 'argv'; words: Word[]; assignments: Map<string, string | null>; trailing: boolean; replace?: string }
  | { kind: 'script'; text: string; dynamic: boolean }
  | { kind: 'none' };

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

/** Strips a wrapper's options and returns what it runs. */
export function unwrap(name: string, args: Word[]): Unwrapped {
  const spec = WRAPPERS[name] as WrapperSpec;
  const assignments = new Map<string, string | null>();
  let replace: string | undefined;
  let words = args;
  let i = 0;
  if (spec.script) {
    // `su - user -c 'cmd'`: the script option may sit after positional words.
    const at = words.findIndex((w) => spec.script?.includes(w.text) || w.text.startsWith('--command='));
    if (at >= 0) {
      const w = words[at] as Word;
      const value = w.text.startsWith('--command=') ? { ...w, text: w.text.slice(10) } : words[at + 1];
      return value ? { kind: 'script', text: value.text, dynamic: value.dynamic } : { kind: 'none' };
    }
  }
  while (i < words.length) {
    const w = words[i] as Word;
    const t = w.text;
    if (t === '--') {
      i++;
      break;
    }
    if (spec.assignments && ASSIGNMENT.test(t)) {
      const m = ASSIGNMENT.exec(t) as RegExpExecArray;
      assignments.set(m[1] as string, w.dynamic ? null : t.slice(m[0].length));
      i++;
      continue;
    }
    if (!t.startsWith('-') || t.length < 2) {
      if (t === '-' && name === 'env') {
        i++;
        continue;
      }
      break;
    }
    const eq = t.indexOf('=');
    const opt = t.startsWith('--') && eq > 0 ? t.slice(0, eq) : t;
    if (spec.noRun?.includes(opt)) return { kind: 'none' };
    if (spec.split?.includes(opt)) {
      const value = eq > 0 && t.startsWith('--') ? t.slice(eq + 1) : t.length > 2 && !t.startsWith('--') ? t.slice(2) : words[i + 1]?.text;
      const consumed = value === undefined ? 1 : eq > 0 || (t.length > 2 && !t.startsWith('--')) ? 1 : 2;
      const extra = (value ?? '').split(/\s+/).filter(Boolean).map((text) => ({ ...w, text, quoted: false }));
      words = [...words.slice(0, i), ...extra, ...words.slice(i + consumed)];
      continue;
    }
    if (name === 'xargs' && (opt === '-I' || t.startsWith('-I') || t === '-i' || t.startsWith('--replace'))) replace = t === '-I' ? (words[i + 1]?.text ?? '{}') : t.startsWith('-I') ? t.slice(2) : '{}';
    if (spec.withValue.includes(opt) && !(t.startsWith('--') && eq > 0)) i += 2;
    else i++;
  }
  i += spec.skip ?? 0;
  let rest = words.slice(i);
  if (name === 'xargs' && rest.length === 0) return { kind: 'none' };
  if (replace !== undefined) {
    const r = replace;
    rest = rest.map((w) => (w.text.includes(r) ? { ...w, text: w.text.split(r).join(''), dynamic: true } : w));
  }
  return { kind: 'argv', words: rest, assignments, trailing: spec.trailing === true, replace };
}

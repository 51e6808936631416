import { join, resolve } from 'node:path';
import type { Finding } from '../findings.js';
import { parseShell } from '../shell/parse.js';
import { ShellParseError, type SimpleCommand, type Word } from '../shell/types.js';
import { analyzeGit } from './git.js';
import { mentionFindings, mentionsStopRemoval } from './mentions.js';
import { globRegExp, nameMatches, operandTargets, type Cwds } from './paths.js';
import type { ArgvOptions, WalkApi } from './walk-api.js';
import { unwrap, WRAPPERS } from './wrappers.js';

/** Where the tool call runs and what it may touch; all paths absolute. */
export interface GuardContext {
  /** The hook input's `cwd` (the directory the Bash command starts in). */
  cwd: string;
  /** The project's `.leopold/` directory. */
  leopoldDir: string;
  home: string;
  /** Looks up an alias in the user's or repository's git config (the fs edge); optional. */
  gitAlias?: (name: string) => string | undefined;
}

/** Longer commands are not parsed; the fail-closed mention check still applies. */
export const MAX_COMMAND_CHARS = 1 << 20;
const MAX_SCRIPT_DEPTH = 16;

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash', 'fish', 'busybox-sh']);
const INTERPRETERS = new Set(['python', 'python2', 'python3', 'node', 'nodejs', 'perl', 'ruby', 'php', 'bun', 'deno', 'osascript', 'awk', 'gawk', 'tclsh', 'lua', 'pwsh', 'powershell']);
const REMOVERS = new Set(['rm', 'unlink', 'rmdir', 'shred', 'trash', 'trash-put', 'srm', 'gio']);
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

/**
 * Everything a Bash command would do that a run locks. Pure apart from the optional
 * `gitAlias` lookup; never throws (an internal error falls back to the mention check).
 */
export function analyzeCommand(command: string, ctx: GuardContext): Finding[] {
  const walk = new Walk(command, ctx);
  try {
    if (command.length > MAX_COMMAND_CHARS) walk.mention('is too long to analyse');
    else walk.script(command, false);
  } catch {
    walk.mention('could not be analysed');
  }
  return walk.findings;
}

class Walk implements WalkApi {
  readonly findings: Finding[] = [];
  private readonly vars = new Map<string, string | null>();
  private readonly cwds: Cwds;
  private readonly stopPath: string;
  private readonly guardrailsPath: string;
  private depth = 0;

  constructor(
    readonly source: string,
    private readonly ctx: GuardContext,
  ) {
    this.cwds = { dirs: [ctx.cwd], unknown: false, home: ctx.home };
    this.stopPath = join(ctx.leopoldDir, 'STOP');
    this.guardrailsPath = join(ctx.leopoldDir, 'GUARDRAILS.md');
  }

  add(finding: Finding): void {
    if (!this.findings.some((f) => f.lock === finding.lock && f.what === finding.what)) this.findings.push(finding);
  }

  mention(why: string, text: string = this.source): void {
    for (const f of mentionFindings(text, `the command ${why}`)) this.add(f);
  }

  gitAlias(name: string): string | undefined {
    return this.ctx.gitAlias?.(name);
  }

  env(name: string): string | null | undefined {
    return this.vars.get(name);
  }

  script(text: string, dynamic: boolean): void {
    if (dynamic) this.mention('runs a script computed at run time');
    if (this.depth >= MAX_SCRIPT_DEPTH) {
      this.mention('nests shell scripts too deeply', text);
      return;
    }
    let commands: SimpleCommand[];
    try {
      commands = parseShell(text, this.vars).commands;
    } catch (error) {
      if (!(error instanceof ShellParseError)) throw error;
      this.mention('could not be parsed', text);
      return;
    }
    this.depth++;
    try {
      for (const cmd of commands) this.simple(cmd);
    } finally {
      this.depth--;
    }
  }

  private simple(cmd: SimpleCommand): void {
    const writes = cmd.redirects.filter((r) => WRITE_REDIRECTS.has(r.op)).map((r) => r.target);
    if (writes.length > 0) this.overwrite(writes, 'a redirection');
    const assignments = new Map(cmd.assignments.map((a) => [a.name, a.value.dynamic ? null : a.value.text] as const));
    this.argv(cmd.words, { assignments }, cmd);
  }

  argv(input: Word[], opts: ArgvOptions, cmd?: SimpleCommand): void {
    let words = input;
    let name = words[0];
    if (!name) return;
    if (/\s/.test(name.text.trim()) && !name.dynamic) {
      // `git\ push`, `"git push"`: no such program, but judge it as if it were split.
      const parts = name.text.trim().split(/\s+/).map((text) => ({ ...name!, text }));
      words = [...parts, ...words.slice(1)];
      name = words[0] as Word;
    }
    const args = words.slice(1);
    const path = name.text;
    const base = (path.split('/').pop() ?? '').toLowerCase();

    if (name.dynamic && (!path.includes('/') || base === '' || /^git/.test(base))) {
      // `$GIT push`, `$(which git) push`: the program is computed; judge the arguments as git's.
      analyzeGit(args, this, opts);
      return;
    }
    if (base === 'git' || base === 'git.exe' || (name.glob && globRegExp(base).test('git'))) {
      analyzeGit(args, this, opts);
      return;
    }
    const dashed = /^git-([a-z-]+)$/.exec(base);
    if (dashed) {
      analyzeGit([{ ...name, text: dashed[1] as string }, ...args], this, opts);
      return;
    }
    if (base in WRAPPERS) {
      const inner = unwrap(base, args);
      if (inner.kind === 'script') this.script(inner.text, inner.dynamic);
      else if (inner.kind === 'argv') {
        const assignments = new Map([...(opts.assignments ?? []), ...inner.assignments]);
        this.argv(inner.words, { assignments, unknownTrailing: inner.trailing || opts.unknownTrailing === true }, inner.words.length > 0 ? undefined : cmd);
      }
      return;
    }
    if (SHELLS.has(base)) return this.shell(args, cmd);
    switch (base) {
      case 'eval':
        return this.script(args.map((a) => a.text).join(' '), args.some((a) => a.dynamic));
      case 'trap':
        if (args.length >= 2 && !args[0]!.text.startsWith('-')) this.script(args[0]!.text, args[0]!.dynamic);
        return;
      case 'watch': {
        const rest = args.filter((a, i) => !a.text.startsWith('-') && !['-n', '--interval'].includes(args[i - 1]?.text ?? ''));
        return this.script(rest.map((a) => a.text).join(' '), rest.some((a) => a.dynamic));
      }
      case 'find':
        return this.find(args);
      case 'mv':
        return this.move(args, opts);
      case 'cd':
      case 'pushd':
        return this.changeDir(args);
      default:
        break;
    }
    if (REMOVERS.has(base)) return this.remove(base, args, opts);
    if (['cp', 'install', 'ln', 'tee', 'truncate', 'dd', 'sed', 'perl', 'patch', 'rsync'].includes(base)) this.writers(base, args);
    if (INTERPRETERS.has(base)) {
      const code = args.map((a) => a.text).join(' ');
      this.mention('runs inline code that', code);
      if (mentionsStopRemoval(code)) this.add({ lock: 'stop', what: `${base} code that removes .leopold/STOP` });
    }
  }

  /** `sh -c '…'`, `bash -lc …`, `sh <<EOF`, `echo … | sh`. A script file is not read. */
  private shell(args: Word[], cmd?: SimpleCommand): void {
    let i = 0;
    let command = false;
    let fromStdin = false;
    for (; i < args.length; i++) {
      const t = (args[i] as Word).text;
      if (t === '--' || t === '-') {
        i++;
        break;
      }
      if (!/^[-+]./.test(t)) break;
      if (t.startsWith('--')) {
        if (['--rcfile', '--init-file'].includes(t)) i++;
        if (t === '--command') command = true;
        continue;
      }
      const cluster = t.slice(1);
      if (cluster.includes('c')) command = true;
      if (cluster.includes('s')) fromStdin = true;
      if (/[oO]/.test(cluster)) i++;
    }
    if (command) {
      const script = args[i];
      if (script) this.script(script.text, script.dynamic);
      return;
    }
    if (args[i] && !fromStdin) return; // a script file: its contents are not inspected
    if (!cmd) return;
    if (cmd.stdin) return this.script(cmd.stdin.text, cmd.stdin.dynamic);
    const piped = cmd.pipedFrom ? outputOf(cmd.pipedFrom) : null;
    if (piped) this.script(piped.text, piped.dynamic);
    else if (cmd.pipedFrom) this.mention('pipes output computed at run time into a shell');
  }

  /** `… | xargs rm`: the operands arrive at run time; judge by what the command mentions. */
  private trailingRemoval(base: string, opts: ArgvOptions): void {
    if (opts.unknownTrailing && /\bSTOP\b|\.leopold/i.test(this.source)) {
      this.add({ lock: 'stop', what: `${base} with operands supplied at run time, in a command that mentions .leopold or STOP` });
    }
  }

  private remove(base: string, args: Word[], opts: ArgvOptions): void {
    this.trailingRemoval(base, opts);
    if (base === 'gio' && !['trash', 'remove', 'rm'].includes(args[0]?.text ?? '')) return;
    if (base === 'shred' && !args.some((a) => /^-[a-z]*u|^--remove/.test(a.text))) return;
    const { options, operands } = splitOptions(base === 'gio' ? args.slice(1) : args);
    const recursive = options.some((o) => /^-[a-zA-Z]*[rR]/.test(o) || o === '--recursive');
    this.removal(operands, recursive, `${base} ${args.map((a) => a.text).join(' ')}`.slice(0, 80));
  }

  private move(args: Word[], opts: ArgvOptions): void {
    this.trailingRemoval('mv', opts);
    const { options, operands } = splitOptions(args);
    const what = `mv ${args.map((a) => a.text).join(' ')}`.slice(0, 80);
    const intoDir = options.findIndex((o) => o === '-t' || o.startsWith('--target-directory'));
    const sources = intoDir >= 0 || options.some((o) => o.startsWith('-t')) ? operands : operands.slice(0, -1);
    this.removal(sources, true, what);
    if (intoDir < 0) this.overwrite(operands.slice(-1), what);
  }

  private writers(base: string, args: Word[]): void {
    const { options, operands } = splitOptions(args);
    const what = `${base} ${args.map((a) => a.text).join(' ')}`.slice(0, 80);
    if (base === 'dd') {
      const of = args.find((a) => a.text.startsWith('of='));
      if (of) this.overwrite([{ ...of, text: of.text.slice(3) }], what);
      return;
    }
    if ((base === 'sed' || base === 'perl') && !options.some((o) => /^-[a-zA-Z]*i|^--in-place/.test(o))) return;
    const targets = base === 'cp' || base === 'install' || base === 'ln' || base === 'rsync' ? operands.slice(-1) : operands;
    this.overwrite(targets, what);
  }

  private changeDir(args: Word[]): void {
    const target = args.find((a) => !a.text.startsWith('-') || a.text === '-');
    if (!target || target.dynamic || target.text === '-' || target.glob) {
      this.cwds.unknown = true;
      if (!target) this.cwds.dirs.push(this.cwds.home);
      return;
    }
    const text = target.text === '~' ? this.cwds.home : target.text.startsWith('~/') ? join(this.cwds.home, target.text.slice(2)) : target.text;
    for (const d of [...this.cwds.dirs]) {
      const next = resolve(d, text);
      if (!this.cwds.dirs.includes(next)) this.cwds.dirs.push(next);
    }
  }

  /** `find DIR … -delete` / `-exec rm {} ;` over the kill switch, and `-exec` commands. */
  private find(args: Word[]): void {
    let i = 0;
    const starts: Word[] = [];
    while (i < args.length && !/^[-(!]/.test((args[i] as Word).text)) starts.push(args[i++] as Word);
    if (starts.length === 0) starts.push({ text: '.', dynamic: false, quoted: false, glob: false });
    let removes = false;
    const names: { pattern: string; glob: boolean }[] = [];
    let otherTest = false;
    for (; i < args.length; i++) {
      const t = (args[i] as Word).text;
      if (t === '-delete') removes = true;
      else if (t === '-name' || t === '-iname') {
        const p = args[++i];
        if (p) names.push({ pattern: p.text, glob: true });
      } else if (['-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex'].includes(t)) otherTest = true;
      else if (['-exec', '-execdir', '-ok', '-okdir'].includes(t)) {
        const inner: Word[] = [];
        for (i++; i < args.length && args[i]!.text !== ';' && args[i]!.text !== '+'; i++) inner.push(args[i] as Word);
        const innerBase = (inner[0]?.text.split('/').pop() ?? '').toLowerCase();
        if (REMOVERS.has(innerBase) || innerBase === 'mv') removes = true;
        this.argv(inner, {});
      }
    }
    if (!removes) return;
    const what = `find ${args.map((a) => a.text).join(' ')}`.slice(0, 80);
    for (const [target, lock] of [
      [this.stopPath, 'stop'],
      [this.guardrailsPath, 'guardrails'],
    ] as const) {
      const leaf = target.split('/').pop() as string;
      const named = otherTest || names.length === 0 || names.some((n) => nameMatches(n.pattern, leaf, n.glob) || nameMatches(n.pattern, '.leopold', n.glob));
      if (named && starts.some((s) => operandTargets(s, target, true, this.cwds))) this.add({ lock, what });
    }
  }

  removal(words: Word[], recursive: boolean, what: string, extraDir?: string): void {
    const cwds = this.withDir(extraDir);
    if (words.some((w) => operandTargets(w, this.stopPath, recursive, cwds))) this.add({ lock: 'stop', what });
    if (words.some((w) => operandTargets(w, this.guardrailsPath, recursive, cwds))) this.add({ lock: 'guardrails', what });
  }

  overwrite(words: Word[], what: string, extraDir?: string): void {
    const cwds = this.withDir(extraDir);
    if (words.some((w) => !(w.dynamic && w.text === '') && operandTargets(w, this.guardrailsPath, false, cwds))) this.add({ lock: 'guardrails', what });
  }

  private withDir(extraDir: string | undefined): Cwds {
    if (!extraDir) return this.cwds;
    return { ...this.cwds, dirs: [...this.cwds.dirs, ...this.cwds.dirs.map((d) => resolve(d, extraDir))] };
  }
}

/** Options and operands of a coreutils-style command (`--` ends options). */
function splitOptions(args: Word[]): { options: string[]; operands: Word[] } {
  const options: string[] = [];
  const operands: Word[] = [];
  let done = false;
  for (const a of args) {
    if (!done && a.text === '--') done = true;
    else if (!done && a.text.startsWith('-') && a.text.length > 1 && !a.dynamic) options.push(a.text);
    else operands.push(a);
  }
  return { options, operands };
}

/** What `echo`, `printf` or `cat` (of a here-document) print, when it is known. */
function outputOf(cmd: SimpleCommand): { text: string; dynamic: boolean } | null {
  const [name, ...args] = cmd.words;
  const base = name?.text.split('/').pop();
  const dynamic = args.some((a) => a.dynamic);
  if (base === 'echo') {
    const rest = args.filter((a, i) => !(/^-[neE]+$/.test(a.text) && args.slice(0, i).every((b) => /^-[neE]+$/.test(b.text))));
    return { text: `${rest.map((a) => a.text.replace(/\\n/g, '\n')).join(' ')}\n`, dynamic };
  }
  if (base === 'printf') {
    const [format, ...values] = args;
    let text = (format?.text ?? '').replace(/\\n/g, '\n').replace(/\\t/g, '\t');
    let k = 0;
    text = text.replace(/%[-0-9.]*[sbdq]/g, () => values[k++]?.text ?? '');
    return { text: [text, ...values.slice(k).map((v) => v.text)].join('\n'), dynamic };
  }
  if ((base === 'cat' || base === 'tee') && cmd.stdin && args.length === 0) return cmd.stdin;
  if (cmd.stdin === null && args.length === 0 && name === undefined) return null;
  return null;
}

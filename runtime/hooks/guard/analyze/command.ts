import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { Finding, Lock } from '../findings.js';
import type { Budget } from '../shell/budget.js';
import { parseShell } from '../shell/parse.js';
import { ShellParseError, type SimpleCommand, type Word } from '../shell/types.js';
import { analyzeGit } from './git.js';
import { isCommentLine, literals, looseMentions, mentionsStopRemoval, preciseCandidates, type Candidate } from './mentions.js';
import { dirReceives, MAX_CWDS, nameMatches, namedTargets, operandHits, protectedTargets, type Cwds, type Target } from './paths.js';
import { catalogName, shipOf } from './publish.js';
import type { ArgvOptions, ScriptOptions, Unknown, WalkApi } from './walk-api.js';
import { unwrap, WRAPPERS } from './wrappers.js';

/** Where the tool call runs and what it may touch; all paths absolute. */
export interface GuardContext {
  /** The hook input's `cwd` (the directory the Bash command starts in). */
  cwd: string;
  /** The project's `.leopold/` directory. */
  leopoldDir: string;
  home: string;
  /**
   * The OS layer is in force for this command: the lock is armed, Claude Code's sandbox can
   * run here, and the command runs inside it (not excluded). The guard then refuses only
   * what the sandbox does not stop (docs/guard.md, "Two modes").
   */
  osLayer?: boolean;
  /** Looks up an alias in the user's or repository's git config (the fs edge); optional. */
  gitAlias?: (name: string) => string | undefined;
  /** A file's text, bounded (the fs edge); null when missing, unreadable or too big. Without it no file can be read, so running one is denied. */
  readFile?: (path: string) => string | null;
  /** A path with its symlinks resolved (the fs edge); identity without it. */
  realpath?: (path: string) => string;
  /** Where PATH finds a program name (the fs edge); programs are judged by name without it. */
  which?: (name: string) => string | null;
  /** The entries of a directory (the fs edge, bounded); null when it is not one. For workspaces' members. */
  listDir?: (path: string) => string[] | null;
  /** False when the project has no `node_modules/leopold` (nor its bin link): then there is no hook code there to protect. */
  hookCode?: boolean;
  /** The call comes from one of Leopold's read-only agents (a verifier, judge or reviewer): the whole project is a target. */
  readOnly?: boolean;
}

const HOOK_PATHS = ['/node_modules/leopold', '/node_modules/.bin/leopold'];

/** Longer commands are not parsed; they are denied. */
export const MAX_COMMAND_CHARS = 1 << 20;
const MAX_SCRIPT_DEPTH = 16;

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash', 'fish', 'busybox-sh', 'csh', 'tcsh']);
const REMOVERS = new Set(['rm', 'unlink', 'rmdir', 'shred', 'trash', 'trash-put', 'srm', 'gio']);
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);
/** Shell builtins and keywords: never looked up on PATH. */
const BUILTINS = new Set('cd echo printf test [ [[ true false : read export local declare set unset shift source . eval exec exit return trap type command builtin alias unalias let wait kill jobs fg bg pwd pushd popd dirs umask ulimit times hash getopts readonly typeset mapfile readarray compgen complete shopt history enable caller disown suspend logout help bind fc time coproc'.split(' '));
/** Directories whose programs are the system's, not something the agent wrote. */
const SYSTEM_DIRS = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/', '/opt/', '/snap/', '/nix/', '/System/', '/Library/', '/Applications/'];
/** Writers whose last operand is the destination (a directory receives the sources' names). */
const COPIERS = new Set(['cp', 'install', 'ln', 'rsync', 'link']);
/** Writers whose every operand is written or created. */
const TOUCHERS = new Set(['tee', 'truncate', 'touch', 'mkdir', 'mkfifo', 'mknod', 'chmod', 'chown', 'chgrp', 'setfacl', 'chattr', 'shred']);
/** A frame label of a task runner's target (`Makefile target "release"`, `Taskfile.yml task "deploy:prod"`) naming a release step. */
const RELEASE_NAMED = /(?:target|task|session)s? "(?:[^"]*[-_:.])?(?:release|publish|deploy)(?:[-_:.][^"]*)?"|(?:target|task) "(?:new-version|bump-version|version-bump)"/i;
/** String literals of one file judged as shell commands, at most. */
const MAX_LITERALS = 2000;
/** Calls whose name says they publish, release, commit, tag or push (a library's API, or the project's own release helpers). */
const SHIP_CALLS = /(?<![\w$])(publish|publishPackages?|publish_?release|upload_?release|create_?(?:git_?)?release|create_?(?:git_?)?tag|git_?tag|git_?commit|commit_?files?|git_?push|push_?tags?)\s*\(/i;
/** Calls in code that start a process. */
const SPAWNS = /child_process|\bexecSync\b|\bspawnSync\b|\bexecFileSync\b|\bexeca\b|\bsubprocess\b|\bos\.(system|popen|exec\w*|spawn\w*)|\bpty\.spawn|\bpopen\b|\bsystem\s*\(|\bexec\s*\(|\bqx\b|\bIO\.popen|\bKernel\.|\bspawn\s*\(|\bProcess\b|\bDeno\.Command\b|\bBun\.(spawn|\$)|\bzx\b|\$`/;
/** Ways code assembles a command at run time. */
const ASSEMBLED = /\+|\bjoin\b|\bchr\b|fromCharCode|decode|reverse|\[::-1\]|\beval\b|atob|Buffer\.from|%|\.format|\$\{|\$[A-Za-z_]|\breplace\b|\bsplit\b|rot13|\\x|\\u|getattr|__import__|base64|\bargv\b|\benviron\b|getenv|process\.env|\bstdin\b|\bread\b|\binput\b|\bpack\b|\bsprintf\b|\bopen\b/;

/** The programs whose arguments name what they run (runners.ts): which are known, and judging one. */
export interface Runners {
  has(base: string): boolean;
  run(base: string, args: Word[], walk: Walk, opts: ArgvOptions, cmd?: SimpleCommand): void;
}

/** A file the walk reads and judges: its label for the reason, and its text (the mentions net's scope). */
interface Frame {
  label: string;
  text: string;
  code: boolean;
}

/** A write or a run the TOCTOU check compares; `strict` when it happened where nothing else holds. */
interface Ran {
  path: string;
  what: string;
  writesBefore: number;
  strict: boolean;
  at: string;
}

/** A recorder for the mentions net: git's rules run on a mention's words and only their locks are kept. */
class MentionRecorder implements WalkApi {
  readonly found: Finding[] = [];
  constructor(readonly source: string) {}
  add(f: Finding): void {
    if (f.lock === 'commit' || f.lock === 'push' || f.lock === 'force' || f.lock === 'publish') this.found.push(f);
  }
  unjudged(): void {}
  script(): void {}
  codeNet(): void {}
  writesUnknown(): void {}
  argv(): void {}
  removal(): void {}
  pathspecs(): void {}
  overwrite(): void {}
  gitAlias(): string | undefined {
    return undefined;
  }
  env(): string | null | undefined {
    return undefined;
  }
}

const literalWord = (text: string): Word => ({ text: text.replace(/\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\{[^}]*\}/g, ''), dynamic: /\$|\{[^}]*\}/.test(text), quoted: true, glob: false });

/** The walk over a command's simple commands; the runners (runners.ts) drive it through these methods. */
export class Walk implements WalkApi {
  readonly findings: Finding[] = [];
  private vars = new Map<string, string | null>();
  private exported = new Set<string>();
  /** Shell functions defined in the current shell, with where (the word clock; -1: before this script) a call runs a body judged where it is defined. */
  private functions = new Map<string, number>();
  /** The word clock of the simple command being judged. */
  private clock = 0;
  readonly cwds: Cwds;
  readonly targets: Target[];
  private depth = 0;
  /** The files being read, outermost first. */
  private readonly frames: Frame[] = [];
  /** The simple command being judged, as written, and the command-line part it came from. */
  private at = '';
  private topAt = '';
  /** The part quoted is fixed (a line of code), whatever commands its string literals hold. */
  private pinned = false;
  /** The command line's words after quote removal, for the loose net. */
  private lineWords: string | null = null;
  /** Files the command writes (lower-case absolute paths, with whether the write was strict), and writes it cannot name. */
  private readonly written = new Map<string, boolean>();
  private unknownWrites = 0;
  private unknownStrictWrites = 0;
  /** Files the command runs or reads as a script, to check against what it writes (TOCTOU). */
  private readonly ran: Ran[] = [];
  /** What the mentions net found in each scope (a frame, or the walk itself for the command line) and kind. */
  private readonly mentionCache = new Map<object, Map<Unknown, Finding[]>>();
  /** Configuration files read so far (with the unnamed writes seen before the read). */
  private readonly configs = new Map<string, { text: string | null; writesBefore: number }>();
  /** Package scripts and make targets already judged (a script that runs itself is judged once). */
  readonly judged = new Set<string>();

  constructor(
    readonly source: string,
    readonly ctx: GuardContext,
    readonly budget: Budget,
    /** The runners (runners.ts), given by analyze.ts: they call back into the walk, so this file does not import them. */
    private readonly runners: Runners,
  ) {
    this.cwds = { dirs: [ctx.cwd], unknown: false, home: ctx.home };
    // The hooks' code is protected where it is installed (an install elsewhere, or the plugin, has none here).
    this.targets = protectedTargets(ctx.leopoldDir).filter((t) => ctx.hookCode !== false || !HOOK_PATHS.some((p) => t.path.endsWith(p)));
    if (ctx.readOnly) this.targets.push({ path: dirname(ctx.leopoldDir), lock: 'readonly', on: 'any', tree: true });
  }

  /** Nothing else holds the lock for what is judged here: no OS layer, and the command line itself (not a file the guard read). */
  get strict(): boolean {
    return this.ctx.osLayer !== true && this.frames.length === 0;
  }

  add(finding: Finding): void {
    const at = finding.at ?? (this.at || this.topAt);
    const f: Finding = { ...finding, at, via: finding.via ?? this.via(at) };
    if (this.findings.length < 64 && !this.findings.some((g) => g.lock === f.lock && g.what === f.what && g.at === f.at)) this.findings.push(f);
  }

  /** Where a part was found: the command-line part it came from, then the files read. */
  private via(at: string): string[] {
    const via: string[] = [];
    if (this.topAt !== '' && this.topAt !== at) via.push(`\`${this.topAt}\``);
    for (const f of this.frames) via.push(f.label);
    return via.slice(0, 4);
  }

  unjudged(what: string, kind: Unknown = 'run'): void {
    if (this.strict) {
      this.add({ lock: 'unjudged', what });
      return;
    }
    for (const f of this.mentionsHere(kind)) this.add({ ...f, what: `${what}, and ${f.what}` });
    // Inside a target, script or task named for releasing, a step the guard cannot see through is taken to release.
    const named = kind === 'run' ? this.frames.find((f) => RELEASE_NAMED.test(f.label)) : undefined;
    if (named) this.add({ lock: 'publish', what: `${what}, inside ${named.label}, which is named for releasing`, instead: 'nothing: the user releases after the run' });
  }

  /**
   * What the mentions net finds in the current scope: the command line (loose), or the
   * file being read (precise). For an unknown path: the protected paths it names.
   */
  private mentionsHere(kind: Unknown): Finding[] {
    const frame = this.frames.at(-1);
    const text = frame ? frame.text : this.source;
    // Cached per scope (the frame object, or the command line) and kind: the net runs once per text.
    const scopeKey = frame ?? this;
    const cached = this.mentionCache.get(scopeKey)?.get(kind);
    if (cached) return cached;
    this.budget.spend(1 + (text.length >> 8));
    const found: Finding[] = [];
    const scope = frame ? `${frame.label} names` : 'the command names';
    if (kind === 'path') {
      for (const t of namedTargets(text, this.targets)) found.push({ lock: t.lock, what: `${scope} ${t.path.split('/').slice(-2).join('/')}` });
      if (/\bSTOP\b/.test(text) && /\.leopold/.test(text)) found.push({ lock: 'stop', what: `${scope} .leopold/STOP` });
    } else if (frame) {
      for (const c of preciseCandidates(text, frame.code)) found.push(...this.judgeCandidate(c, scope));
    } else {
      // The text as written, and the words as the shell reads them (`$'\x63ommit'` is commit).
      // The command as written (without its comment lines) and its words as the shell reads them (`$'\x63ommit'` is commit).
      const loose = looseMentions(`${text.replace(/^[ \t]*#.*$/gm, '')}\n${this.lineWords ?? ''}`);
      if (loose.commit) found.push({ lock: 'commit', what: `${scope} the git verb ${loose.commit}` });
      if (loose.push) found.push({ lock: 'push', what: `${scope} the git verb ${loose.push}` });
      if (loose.force) found.push({ lock: 'force', what: `${scope} a force-push` });
      for (const c of loose.ships) found.push(...this.judgeCandidate(c, scope));
      if (loose.publishWord && !found.some((f) => f.lock === 'publish')) found.push({ lock: 'publish', what: `${scope} publish`, instead: 'nothing: the user publishes after the run' });
    }
    const unique = found.filter((f, i) => found.findIndex((g) => g.lock === f.lock && g.what === f.what) === i).slice(0, 16);
    const byKind = this.mentionCache.get(scopeKey) ?? new Map<Unknown, Finding[]>();
    byKind.set(kind, unique);
    this.mentionCache.set(scopeKey, byKind);
    return unique;
  }

  /** A candidate of the net, judged by the same rules as a literal command, keeping only its locks. */
  private judgeCandidate(c: Candidate, scope: string): Finding[] {
    if (c.kind === 'ship') {
      const ship = shipOf(c.program, c.args);
      return ship ? [{ lock: ship.entry.lock ?? 'publish', what: `${scope} \`${[c.program, ...c.args].join(' ').slice(0, 60)}\` (${ship.what})`, instead: ship.entry.instead }] : [];
    }
    const rec = new MentionRecorder(c.line);
    analyzeGit(c.args.map(literalWord), rec, {});
    return rec.found.map((f) => ({ lock: f.lock, what: `${scope} \`git ${c.args.join(' ').slice(0, 60)}\``, ...(f.instead ? { instead: f.instead } : {}) }));
  }

  /** What text the guard could not parse or read whole names (the loose net on the command line, the precise one in a file): refused besides. */
  named(text: string, what: string): void {
    const at = this.at || text.trim().slice(0, 60);
    if (this.frames.length > 0) {
      for (const c of preciseCandidates(text, false)) for (const f of this.judgeCandidate(c, `${what} names`)) this.add({ ...f, at });
      return;
    }
    const loose = looseMentions(text);
    if (loose.commit) this.add({ lock: 'commit', what: `${what} names the git verb ${loose.commit}`, at });
    if (loose.push) this.add({ lock: 'push', what: `${what} names the git verb ${loose.push}`, at });
    if (loose.force) this.add({ lock: 'force', what: `${what} names a force-push`, at });
    for (const c of loose.ships) for (const f of this.judgeCandidate(c, `${what} names`)) this.add({ ...f, at });
    if (loose.publishWord && !this.findings.some((f) => f.lock === 'publish')) this.add({ lock: 'publish', what: `${what} names publish`, at, instead: 'nothing: the user publishes after the run' });
  }

  gitAlias(name: string): string | undefined {
    return this.ctx.gitAlias?.(name);
  }

  env(name: string): string | null | undefined {
    return this.vars.get(name);
  }

  /** Judges `fn` as the contents of a file the guard read (a package script, a script file, a Makefile recipe). */
  inFile<T>(label: string, text: string, code: boolean, fn: () => T): T {
    this.frames.push({ label, text, code });
    try {
      return fn();
    } finally {
      this.frames.pop();
    }
  }

  /** Judges `fn` as if run in `dir` (a package script runs in its package's directory). */
  inDir<T>(dir: string, fn: () => T): T {
    const saved = { dirs: this.cwds.dirs, unknown: this.cwds.unknown };
    this.cwds.dirs = [dir];
    this.cwds.unknown = false;
    try {
      return fn();
    } finally {
      this.cwds.dirs = saved.dirs;
      this.cwds.unknown = saved.unknown;
    }
  }

  /** After the walk: a script run by a command that also writes it is a check-then-use race. */
  finish(): void {
    // A loop may run a file again after a later write; otherwise only earlier unnamed writes count.
    const loops = /\b(while|until|for|select)\b/.test(this.source);
    const saved = this.at;
    for (const run of this.ran) {
      this.at = run.at;
      const wrote = this.written.get(run.path.toLowerCase());
      const why =
        wrote !== undefined
          ? `${run.what}: the same command writes that file before it runs, so the guard cannot read what will run; write it in one call and run it in another`
          : run.writesBefore > 0 || (loops && this.unknownWrites > 0)
            ? `${run.what}: the same command writes files the guard cannot name, so what will run is not known; run it in its own call`
            : null;
      if (why === null) continue;
      const strict = run.strict && (wrote === true || (wrote === undefined && this.unknownStrictWrites > 0));
      if (strict) this.add({ lock: 'unjudged', what: why });
      else if (this.ctx.osLayer !== true || this.frames.length > 0) this.unjudged(why);
      else for (const f of this.mentionsHere('run')) this.add({ ...f, what: `${why}, and ${f.what}` });
    }
    this.at = saved;
  }

  script(text: string, dynamic: boolean, what = 'runs a script', opts: ScriptOptions = {}): void {
    this.budget.spend();
    if (dynamic) {
      this.unjudged(`${what} computed at run time (eval, bash -c, source of text that is not literal)`);
      return;
    }
    if (this.depth >= MAX_SCRIPT_DEPTH) {
      this.unjudged('nests shell scripts too deeply for the guard');
      return;
    }
    // A new process sees only exported variables and the ones set for it; the same shell sees all.
    let vars = this.vars;
    if (opts.sameShell !== true) {
      vars = new Map();
      for (const [name, value] of this.vars) vars.set(name, this.exported.has(name) || this.exported.has('*') ? value : null);
      for (const [name, value] of opts.env ?? []) vars.set(name, value);
    }
    let parsed: ReturnType<typeof parseShell>;
    try {
      parsed = parseShell(text, vars, this.budget);
    } catch (error) {
      if (!(error instanceof ShellParseError)) throw error;
      if (opts.quiet) return;
      const where = opts.file ?? (this.depth === 0 ? 'the command' : 'a script it runs');
      const run = () => {
        if (this.strict) {
          this.add({ lock: 'unjudged', what: `the guard could not parse ${where} (${error.message}); write it more simply`, at: this.at || text.trim().slice(0, 60) });
          this.named(text, 'the unparsed text');
        } else this.unjudged(`the guard could not parse ${where} (${error.message})`);
      };
      if (opts.file) this.inFile(opts.file, text, false, run);
      else run();
      return;
    }
    if (this.depth === 0 && this.frames.length === 0) this.lineWords = wordsOf(parsed.commands);
    const outer = { vars: this.vars, exported: this.exported, functions: this.functions, clock: this.clock, at: this.at, topAt: this.topAt, pinned: this.pinned };
    this.functions = opts.sameShell === true ? new Map([...[...outer.functions].map(([n]) => [n, -1] as const), ...parsed.functions]) : parsed.functions;
    if (opts.quiet) this.pinned = true; // a string literal's commands are quoted as the line of code that holds it
    this.vars = parsed.vars;
    this.exported = opts.sameShell === true ? new Set([...outer.exported, ...parsed.exported]) : parsed.exported;
    this.depth++;
    const walk = () => {
      for (const cmd of parsed.commands) this.simple(cmd);
    };
    try {
      if (opts.file) this.inFile(opts.file, text, false, walk);
      else walk();
    } finally {
      this.depth--;
      this.vars = outer.vars;
      this.exported = outer.exported;
      // Functions a sourced file defines stay defined in the shell that sourced it, from there on.
      const sourced = this.functions;
      this.functions = outer.functions;
      if (opts.sameShell === true) for (const name of sourced.keys()) if (!this.functions.has(name)) this.functions.set(name, outer.clock);
      this.at = outer.at;
      this.topAt = outer.topAt;
      this.pinned = outer.pinned;
    }
  }

  private simple(cmd: SimpleCommand): void {
    this.budget.spend();
    this.clock = cmd.clock;
    if (cmd.source !== '' && !this.pinned) {
      this.at = cmd.source;
      if (this.depth === 1 && this.frames.length === 0) this.topAt = cmd.source;
    }
    if (cmd.arithmetic !== undefined) {
      // Soft in every mode: `(( n > 3 ))` after `n=$(…)` is ordinary; only what the net finds around it is refused.
      for (const f of this.mentionsHere('run')) this.add({ ...f, what: `${cmd.arithmetic}, and ${f.what}` });
      return;
    }
    const writes = cmd.redirects.filter((r) => WRITE_REDIRECTS.has(r.op) && !(r.op === '>&' && /^(\d+|-)$/.test(r.target.text) && !r.target.dynamic)).map((r) => r.target);
    if (writes.length > 0) this.overwrite(writes, 'a redirection');
    const assignments = new Map(cmd.assignments.map((a) => [a.name, a.value.dynamic ? null : a.value.text] as const));
    this.argv(cmd.words, { assignments }, cmd);
  }

  /** The publishing catalog (publish.ts) on a program and its arguments. */
  ship(program: string, args: Word[]): void {
    const found = shipOf(program, args.map((a) => (a.dynamic ? `${a.text}\u0000` : a.text)));
    const name = catalogName(program);
    if (found) this.add({ lock: found.entry.lock ?? 'publish', what: found.what.startsWith(name) ? found.what : `${name}: ${found.what}`, ...(found.entry.instead ? { instead: found.entry.instead } : {}) });
  }

  argv(input: Word[], opts: ArgvOptions, cmd?: SimpleCommand): void {
    this.budget.spend();
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
    this.environment(opts);

    if (name.dynamic) {
      // `${PREFIX}twine upload`, `$VENV/bin/git push`: the program's own name is known even if its directory is not.
      const known = /^[A-Za-z0-9._+-]+$/.test(base) && base.length > 1 ? base : null;
      if (known !== null) {
        this.ship(known, args);
        if (known === 'git') analyzeGit(args, this, opts);
      }
      this.unjudged(`the program name is computed at run time (${shown(words)})`);
      return;
    }
    if (name.glob && name.text !== '[' && name.text !== '[[') {
      this.unjudged(`the program name is a glob (${shown(words)})`);
      return;
    }
    if (base === 'git' || base === 'git.exe') {
      analyzeGit(args, this, opts);
      return;
    }
    const dashed = /^git-([a-z-]+)$/.exec(base);
    if (dashed) {
      analyzeGit([{ ...name, text: dashed[1] as string }, ...args], this, opts);
      return;
    }
    if (/^leopold(\.[cm]?js)?$/.test(base)) return this.leopold(args, words);
    // A call of a shell function the script defined before it: its body was judged where it is defined.
    if (cmd !== undefined && input === cmd.words && !path.includes('/') && !name.quoted && (this.functions.get(path) ?? Number.POSITIVE_INFINITY) < cmd.clock) return;
    this.ship(base, args);
    if (path.includes('/') && !this.systemProgram(path)) {
      if (!this.localProgram(path, args, opts, cmd)) return;
    } else if (!path.includes('/') && !BUILTINS.has(path) && this.ctx.which) {
      // A script PATH finds outside the system directories (`~/.local/bin/ls`) is read too; binaries found there are trusted.
      const found = this.ctx.which(path);
      if (found !== null && !this.systemProgram(found)) this.pathScript(found);
    }
    if (Object.hasOwn(WRAPPERS, base)) {
      const inner = unwrap(base, args);
      if (inner.kind === 'script') this.script(inner.text, inner.dynamic, `${base} runs a script`, { env: new Map([...(opts.assignments ?? []), ...(base === 'su' ? [] : [])]) });
      else if (inner.kind === 'argv') {
        const assignments = new Map([...(opts.assignments ?? []), ...inner.assignments]);
        if (inner.words.length === 0 && (base === 'chroot' || base === 'script')) return this.shellStdin(base, cmd);
        this.argv(inner.words, { assignments, unknownTrailing: inner.trailing || opts.unknownTrailing === true, replace: inner.replace }, cmd);
      }
      return;
    }
    if (SHELLS.has(base)) return this.shell(base, args, opts, cmd);
    switch (base) {
      case 'eval':
        return this.script(args.map((a) => a.text).join(' '), args.some((a) => a.dynamic), 'eval runs text', { sameShell: true });
      case 'source':
      case '.':
        return this.sourceFile(base, args, cmd);
      case 'trap':
        if (args.length >= 2 && !args[0]!.text.startsWith('-')) this.script(args[0]!.text, args[0]!.dynamic, 'trap runs a script', { sameShell: true });
        return;
      case 'watch': {
        const rest: Word[] = [];
        for (let i = 0; i < args.length; i++) {
          const t = args[i]!.text;
          if (rest.length === 0 && t.startsWith('-')) {
            if (['-n', '--interval', '-d', '--differences', '-q', '--equexit'].includes(t) && !t.includes('=')) i += ['-n', '--interval', '-q', '--equexit'].includes(t) ? 1 : 0;
            continue;
          }
          rest.push(args[i] as Word);
        }
        return this.script(rest.map((a) => a.text).join(' '), rest.some((a) => a.dynamic), 'watch runs a command');
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
    if (COPIERS.has(base)) return this.copy(base, args);
    if (TOUCHERS.has(base) || base === 'dd') return this.writers(base, args);
    const runner = this.runners.has(base) ? base : /^(python|perl|ruby|node|php|lua)[0-9.]+$/.test(base) ? base.replace(/[0-9.]+$/, '') : null;
    if (runner !== null && this.runners.has(runner)) this.runners.run(runner, args, this, opts, cmd);
  }

  /** Variables that make the next program run something else: judged like the program itself. */
  private environment(opts: ArgvOptions): void {
    for (const [name, value] of opts.assignments ?? []) {
      if (name === 'BASH_ENV' || name === 'ENV') {
        if (value === null) this.unjudged(`${name} computed at run time names a script every shell runs first`);
        else this.runFile({ text: value, dynamic: false, quoted: true, glob: false }, `${name}=${value}`, 'shell');
      } else if (/^(LD_PRELOAD|LD_AUDIT|NODE_OPTIONS|PERL5OPT|PYTHONSTARTUP|PYTHONINSPECT|RUBYOPT|GIT_EXEC_PATH|GIT_TEMPLATE_DIR|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|GIT_CONFIG)$/.test(name)) {
        if (name === 'NODE_OPTIONS' && value !== null && !/(^|\s)(-r|--require|--import|--loader|--experimental-loader|-e|--eval)\b/.test(value)) continue;
        this.unjudged(`${name}=${value ?? '…'} makes programs load code or config the guard cannot see; run without it`);
      } else if (name === 'PATH' && (value === null || value.split(':').some((d) => d !== '' && !SYSTEM_DIRS.some((s) => `${d}/`.startsWith(s)) && !/node_modules\/\.bin$/.test(d)))) {
        this.unjudged(`PATH=${value ?? '…'} puts programs the guard cannot see ahead of the system's; call them by path`);
      }
    }
  }

  /** Is this program the system's (under /usr, /bin, …) rather than a file in the project or home? */
  private systemProgram(path: string): boolean {
    if (!isAbsolute(path)) return false;
    const real = this.ctx.realpath ? this.ctx.realpath(path) : path;
    return SYSTEM_DIRS.some((d) => real.startsWith(d) && path.startsWith(d));
  }

  /**
   * `./build.sh`, `scripts/x.py`, `~/bin/tool`: a program the agent may have written. A script
   * with a shebang is judged by its text; a binary, or one the guard cannot read, is unknown.
   * Returns true when the caller should still judge the argv by the program's name.
   */
  private localProgram(path: string, args: Word[], opts: ArgvOptions, cmd?: SimpleCommand): boolean {
    const base = basename(path).toLowerCase();
    if (/^leopold(\.[cm]?js)?$/.test(base)) return true;
    const found = this.readFiles({ text: path, dynamic: false, quoted: false, glob: false }, `runs ${path}`);
    // Unreadable (a binary, or not there yet): still judged by its name (`.venv/bin/python -m twine upload`).
    if (found === null) return true;
    for (const { path: file, text } of found) {
      const label = this.label(file);
      const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
      if (!shebang) {
        if (/[\0-\x08\x0e-\x1f]/.test(text.slice(0, 512))) this.unjudged(`runs ${path}, a program the guard cannot read (a binary)`);
        else this.script(text, false, `runs ${path}`, { file: label, env: opts.assignments }); // no shebang: the shell runs it as a shell script
        continue;
      }
      let interp = (shebang[1] as string).split('/').pop() ?? '';
      if (interp === 'env') interp = (shebang[2] === '-S' ? '' : (shebang[2] ?? '')).split('/').pop() ?? '';
      if (SHELLS.has(interp)) this.script(text, false, `runs ${path}`, { file: label, env: opts.assignments });
      else this.inFile(label, text, true, () => this.codeNet(text, label));
    }
    void args;
    void cmd;
    return false;
  }

  /** A script found on PATH: its text goes through the mentions net (a binary is trusted). */
  private pathScript(path: string): void {
    this.budget.spend(16);
    this.ran.push({ path, what: `runs ${path}`, writesBefore: this.unknownWrites, strict: this.strict, at: this.at });
    const text = this.ctx.readFile?.(path) ?? null;
    if (text === null || /[\0-\x08\x0e-\x1f]/.test(text.slice(0, 512))) return;
    // Judged as a file the guard read: shims and wrappers (pyenv, nvm) run "$@" by design, which
    // is unknown there and refused only beside what the mentions net finds.
    const label = `${path} (a script on PATH)`;
    const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
    const interp = shebang ? ((shebang[1] as string).endsWith('/env') ? (shebang[2] ?? '') : (shebang[1] as string)).split('/').pop() ?? '' : 'sh';
    if (SHELLS.has(interp)) this.script(text, false, `runs ${path}`, { file: label });
    else this.inFile(label, text, true, () => this.codeNet(text, label));
  }

  /** `leopold run unlock`, `leopold run allow git|push`: only the user may lift the lock. */
  leopold(args: Word[], words: Word[]): void {
    const positional = args.filter((a) => !a.text.startsWith('-'));
    const [group, verb] = positional;
    if (args.some((a) => a.dynamic) || (group?.text === 'run' && (verb?.text === 'unlock' || verb?.text === 'allow'))) {
      this.add({ lock: 'self', what: `${shown(words)} lifts the run lock` });
    }
    // A tick without a verification receipt is the user's to give (docs/runtime.md, "Done means verified").
    if (group?.text === 'plan' && verb?.text === 'tick' && args.some((a) => a.text === '--unverified')) {
      this.add({ lock: 'self', what: `${shown(words)} ticks an item nobody verified` });
    }
  }

  /** `sh -c '…'`, `bash -lc …`, `sh <<EOF`, `echo … | sh`, `bash FILE`, `bash -s`, `bash <(…)`; `bash --version` and `bash -n` run nothing. */
  private shell(base: string, args: Word[], opts: ArgvOptions, cmd?: SimpleCommand): void {
    let i = 0;
    let command = false;
    let fromStdin = false;
    let login = false;
    for (; i < args.length; i++) {
      const t = (args[i] as Word).text;
      if ((args[i] as Word).dynamic && (t === '' || t.startsWith('-'))) {
        if (t.startsWith('-')) return this.unjudged(`${base} with options computed at run time`);
        break; // `bash <(…)`, `bash "$f"`: a script file named at run time
      }
      if (t === '--' || t === '-') {
        i++;
        break;
      }
      if (!/^[-+]./.test(t)) break;
      if (t.startsWith('--')) {
        if (['--version', '--help'].includes(t)) return;
        if (['--rcfile', '--init-file'].includes(t)) {
          this.runFile(args[++i] ?? { text: '', dynamic: true, quoted: false, glob: false }, `${base} ${t}`, 'shell');
        }
        if (t === '--command') command = true;
        if (t === '--login') login = true;
        continue;
      }
      const cluster = t.slice(1);
      // -n reads without running; -c runs its argument; -s reads stdin; -l is a login shell.
      if (t.startsWith('-') && cluster.includes('n') && !cluster.includes('c')) return;
      if (cluster.includes('c')) command = true;
      if (cluster.includes('s')) fromStdin = true;
      if (cluster.includes('l')) login = true;
      if (/[oO]/.test(cluster)) i++;
    }
    if (login) {
      for (const rc of ['.bash_profile', '.bash_login', '.profile', '.bashrc', '.zprofile', '.zshrc']) {
        const path = join(this.cwds.home, rc);
        const text = this.readConfig(path);
        if (text) this.script(text, false, `${base} -l reads ${rc}`, { file: `~/${rc}`, env: opts.assignments });
      }
    }
    if (command) {
      const script = args[i];
      if (script) this.script(script.text, script.dynamic, `${base} -c runs a script`, { env: opts.assignments });
      return;
    }
    const file = args[i];
    if (file && !fromStdin && !/^\/dev\/(stdin|fd\/0)$|^\/proc\/self\/fd\/0$/.test(file.text)) {
      this.runFile(file, `${base} ${file.text}`, 'shell', opts.assignments);
      return;
    }
    this.shellStdin(base, cmd, (text) => this.script(text, false, `${base} reads a script`, { env: opts.assignments }));
  }

  /** A shell (or ed, at, script, an interpreter) that reads its commands from stdin: a literal here-doc, here-string, file or echo is judged; anything else is unknown. */
  shellStdin(base: string, cmd?: SimpleCommand, judge: (text: string) => void = (text) => this.script(text, false)): void {
    const input = cmd?.redirects.find((r) => r.op === '<');
    if (cmd?.stdin) {
      if (cmd.stdin.dynamic) this.unjudged(`${base} reads a script whose text is computed at run time`);
      else judge(cmd.stdin.text);
      return;
    }
    if (input) {
      const found = this.readFiles(input.target, `${base} < ${input.target.text}`);
      if (found) for (const f of found) judge(f.text);
      return;
    }
    const piped = cmd?.pipedFrom ? outputOf(cmd.pipedFrom) : null;
    if (piped && !piped.dynamic) judge(piped.text);
    else this.unjudged(`${base} reads its commands from stdin${cmd?.pipedFrom ? ' (output computed at run time)' : ''}; pass them with -c '…' written out literally`);
  }

  /** `source FILE` / `. FILE`: the file is read and judged in the same shell. */
  private sourceFile(base: string, args: Word[], cmd?: SimpleCommand): void {
    const file = args[0];
    if (!file) return;
    if (/^\/dev\/(stdin|fd\/0)$|^\/proc\/self\/fd\/0$/.test(file.text) && !file.dynamic) return this.shellStdin(base, cmd, (text) => this.script(text, false, `${base} reads a script`, { sameShell: true }));
    for (const f of this.readFiles(file, `${base} ${file.text}`) ?? []) this.script(f.text, false, `${base} ${file.text}`, { file: this.label(f.path), sameShell: true });
  }

  /** A project-relative label for a file the guard reads (its path as given, outside the project). */
  label(path: string): string {
    const root = dirname(this.ctx.leopoldDir);
    return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
  }

  /**
   * Reads the file `word` names (relative to every directory a `cd` may have reached) and
   * judges it as a file: as a shell script, or with the mentions net for other code. Unknown
   * when it is computed, missing, unreadable or too big, or when the same command writes it.
   */
  runFile(word: Word, what: string, kind: 'shell' | 'code', env?: Map<string, string | null>): void {
    for (const { path, text } of this.readFiles(word, what) ?? []) {
      const label = this.label(path);
      if (kind === 'shell') this.script(text, false, what, { file: label, env });
      else this.inFile(label, text, true, () => this.codeNet(text, label));
    }
  }

  /** The texts of the file `word` names (one per directory it may be relative to). */
  readAll(word: Word, what: string): string[] | null {
    return this.readFiles(word, what)?.map((f) => f.text) ?? null;
  }

  /** The files `word` names with their texts, one per directory it may be relative to; null (after an unknown) when none can be read. */
  readFiles(word: Word, what: string): { path: string; text: string }[] | null {
    if (word.dynamic || word.glob || word.text === '') {
      this.unjudged(`${what}: a file named at run time (process substitution, variable or glob)`);
      return null;
    }
    const text = word.text.startsWith('~/') ? join(this.cwds.home, word.text.slice(2)) : word.text;
    if (!isAbsolute(text) && this.cwds.unknown) {
      this.unjudged(`${what}: after a cd to a computed directory the guard cannot tell which file runs`);
      return null;
    }
    const paths = isAbsolute(text) ? [text] : this.cwds.dirs.map((d) => resolve(d, text));
    const found: { path: string; text: string }[] = [];
    for (const path of [...new Set(paths)]) {
      this.budget.spend(16);
      this.ran.push({ path, what, writesBefore: this.unknownWrites, strict: this.strict, at: this.at });
      const body = this.ctx.readFile?.(path) ?? null;
      if (body !== null) {
        this.budget.spend(body.length >> 8);
        found.push({ path, text: body });
      }
    }
    if (found.length === 0) {
      this.unjudged(`${what}: the guard cannot read that file (missing, unreadable or over 256 KiB)`);
      return null;
    }
    return found;
  }

  /** A file the runners read as configuration (package.json, Makefile): null when absent; it also joins the TOCTOU check. Read once per walk. */
  readConfig(path: string): string | null {
    const cached = this.configs.get(path);
    if (cached !== undefined && cached.writesBefore === this.unknownWrites) return cached.text;
    this.budget.spend(16);
    this.ran.push({ path, what: `reads ${this.label(path)}`, writesBefore: this.unknownWrites, strict: this.strict, at: this.at });
    const text = cached?.text !== undefined ? cached.text : (this.ctx.readFile?.(path) ?? null);
    this.configs.set(path, { text, writesBefore: this.unknownWrites });
    return text;
  }

  /**
   * Code the guard cannot run (interpreter code, gdb or vim commands, a script on PATH):
   * a protected path named, kill-switch removal, `leopold run unlock`; the commands its
   * string literals run (`execSync('git push')`, `spawn('npm', ['publish'])`: judged like
   * the command line); and a process started with a command assembled at run time, which
   * is unknown (on the command line without the OS layer: refused; elsewhere only what the
   * mentions net finds around it).
   */
  codeNet(code: string, what: string, backticksRun = false): void {
    this.budget.spend(1 + (code.length >> 8));
    const saved = this.at;
    try {
      const lines = code.split('\n');
      const lineOf = (re: RegExp) => lines.find((l) => re.test(l))?.trim().slice(0, 120) ?? saved;
      for (const t of namedTargets(code, this.targets)) {
        const name = basename(t.path);
        this.add({ lock: t.lock, what: `${what} names ${t.path.split('/').slice(-2).join('/')}`, at: lineOf(new RegExp(name.replace(/\./g, '\\.'), 'i')) });
      }
      if (mentionsStopRemoval(code)) this.add({ lock: 'stop', what: `${what} removes .leopold/STOP`, at: lineOf(/STOP/i) });
      if (/\bleopold\b[^\n]*\brun\b[^\n]*\b(unlock|allow)\b/.test(code)) this.add({ lock: 'self', what: `${what} runs leopold run unlock/allow`, at: lineOf(/\bleopold\b/) });
      if (backticksRun) {
        for (const m of code.matchAll(/`([^`\n]{1,4000})`/g)) {
          this.at = (m[0] as string).slice(0, 120);
          this.script(m[1] as string, /[$@]/.test(m[1] as string), `${what} runs a command in backticks`);
        }
      }
      // Literal commands in the code, wherever they are (arrays too: spawn('git', ['push'])).
      for (const c of preciseCandidates(code, true)) {
        this.at = c.line.slice(0, 120);
        const words = (c.kind === 'git' ? ['git', ...c.args] : [c.program, ...c.args]).map(literalWord);
        this.argv(words, {});
      }
      // Calls named for what they do (`publish({…})` of a release library, `release.create_git_tag(…)`).
      for (const line of lines) {
        const call = SHIP_CALLS.exec(line);
        if (!call || isCommentLine(line)) continue;
        const publish = /publish|upload|release/i.test(call[1] as string);
        this.add({ lock: publish ? 'publish' : 'commit', what: `${what} calls ${call[1]}()`, at: line.trim().slice(0, 120), instead: publish ? 'nothing: the user publishes after the run' : 'leave the change in the working tree; the user commits and tags after the run' });
      }
      if (SPAWNS.test(code)) {
        // Quote the line that starts a process with an assembled command, when one line does both.
        this.at = lines.find((l) => SPAWNS.test(l) && ASSEMBLED.test(l))?.trim().slice(0, 120) ?? lineOf(SPAWNS);
        if (ASSEMBLED.test(code)) this.unjudged(`${what} starts a process whose command is assembled at run time`);
        // Each string literal may be a shell command the code runs (`execSync('rm -rf .leopold')`).
        let judgedLiterals = 0;
        for (const line of lines) {
          if (!/["'`]/.test(line) || isCommentLine(line)) continue;
          for (const literal of literals(line.length > 4096 ? line.slice(0, 4096) : line)) {
            if (!/^[A-Za-z./~]/.test(literal) || !/\s/.test(literal) || ++judgedLiterals > MAX_LITERALS) continue;
            this.at = line.trim().slice(0, 120);
            this.script(literal, false, 'a string literal', { quiet: true });
          }
        }
      }
    } finally {
      this.at = saved;
    }
  }

  /** `… | xargs rm`: the operands arrive at run time; judge by what the command mentions. */
  private trailingRemoval(base: string, opts: ArgvOptions): void {
    if (opts.unknownTrailing && /\bSTOP\b|\.leopold|\.claude|ALLOW_|lock\.json|GUARDRAILS|node_modules/i.test(this.source)) {
      this.add({ lock: 'stop', what: `${base} with operands supplied at run time, in a command that mentions a protected path` });
    }
  }

  private remove(base: string, args: Word[], opts: ArgvOptions): void {
    this.trailingRemoval(base, opts);
    if (base === 'gio' && !['trash', 'remove', 'rm'].includes(args[0]?.text ?? '')) return;
    if (base === 'shred' && !args.some((a) => /^-[a-z]*u|^--remove/.test(a.text))) return this.writers(base, args);
    const { options, operands } = splitOptions(base === 'gio' ? args.slice(1) : args);
    const recursive = options.some((o) => /^-[a-zA-Z]*[rR]/.test(o) || o === '--recursive') || base === 'rmdir';
    this.removal(operands, recursive, `${base} ${args.map((a) => a.text).join(' ')}`.slice(0, 80));
  }

  private move(args: Word[], opts: ArgvOptions): void {
    this.trailingRemoval('mv', opts);
    const { options, operands, target } = splitTarget(args);
    const what = `mv ${args.map((a) => a.text).join(' ')}`.slice(0, 80);
    const sources = target ? operands : operands.slice(0, -1);
    const dest = target ?? operands.at(-1);
    this.removal(sources, true, what);
    if (dest) this.place(sources, dest, what, target !== undefined || options.includes('-T') === false);
  }

  private copy(base: string, args: Word[]): void {
    const { options, operands, target } = splitTarget(args);
    const what = `${base} ${args.map((a) => a.text).join(' ')}`.slice(0, 80);
    if (base === 'install' && options.some((o) => o === '-d' || o === '--directory')) return this.overwrite(operands, what);
    const sources = target ? operands : operands.slice(0, -1);
    const dest = target ?? operands.at(-1);
    if (base === 'ln' || base === 'link') {
      // A link to a protected file is a second name for it: writing through it writes the file.
      for (const s of sources) {
        const symbolic = options.some((o) => /^-[a-zA-Z]*s/.test(o) || o === '--symbolic');
        const from = symbolic && dest && !isAbsolute(s.text) ? { ...s, text: join(dirname(dest.text), s.text) } : s;
        // A link to a protected file, or to a directory holding one, is a second name for it.
        for (const t of this.hits(from, true, true)) this.add({ lock: t.lock, what: `${what} (links to a protected path)` });
        if (symbolic && !s.dynamic && dest && !isAbsolute(s.text)) for (const t of this.hits(s, true, true)) this.add({ lock: t.lock, what: `${what} (links to a protected path)` });
      }
    }
    if (base === 'rsync' && options.some((o) => /^--remove-source-files$/.test(o))) this.removal(sources, false, what);
    if (dest) this.place(sources, dest, what, true);
  }

  /** `cp a b dir/`: the destination itself, and (when it may be a directory) each source's name inside it. */
  private place(sources: Word[], dest: Word, what: string, mayBeDir: boolean): void {
    this.overwrite([dest], what);
    if (!mayBeDir || dest.dynamic) return;
    for (const s of sources) {
      // `src/.`, `src/` (rsync) and globs copy contents the guard cannot name.
      const name = s.dynamic || s.glob || /(^|\/)\.?\/?$/.test(s.text) || s.text.endsWith('/') ? '' : basename(s.text);
      if (name === '') {
        // An unknown name placed in a protected directory (`cp "$x" .leopold/`).
        for (const t of this.receives(dest)) this.add({ lock: t.lock, what: `${what} (files it cannot name, into a protected directory)` });
        continue;
      }
      this.overwrite([{ ...dest, text: `${dest.text.replace(/\/+$/, '')}/${name}` }], what);
    }
  }

  private writers(base: string, args: Word[]): void {
    const { operands } = splitOptions(args);
    const what = `${base} ${args.map((a) => a.text).join(' ')}`.slice(0, 80);
    if (base === 'dd') {
      const of = args.find((a) => a.text.startsWith('of='));
      if (of) this.overwrite([{ ...of, text: of.text.slice(3) }], what);
      return;
    }
    if (base === 'chmod' || base === 'chown' || base === 'chgrp' || base === 'setfacl' || base === 'chattr') return this.overwrite(operands.slice(1), what);
    if (base === 'truncate') {
      const values = new Set<number>();
      args.forEach((a, i) => {
        if (a.text === '-s' || a.text === '-r' || a.text === '--size' || a.text === '--reference') values.add(i + 1);
      });
      return this.overwrite(args.filter((a, i) => !values.has(i) && !a.text.startsWith('-')), what);
    }
    this.overwrite(operands, what);
  }

  private changeDir(args: Word[]): void {
    const target = args.find((a) => !a.text.startsWith('-') || a.text === '-');
    if (!target || target.dynamic || target.text === '-' || target.glob) {
      this.cwds.unknown = true;
      if (!target && this.cwds.dirs.length < MAX_CWDS) this.cwds.dirs.push(this.cwds.home);
      return;
    }
    const text = target.text === '~' ? this.cwds.home : target.text.startsWith('~/') ? join(this.cwds.home, target.text.slice(2)) : target.text;
    for (const d of [...this.cwds.dirs]) {
      if (this.cwds.dirs.length >= MAX_CWDS) {
        // Too many places a chain of cd may have reached: judge relative paths by name from here on.
        this.cwds.unknown = true;
        return;
      }
      const next = resolve(d, text);
      if (!this.cwds.dirs.includes(next)) this.cwds.dirs.push(next);
    }
  }

  /** `find DIR … -delete` / `-exec rm {} ;` over a protected path, and `-exec` commands. */
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
      else if (['-fprint', '-fprint0', '-fprintf', '-fls'].includes(t)) {
        const f = args[++i];
        if (f) this.overwrite([f], `find ${t} ${f.text}`);
      } else if (['-exec', '-execdir', '-ok', '-okdir'].includes(t)) {
        const inner: Word[] = [];
        for (i++; i < args.length && args[i]!.text !== ';' && args[i]!.text !== '+'; i++) {
          const w = args[i] as Word;
          inner.push(w.text.includes('{}') ? { ...w, text: w.text.replace(/\{\}/g, ''), dynamic: true } : w);
        }
        const innerBase = (inner[0]?.text.split('/').pop() ?? '').toLowerCase();
        if (REMOVERS.has(innerBase) || innerBase === 'mv') removes = true;
        if (inner.some((w) => w.dynamic) && /^(cp|mv|ln|install|tee|dd|touch|truncate|rsync)$/.test(innerBase) && /\.leopold|\.claude|node_modules|\.git\b/.test(this.source)) {
          this.add({ lock: 'self', what: `find -exec ${innerBase} with paths found at run time, in a command that names a protected directory` });
        }
        this.argv(inner, {});
      }
    }
    if (!removes) return;
    const what = `find ${args.map((a) => a.text).join(' ')}`.slice(0, 80);
    for (const target of this.targets) {
      const leaf = target.path.split('/').pop() as string;
      const dir = target.path.split('/').at(-2) as string;
      const named = otherTest || names.length === 0 || names.some((n) => nameMatches(n.pattern, leaf, n.glob) || nameMatches(n.pattern, dir, n.glob));
      if (named && starts.some((s) => operandHits(s, [target], true, true, this.cwds, this.ctx.realpath).length > 0)) this.add({ lock: target.lock, what });
    }
  }

  private hits(word: Word, removal: boolean, recursive: boolean, extraDir?: string): Target[] {
    this.budget.spend();
    const found = operandHits(word, this.targets, removal, recursive, this.withDir(extraDir), this.ctx.realpath);
    if (this.ctx.osLayer !== true || word.dynamic || found.length === 0) return found;
    // With the OS layer a directory above the protected paths (the project, a tree holding
    // node_modules) may be removed, restored or linked: the sandbox keeps the protected files.
    // `.leopold`, `.claude`, `.git` and the hooks' code are still refused by name.
    return found.filter((t) => !this.aboveOnly(word, t, extraDir));
  }

  /** Does `word` hit `t` only as a directory above it, outside .leopold/, .claude/, .git/ and node_modules/leopold? */
  private aboveOnly(word: Word, t: Target, extraDir?: string): boolean {
    const root = dirname(this.ctx.leopoldDir);
    const special = ['.leopold', '.claude', '.git', 'node_modules/leopold'].map((p) => join(root, p).toLowerCase());
    const text = word.text.startsWith('~/') ? join(this.cwds.home, word.text.slice(2)) : word.text;
    for (const dir of this.withDir(extraDir).dirs) {
      const path = resolve(dir, text).toLowerCase();
      const target = t.path.toLowerCase();
      if (path === target || !target.startsWith(path.endsWith('/') ? path : `${path}/`)) return false;
      if (special.some((s) => path === s || path.startsWith(`${s}/`))) return false;
    }
    return !word.glob;
  }

  /** The targets a file of unknown name lands on when placed in directory `dir`. */
  receives(dir: Word): Target[] {
    if (dir.dynamic) return this.hits(dir, false, false);
    if (this.cwds.unknown && !isAbsolute(dir.text)) return this.targets.filter((t) => t.on === 'any' && basename(dirname(t.path)).toLowerCase() === basename(dir.text).toLowerCase());
    const paths = isAbsolute(dir.text) ? [dir.text] : this.cwds.dirs.map((d) => resolve(d, dir.text));
    return this.targets.filter((t) => paths.some((p) => dirReceives(p, t) || (this.ctx.realpath !== undefined && dirReceives(this.ctx.realpath(p), t))));
  }

  /** Does directory `dir` hold a protected target at any depth (where an archive may write)? */
  holds(dir: Word): boolean {
    return this.hits(dir, true, true).some((t) => t.on === 'any');
  }

  removal(words: Word[], recursive: boolean, what: string, extraDir?: string): void {
    for (const w of words) {
      if (w.dynamic && w.text === '') {
        this.unjudged(`${what}: removes a path computed at run time`, 'path');
        continue;
      }
      for (const t of this.hits(w, true, recursive, extraDir)) this.add({ lock: t.lock, what });
      this.noteWrite(w, extraDir);
    }
  }

  overwrite(words: Word[], what: string, extraDir?: string): void {
    for (const w of words) {
      if (w.dynamic && w.text === '') {
        this.unjudged(`${what}: writes a path computed at run time`, 'path');
        continue;
      }
      for (const t of this.hits(w, false, false, extraDir)) this.add({ lock: t.lock, what });
      this.noteWrite(w, extraDir);
    }
  }

  pathspecs(words: Word[], what: string, extraDir?: string): void {
    for (const w of words) {
      if (w.dynamic && w.text === '') {
        this.unjudged(`${what}: a path or revision computed at run time could restore a protected file`, 'path');
        continue;
      }
      for (const t of this.hits(w, true, true, extraDir)) if (t.lock !== 'commit' && t.lock !== 'stop') this.add({ lock: t.lock, what });
      this.noteWrite(w, extraDir);
    }
  }

  /** Records what the command writes, for the TOCTOU check in finish(). */
  noteWrite(w: Word, extraDir?: string): void {
    if (w.dynamic || w.glob || this.cwds.unknown) {
      this.writesUnknown();
      return;
    }
    for (const d of this.withDir(extraDir).dirs) {
      const path = resolve(d, w.text.startsWith('~/') ? join(this.cwds.home, w.text.slice(2)) : w.text).toLowerCase();
      this.written.set(path, this.written.get(path) === true || this.strict);
    }
  }

  /** The command writes files it does not name (an archive, a patch, interpreter code). */
  writesUnknown(): void {
    this.unknownWrites++;
    if (this.strict) this.unknownStrictWrites++;
  }

  private withDir(extraDir: string | undefined): Cwds {
    if (!extraDir) return this.cwds;
    return { ...this.cwds, dirs: [...this.cwds.dirs, ...this.cwds.dirs.map((d) => resolve(d, extraDir))] };
  }

  /** Locks for paths by kind, for runners that judge whole directories (`tar -C dir`). */
  lockOf(t: Target): Lock {
    return t.lock;
  }
}

/** Every word, assignment value and here-document of parsed commands, as the shell reads them (bounded). */
function wordsOf(commands: SimpleCommand[]): string {
  const out: string[] = [];
  let size = 0;
  for (const c of commands) {
    for (const part of [...c.words.map((w) => w.text), ...c.assignments.map((a) => `${a.name}=${a.value.text}`), ...c.redirects.map((r) => r.target.text), c.stdin?.text ?? '', '\n']) {
      if (size > MAX_COMMAND_CHARS) return out.join(' ');
      out.push(part);
      size += part.length + 1;
    }
  }
  return out.join(' ');
}

/** A short rendering of a command for a finding. */
export function shown(words: Word[]): string {
  return words
    .map((w) => (w.dynamic ? `${w.text}…` : w.text))
    .join(' ')
    .slice(0, 80);
}

/** Options and operands of a coreutils-style command (`--` ends options). */
export function splitOptions(args: Word[]): { options: string[]; operands: Word[] } {
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

/** Like splitOptions, plus `-t DIR` / `--target-directory=DIR` (and their value). */
function splitTarget(args: Word[]): { options: string[]; operands: Word[]; target?: Word } {
  const options: string[] = [];
  const operands: Word[] = [];
  let target: Word | undefined;
  let done = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Word;
    if (!done && a.text === '--') done = true;
    else if (!done && (a.text === '-t' || a.text === '--target-directory')) target = args[++i];
    else if (!done && a.text.startsWith('--target-directory=')) target = { ...a, text: a.text.slice(19) };
    else if (!done && /^-[a-zA-Z]*t./.test(a.text) && !a.text.startsWith('--')) {
      options.push(a.text);
      target = { ...a, text: a.text.slice(a.text.indexOf('t') + 1) };
    } else if (!done && /^(-S|--suffix|-m|--mode|-o|--owner|-g|--group)$/.test(a.text)) i++;
    else if (!done && a.text.startsWith('-') && a.text.length > 1 && !a.dynamic) options.push(a.text);
    else operands.push(a);
  }
  return { options, operands, target };
}

/** What `echo`, `printf` or `cat` (of a here-document) print, when it is known. */
export function outputOf(cmd: SimpleCommand): { text: string; dynamic: boolean } | null {
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
    return { text: [text, ...values.slice(k).map((v) => v.text)].join('\n'), dynamic: dynamic || /\\[0-7x]|%[^sbdq%]/.test(format?.text ?? '') };
  }
  if ((base === 'cat' || base === 'tee') && cmd.stdin && args.length === 0) return cmd.stdin;
  return null;
}


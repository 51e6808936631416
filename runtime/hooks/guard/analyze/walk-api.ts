import type { Finding } from '../findings.js';
import type { Word } from '../shell/types.js';

/** What the guard cannot see through: a command it cannot read (`run`) or a path it cannot name (`path`). */
export type Unknown = 'run' | 'path';

/** How a script the walk reads is run. */
export interface ScriptOptions {
  /** The file it comes from (`package.json script "test"`, `scripts/ci.sh`): its text is the mentions net's scope. */
  file?: string;
  /** Runs in the same shell (`eval`, `source`, `trap`): it sees every variable. Else only exported ones and `env`. */
  sameShell?: boolean;
  /** Variables set for it (`X=1 bash -c …`, `env X=1 sh FILE`). */
  env?: Map<string, string | null>;
  /** Text that may not be a command at all (a string literal in code): a parse failure says nothing. */
  quiet?: boolean;
}

/** What the per-command analysers (git, wrappers, runners) may ask of the walk that drives them. */
export interface WalkApi {
  add(finding: Finding): void;
  /**
   * Something the guard cannot see through. Denied (never lifted) where nothing else holds
   * the lock: on the command line the agent typed, without the OS layer. Elsewhere (the
   * sandbox holds, or deep inside a file the guard reads) only what the mentions net finds
   * around it is refused.
   */
  unjudged(what: string, kind?: Unknown): void;
  /** Analyse a script the command would run (`bash -c`, eval, a `!` alias, a here-doc, a package script). */
  script(text: string, dynamic: boolean, what?: string, opts?: ScriptOptions): void;
  /** The net for code the guard cannot run (hook values, inline interpreter code). */
  codeNet(code: string, what: string, backticksRun?: boolean): void;
  /** Records a write of files the guard cannot name (for the TOCTOU check). */
  writesUnknown(): void;
  /** Analyse an argv the command would execute (wrappers, `find -exec`). */
  argv(words: Word[], opts: ArgvOptions): void;
  /** Removal of these operands (recursive or not): the kill switch and GUARDRAILS.md. */
  removal(words: Word[], recursive: boolean, what: string, extraDir?: string): void;
  /** Git pathspecs (checkout, restore, reset): these paths, or what is under these directories, are rewritten. */
  pathspecs(words: Word[], what: string, extraDir?: string): void;
  /** These operands are written or replaced: GUARDRAILS.md. */
  overwrite(words: Word[], what: string, extraDir?: string): void;
  /** A persisted git alias (repository or user config), if the fs edge can find one. */
  gitAlias(name: string): string | undefined;
  /** A variable the command line set (prefix assignments, `env`, earlier assignments). */
  env(name: string): string | null | undefined;
  /** The whole tool-call command, for force spellings when push arguments are computed. */
  readonly source: string;
}

export interface ArgvOptions {
  /** More arguments are appended at run time (xargs): the verb or flags may be among them. */
  unknownTrailing?: boolean;
  /** Variables set for this command only (`env X=1`, `sudo X=1`). */
  assignments?: Map<string, string | null>;
  /** xargs -I/-i: this string in an argument is replaced by input at run time. */
  replace?: string;
}

import type { Finding } from '../findings.js';
import type { Word } from '../shell/types.js';

/** What the per-command analysers (git, wrappers) may ask of the walk that drives them. */
export interface WalkApi {
  add(finding: Finding): void;
  /** Something the guard cannot see through: denied, never lifted. */
  unjudged(what: string): void;
  /** Analyse a script the command would run (`bash -c`, eval, a `!` alias, a here-doc). */
  script(text: string, dynamic: boolean, what?: string): void;
  /** The net for code the guard cannot run (hook values, inline interpreter code). */
  codeNet(code: string, what: string, backticksRun?: boolean): void;
  /** Records a write of files the guard cannot name (for the TOCTOU check). */
  writesUnknown(): void;
  /** The fail-closed net over the whole tool call, for something computed at run time. */
  mention(why: string): void;
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

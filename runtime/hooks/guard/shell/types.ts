/** A shell word after quote removal and the expansions the parser could resolve. */
export interface Word {
  /** The text bash would pass, with unknown expansions contributing nothing. */
  text: string;
  /** Part of the word came from an expansion whose value is unknown ($VAR, $(…), `…`). */
  dynamic: boolean;
  /** Part of the word was quoted or escaped (so it is never a reserved word). */
  quoted: boolean;
  /** The word holds an unquoted glob character (`*`, `?`, `[`). */
  glob: boolean;
}

/** A redirection: the operator and its target (`>` `file`, `2>&` `1`). */
export interface Redirect {
  op: string;
  target: Word;
}

/** One simple command as the shell would run it, wherever it sits in the script. */
export interface SimpleCommand {
  /** `NAME=value` words before the command name. */
  assignments: { name: string; value: Word }[];
  /** The command name and its arguments. */
  words: Word[];
  redirects: Redirect[];
  /** What a here-document or here-string feeds it; null when none. */
  stdin: { text: string; dynamic: boolean } | null;
  /** The command before it in a pipeline (its output is this command's stdin). */
  pipedFrom: SimpleCommand | null;
  /** The command as written in the text it was parsed from (for a refusal to quote). */
  source: string;
  /** The parser's word clock where the command starts (what was defined before it). */
  clock: number;
  /**
   * Set on a marker (no words) where arithmetic evaluates a value computed at run time:
   * bash runs a command substitution inside an array subscript of such a value
   * (`x='a[$(cmd)]'; (( x ))`). What it is, for the reason.
   */
  arithmetic?: string;
}

/** Every simple command of a script, in source order, nested ones included. */
export interface ShellScript {
  commands: SimpleCommand[];
  /** What the script's variables are known to hold (null: not known literally). */
  vars: Map<string, string | null>;
  /** The script runs `eval`/`source`/`trap` or a computed command: no variable is known. */
  unreliable: boolean;
  /** Variables the script exports (a child process inherits these, and only these). */
  exported: Set<string>;
  /** Functions the script certainly defines, with the word clock of the definition (SimpleCommand.clock). */
  functions: Map<string, number>;
}

/** The script could not be parsed (unterminated quote, unbalanced parentheses, too deep). */
export class ShellParseError extends Error {
  override name = 'ShellParseError';
}

import { Budget } from './budget.js';
import { expandBraces } from './braces.js';
import { ShellParseError, type Redirect, type ShellScript, type SimpleCommand, type Word } from './types.js';

/**
 * A parser for the POSIX/bash subset an agent's Bash tool call uses. It does not build a
 * full syntax tree: it finds every simple command the shell would run — in lists,
 * pipelines, subshells, groups, `$(…)`, backticks, process substitutions, arithmetic,
 * here-document bodies, `case` arms and function bodies — with its words after quote
 * removal and its text as written, so the guard can judge each one and quote it.
 * Variables assigned earlier in the same script are substituted (and word-split when
 * unquoted); anything it cannot know marks the word `dynamic`.
 *
 * Throws ShellParseError on input bash would reject (unterminated quotes, unbalanced
 * parentheses) or on nesting deeper than MAX_DEPTH; the guard then fails closed.
 */
export function parseShell(src: string, vars: Map<string, string | null> = new Map(), budget: Budget = new Budget(Number.MAX_SAFE_INTEGER)): ShellScript {
  // Pass 1 collects every assignment in the script; pass 2 substitutes only variables
  // whose value is certain where they are used (see Seen). Both passes read the text in
  // the same order, so the word clock of a use in pass 2 compares with pass 1's.
  const seen: Seen = { events: [], unreliable: false, exported: new Set(), functions: new Map() };
  const first = new Parser(src, [], vars, 0, undefined, budget, seen, freshFlow());
  first.parseList(null);
  first.finishHeredocs();
  const known = new Map(vars);
  const from = new Map<string, number>();
  const byName = new Map<string, { values: Set<string | null>; first: number }>();
  const unsafe = new Set<string>();
  for (const e of seen.events) {
    if (!e.safe) unsafe.add(e.name);
    const entry = byName.get(e.name) ?? { values: new Set(), first: e.at };
    entry.values.add(e.value);
    entry.first = Math.min(entry.first, e.at);
    byName.set(e.name, entry);
  }
  for (const [name, { values, first: at }] of byName) {
    const outer = vars.get(name);
    const only = values.size === 1 ? [...values][0] : null;
    const value = only !== null && only !== undefined && (outer === undefined || outer === only) ? only : null;
    known.set(name, value);
    // An outer value holds from the start; the script's own from its first assignment.
    if (value !== null && outer === undefined) from.set(name, at);
  }
  // Pass 2 may find `eval`/`source` behind a variable (`e=eval; $e …`) that pass 1 could
  // not name: then no variable is known, and it runs again.
  for (let unreliable = seen.unreliable; ; unreliable = true) {
    if (unreliable) for (const name of new Set([...known.keys(), ...byName.keys()])) known.set(name, null);
    const check: Seen = { events: [], unreliable: false, exported: new Set(), functions: new Map() };
    const commands: SimpleCommand[] = [];
    const arithSafe = new Set([...byName.keys()].filter((name) => !unsafe.has(name)));
    const parser = new Parser(src, commands, known, 0, undefined, budget, check, freshFlow(), unreliable, from, false, arithSafe);
    parser.parseList(null);
    parser.finishHeredocs();
    if (unreliable || !check.unreliable) return { commands, vars: known, unreliable, exported: seen.exported, functions: seen.functions };
  }
}

/**
 * What pass 1 saw: every assignment with its value, or null where the value is not
 * literal or not certain to hold afterwards: assigned in a subshell, a command or process
 * substitution, a pipeline stage, a background job, a `time`d or `coproc` pipeline, a
 * function body (it may never be called), a branch or loop body, or after `&&`/`||` (it
 * may never run); assigned by `read`, `mapfile`, `printf -v`, `getopts`, `unset`, a `for`
 * loop; or as a prefix of a command (`x=1 cmd` sets it for cmd only, and cmd's words are
 * expanded before it). `at` is the word clock where it happened: a use before it reads
 * the variable unset (or from an earlier loop iteration), so it is unknown there.
 */
interface Seen {
  /** `safe`: no value it takes can hold `a[$(cmd)]` (literal text without `[`, `$` or backquotes, or unset): arithmetic on it runs nothing. */
  events: { name: string; value: string | null; at: number; safe: boolean }[];
  /** Functions the script certainly defines (not in a branch, subshell or other function), with the word clock of the first definition. */
  functions: Map<string, number>;
  /** `eval`, `source`, `.`, `trap` or a computed command may assign anything. */
  unreliable: boolean;
  /** Names exported (`export`, `declare -x`); `*` after `set -a`. */
  exported: Set<string>;
}

/** Shared by every parser of one pass: the word clock and how conditional the current point is. */
interface Flow {
  words: number;
  /** Inside an `if`/`while`/`until`/`for`/`select`/`case` body. */
  branch: number;
}
const freshFlow = (): Flow => ({ words: 0, branch: 0 });

/** Longer variable values are treated as unknown (doubling assignments cannot blow up). */
const MAX_VALUE_CHARS = 1 << 16;
/** Commands that set the variables they name from input the parser cannot see. */
const READERS = new Set(['read', 'mapfile', 'readarray', 'getopts', 'printf', 'wait', 'let']);
/** Commands that run text in the current shell, so they may assign any variable. */
const SAME_SHELL = new Set(['eval', 'source', '.', 'trap']);

/** Nesting beyond this is not something a person or agent writes: refuse it. */
export const MAX_DEPTH = 48;
/** A refusal quotes at most this much of a command. */
const MAX_SOURCE_CHARS = 160;

const RESERVED_SKIP = new Set(['!', 'then', 'else', 'do', 'elif', '}', 'esac']);
const OPENS_BRANCH = new Set(['if', 'while', 'until']);
const CLOSES_BRANCH = new Set(['fi', 'done']);
const DISCARDING = new Set(['for', 'select']);
const DECLARERS = new Set(['export', 'declare', 'local', 'readonly', 'typeset']);
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/;
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const REDIRECT_OPS = ['<<<', '<<-', '&>>', '<<', '<>', '<&', '>>', '>&', '>|', '&>', '<', '>'];
/** `[[ a OP b ]]` operators that evaluate both sides as arithmetic. */
const ARITH_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

interface Pending {
  cmd: SimpleCommand | null;
  delim: string;
  strip: boolean;
  quoted: boolean;
}

/** A word being built: the finished fields (after splitting) and the current one. */
interface Builder {
  fields: Word[];
  cur: Word;
  /** An unquoted `{` was seen: brace expansion may apply. */
  brace: boolean;
  /** Quote characters were part of the word (so text is not the raw source). */
  started: boolean;
}

const emptyWord = (): Word => ({ text: '', dynamic: false, quoted: false, glob: false });
const scratch = (): Builder => ({ fields: [], cur: emptyWord(), brace: false, started: false });

/** The text of a command as written, on one line and bounded. */
function asWritten(text: string): string {
  // Only the head is quoted: normalizing a 1 MB command to keep 160 characters costs time for nothing.
  const head = text.length > 4 * MAX_SOURCE_CHARS ? text.slice(0, 4 * MAX_SOURCE_CHARS) : text;
  const one = head.replace(/\\\n/g, ' ').replace(/\s+/g, ' ').trim();
  return one.length > MAX_SOURCE_CHARS ? `${one.slice(0, MAX_SOURCE_CHARS - 1)}…` : one;
}

class Parser {
  pos = 0;
  private pending: Pending[] = [];
  /** Shell aliases defined earlier in this script (`alias g='git push'`). */
  readonly aliases: Map<string, string>;
  /** The next command is a function's body (it may never run). */
  private functionBodyNext = false;
  /** The pipeline being read started with `time` or `coproc` (it may run apart from this shell). */
  private timed = false;
  /** The pipeline being read follows `&&` or `||` (it may never run). */
  private andOr = false;

  constructor(
    readonly src: string,
    readonly out: SimpleCommand[],
    readonly vars: Map<string, string | null>,
    readonly depth: number,
    aliases: Map<string, string> | undefined,
    readonly budget: Budget,
    readonly seen: Seen,
    readonly flow: Flow,
    readonly allUnknown = false,
    /** Pass 2: where each known variable's first assignment is on the word clock. */
    readonly from: Map<string, number> = new Map(),
    /** Assignments in this parser may not run, or run apart from the script's shell. */
    readonly detached = false,
    /** Pass 2: variables whose every value is safe in arithmetic (see Seen). */
    readonly arithSafe: Set<string> = new Set(),
  ) {
    if (depth > MAX_DEPTH) throw new ShellParseError('nesting too deep');
    this.aliases = aliases ?? new Map();
    budget.spend(1 + (depth === 0 ? src.length >> 8 : 0));
  }

  /** A parser for other text (backticks, a here-document, a `${…}` operand, an arithmetic value). */
  private child(src: string, detached = this.detached): Parser {
    return new Parser(src, this.out, this.vars, this.depth + 1, this.aliases, this.budget, this.seen, this.flow, this.allUnknown, this.from, detached, this.arithSafe);
  }

  /** A parser for a nested level of the same text (shares position through parseListInto). */
  private nested(detached = this.detached): Parser {
    const p = this.child(this.src, detached);
    p.pos = this.pos;
    p.pending = this.pending;
    return p;
  }

  private get eof(): boolean {
    return this.pos >= this.src.length;
  }

  private fail(message: string): never {
    throw new ShellParseError(`${message} at offset ${this.pos}`);
  }

  /** Assignments recorded from here on can be forgotten (made unknown) with forget(). */
  private mark(): number {
    return this.seen.events.length;
  }

  private forget(mark: number): void {
    for (let i = mark; i < this.seen.events.length; i++) (this.seen.events[i] as { value: string | null }).value = null;
  }

  /** Records an assignment (pass 1 uses them; pass 2 only checks for `eval` behind a variable). */
  private assign(name: string, value: Word | null, safe = false): void {
    const certain = !this.detached && !this.functionBodyNext && this.flow.branch === 0 && !this.andOr;
    const literal = value !== null && !value.dynamic && value.text.length <= MAX_VALUE_CHARS;
    const inert = safe || (literal && !/[[$`]/.test((value as Word).text));
    this.seen.events.push({ name, value: certain && literal ? (value as Word).text : null, at: this.flow.words, safe: inert });
  }

  /** A function definition counts only where it certainly runs (a call before it, or after a definition that may not run, runs the program). */
  private defineFunction(name: string): void {
    const certain = !this.detached && !this.functionBodyNext && this.flow.branch === 0 && !this.andOr;
    if (certain && !this.seen.functions.has(name)) this.seen.functions.set(name, this.flow.words);
  }

  /** Spaces, tabs, line continuations and comments (not newlines). */
  private skipBlanks(): void {
    const s = this.src;
    while (this.pos < s.length) {
      const c = s[this.pos];
      if (c === ' ' || c === '\t' || c === '\r') this.pos++;
      else if (c === '\\' && s[this.pos + 1] === '\n') this.pos += 2;
      else if (c === '#') {
        const end = s.indexOf('\n', this.pos);
        this.pos = end < 0 ? s.length : end;
      } else break;
    }
  }

  private peekReserved(): string | null {
    const m = /^[A-Za-z[\]{}!]+/.exec(this.src.slice(this.pos, this.pos + 16));
    if (!m) return null;
    const after = this.src[this.pos + m[0].length];
    if (after === undefined || /[\s;&|()<>]/.test(after)) return m[0];
    return null;
  }

  /**
   * A list: and-or lists separated by `;`, `&` and newlines, until EOF, the closing `)` or
   * `}` (left for the caller) or, in a case arm, `;;`/`;&`/`;;&` (consumed) or `esac`.
   */
  parseList(closer: ')' | '}' | null, caseArm = false): void {
    const s = this.src;
    // The assignments of the current and-or list, forgotten if it turns out to run in the background.
    let listMark = this.mark();
    for (;;) {
      this.skipBlanks();
      if (this.eof) {
        if (closer) this.fail(`missing "${closer}"`);
        if (caseArm) this.fail('missing "esac"');
        return;
      }
      const c = s[this.pos];
      if (c === '\n') {
        this.pos++;
        this.readHeredocs();
        this.andOr = false;
        listMark = this.mark();
        continue;
      }
      if (c === ';') {
        if (s[this.pos + 1] === ';' || s[this.pos + 1] === '&') {
          if (!caseArm) this.fail('unexpected ";;"');
          this.pos += s.startsWith(';;&', this.pos) ? 3 : 2;
          this.andOr = false;
          return;
        }
        this.pos++;
        this.andOr = false;
        listMark = this.mark();
        continue;
      }
      if (c === '&' && s[this.pos + 1] !== '>') {
        if (s[this.pos + 1] === '&') {
          this.pos += 2;
          this.andOr = true;
        } else {
          // A background job: what it assigns never reaches this shell.
          this.pos++;
          this.forget(listMark);
          this.andOr = false;
          listMark = this.mark();
        }
        continue;
      }
      if (c === '|' && s[this.pos + 1] === '|') {
        this.pos += 2;
        this.andOr = true;
        continue;
      }
      if (c === ')') {
        if (closer === ')') return;
        this.fail('unexpected ")"');
      }
      const reserved = this.peekReserved();
      if (closer === '}' && reserved === '}') return;
      if (caseArm && reserved === 'esac') return;
      this.parsePipeline();
    }
  }

  private parsePipeline(): void {
    const mark = this.mark();
    const body = this.functionBodyNext;
    this.timed = false;
    let stages = 1;
    let last = this.parseCommand(null);
    for (;;) {
      this.skipBlanks();
      const s = this.src;
      if (s[this.pos] === '|' && s[this.pos + 1] !== '|') {
        this.pos += s[this.pos + 1] === '&' ? 2 : 1;
        stages++;
        // A pipeline may continue on the next line after `|`.
        while (!this.eof && (s[this.pos] === '\n' || s[this.pos] === ' ' || s[this.pos] === '\t' || s[this.pos] === '\r')) {
          if (s[this.pos] === '\n') {
            this.pos++;
            this.readHeredocs();
          } else this.pos++;
        }
        last = this.parseCommand(last);
      } else break;
    }
    // Every stage of a pipeline runs in a subshell; so does a function body, until called.
    if (stages > 1 || this.timed || body) this.forget(mark);
    if (body) this.functionBodyNext = false;
  }

  /** A subshell `( … )`, an arithmetic command `(( … ))`, a group `{ …; }` or a simple command; returns the simple command for pipelines. */
  private parseCommand(pipedFrom: SimpleCommand | null): SimpleCommand | null {
    this.skipBlanks();
    const s = this.src;
    if (s[this.pos] === '(') {
      if (s[this.pos + 1] === '(' && this.arithmeticEnd(this.pos + 2) >= 0) {
        this.readArithmetic(this.pos + 2, this.arithmeticEnd(this.pos + 2));
        return this.parseSimple(null, true);
      }
      this.pos++;
      const mark = this.mark();
      this.nested(true).parseListInto(this);
      this.forget(mark);
      return this.parseSimple(null, true);
    }
    if (this.peekReserved() === '{') {
      this.pos++;
      const group = this.nested();
      group.functionBodyNext = false;
      group.andOr = this.andOr;
      group.parseList('}');
      this.pos = group.pos + 1; // the "}"
      return this.parseSimple(null, true);
    }
    return this.parseSimple(pipedFrom, false);
  }

  /** Parses `…)` at this nested level and hands the position back to `parent`. */
  parseListInto(parent: Parser): void {
    this.parseList(')');
    this.pos++; // the ")"
    parent.pos = this.pos;
  }

  private parseSimple(pipedFrom: SimpleCommand | null, afterCompound: boolean): SimpleCommand | null {
    const cmd: SimpleCommand = { assignments: [], words: [], redirects: [], stdin: null, pipedFrom, source: '', clock: this.flow.words };
    const s = this.src;
    let discard = afterCompound;
    /** `for NAME in WORDS`: the loop variable and the words read, for whether arithmetic on it is safe. */
    let loop: { name: string; words: Word[]; at: number } | null = null;
    let start = -1;
    let end = this.pos;
    for (;;) {
      this.skipBlanks();
      if (this.eof) break;
      const c = s[this.pos] as string;
      const at = this.pos;
      const redirect = this.redirectOp();
      if (redirect) {
        if (start < 0) start = at;
        this.readRedirect(cmd, redirect);
        end = this.pos;
        continue;
      }
      if (c === '\n' || c === ';' || c === '|' || c === ')' || (c === '&' && s[this.pos + 1] !== '>')) break;
      if (c === '(') {
        if (cmd.words.length === 1 && !cmd.words[0]!.quoted) {
          // `name ( )`: a function definition; its body follows as the next command.
          this.pos++;
          this.skipBlanks();
          if (s[this.pos] !== ')') this.fail('expected ")" in a function definition');
          this.pos++;
          this.defineFunction(cmd.words[0]!.text);
          this.functionBodyNext = true;
          return null;
        }
        if (cmd.words.length === 0 && !afterCompound) {
          // `if ((…))`, `for ((…))`, `while ((…))`: arithmetic; otherwise a subshell.
          const arith = s[this.pos + 1] === '(' ? this.arithmeticEnd(this.pos + 2) : -1;
          if (arith >= 0) this.readArithmetic(this.pos + 2, arith);
          else {
            this.pos++;
            const mark = this.mark();
            this.nested(true).parseListInto(this);
            this.forget(mark);
          }
          discard = true;
          continue;
        }
        this.fail('unexpected "("');
      }
      if (!discard && cmd.words.length === 0 && cmd.assignments.length === 0) {
        const reserved = this.peekReserved();
        if (reserved === 'case') {
          this.pos += 4;
          this.flow.branch++;
          try {
            this.parseCase();
          } finally {
            this.flow.branch--;
          }
          return null;
        }
        if (reserved === 'function') {
          // `function name [()] body`: the body follows as the next command.
          this.pos += 8;
          this.skipBlanks();
          const fname = this.readWord()[0];
          if (fname && !fname.dynamic) this.defineFunction(fname.text);
          this.skipBlanks();
          if (s[this.pos] === '(') {
            this.pos++;
            this.skipBlanks();
            if (s[this.pos] !== ')') this.fail('expected ")" in a function definition');
            this.pos++;
          }
          this.functionBodyNext = true;
          return null;
        }
        if (reserved === '{') return this.parseCommand(pipedFrom);
        if (reserved === 'time' || reserved === 'coproc') {
          // `time [-p] pipeline`, `coproc [NAME] command`: the shell's keywords, not programs.
          this.pos += reserved.length;
          this.timed = true;
          if (reserved === 'time') {
            this.skipBlanks();
            while (/^(-p|--)(?=[\s;&|]|$)/.test(s.slice(this.pos, this.pos + 3))) {
              this.pos += s.startsWith('--', this.pos) ? 2 : 2;
              this.skipBlanks();
            }
          }
          continue;
        }
        if (reserved !== null && OPENS_BRANCH.has(reserved)) {
          this.flow.branch++;
          this.pos += reserved.length;
          continue;
        }
        if (reserved !== null && CLOSES_BRANCH.has(reserved)) {
          if (this.flow.branch > 0) this.flow.branch--;
          this.pos += reserved.length;
          continue;
        }
        if (reserved !== null && RESERVED_SKIP.has(reserved)) {
          this.pos += reserved.length;
          continue;
        }
        if (reserved === '[[') {
          // `[[ … ]]`: its own grammar (`(`, `)`, `<`, `>`, `|`, `&` are part of it); expansions in it run.
          this.pos += 2;
          this.readTest();
          discard = true;
          continue;
        }
        if (reserved !== null && DISCARDING.has(reserved)) {
          discard = true;
          // `for NAME in …`: NAME takes the listed values; the body is a loop.
          this.flow.branch++;
          const loopVar = /^\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(s.slice(this.pos + reserved.length, this.pos + reserved.length + 128));
          if (loopVar) loop = { name: loopVar[1] as string, words: [], at: this.flow.words };
        }
      }
      const wordStart = this.pos;
      if (start < 0 && !discard) start = wordStart;
      const fields = this.readWord();
      if (!discard) end = this.pos;
      if (loop) loop.words.push(...fields);
      if (discard) continue;
      const first = fields[0];
      if (cmd.words.length === 0 && fields.length === 1 && first) {
        // An assignment needs an unquoted `NAME=`; the value may be quoted (`A="x y"`).
        const m = ASSIGNMENT.exec(this.src.slice(wordStart, wordStart + 256));
        if (m && first.text.startsWith(m[0])) {
          cmd.assignments.push({ name: m[1] as string, value: { ...first, text: first.text.slice(m[0].length) } });
          continue;
        }
      }
      if (cmd.words.length === 0 && first && !first.quoted && !first.dynamic && this.aliases.has(first.text)) {
        // A shell alias defined earlier in the script: expand it like bash would.
        const expanded = parseShell(this.aliases.get(first.text) as string, this.vars, this.budget);
        const head = expanded.commands.at(-1);
        for (const inner of expanded.commands.slice(0, -1)) this.out.push(inner);
        if (head) {
          cmd.words.push(...head.words);
          cmd.assignments.push(...head.assignments);
        }
        cmd.words.push(...fields.slice(1));
        continue;
      }
      cmd.words.push(...fields);
    }
    if (start >= 0) cmd.source = asWritten(s.slice(start, end));
    if (loop) {
      const list = loop.words.findIndex((w) => w.text === 'in' && !w.quoted);
      const values = list < 0 ? null : loop.words.slice(list + 1);
      this.seen.events.push({ name: loop.name, value: null, at: loop.at, safe: values !== null && values.every((w) => !w.dynamic && !/[[$`]/.test(w.text)) });
    }
    if (discard && cmd.redirects.length === 0) return null;
    if (discard) cmd.words = [];
    this.remember(cmd);
    if (cmd.words.length > 0 || cmd.assignments.length > 0 || cmd.redirects.length > 0) this.out.push(cmd);
    return cmd;
  }

  /** Tracks aliases the script defines, and every variable it assigns. */
  private remember(cmd: SimpleCommand): void {
    this.budget.spend();
    // `x=1` alone sets a shell variable; `x=1 cmd` sets it in cmd's environment only.
    for (const a of cmd.assignments) this.assign(a.name, cmd.words.length === 0 ? a.value : null);
    const name = cmd.words[0];
    if (!name) return;
    if (name.dynamic) return; // the walk judges a computed program name

    if (SAME_SHELL.has(name.text)) {
      this.seen.unreliable = true;
    } else if (DECLARERS.has(name.text)) {
      const nameref = cmd.words.some((w) => /^-[a-zA-Z]*n/.test(w.text));
      const exports = name.text === 'export' || cmd.words.some((w) => /^-[a-zA-Z]*x/.test(w.text));
      for (const w of cmd.words.slice(1)) {
        const m = ASSIGNMENT.exec(w.text);
        if (m) this.assign(m[1] as string, nameref ? null : { ...w, text: w.text.slice(m[0].length) });
        else if (nameref && !w.text.startsWith('-')) this.assign(w.text, null);
        if (exports && !w.text.startsWith('-')) this.seen.exported.add(m ? (m[1] as string) : w.text);
      }
      if (nameref) this.seen.unreliable = true;
    } else if (READERS.has(name.text)) {
      for (const w of cmd.words.slice(1)) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(w.text)) this.assign(w.text, null);
      if (name.text === 'let') for (const w of cmd.words.slice(1)) this.arithmeticText(w, 'let');
    } else if (name.text === 'alias') {
      for (const w of cmd.words.slice(1)) {
        const eq = w.text.indexOf('=');
        if (eq > 0 && !w.dynamic) this.aliases.set(w.text.slice(0, eq), w.text.slice(eq + 1));
      }
    } else if (name.text === 'unset') {
      for (const w of cmd.words.slice(1)) this.assign(w.text, null, true);
    } else if (name.text === 'set' && cmd.words.some((w) => /^-[a-zA-Z]*a/.test(w.text) || w.text === 'allexport')) {
      this.seen.exported.add('*');
    }
  }

  /**
   * Where the arithmetic opened by `((` or `$((` ends (just past its `))`), scanning from
   * `from` (just past the `((`); -1 when it is not arithmetic (a `)` closes the first
   * parenthesis alone: nested subshells `( (…) )`, or `$( (…) )`). No side effects.
   */
  private arithmeticEnd(from: number): number {
    const s = this.src;
    let depth = 0;
    for (let i = from; i < s.length; i++) {
      const c = s[i];
      if (c === '\\') i++;
      else if (c === "'") {
        const close = s.indexOf("'", i + 1);
        if (close < 0) return -1;
        i = close;
      } else if (c === '"') {
        for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === '\\') i++;
      } else if (c === '(') depth++;
      else if (c === ')') {
        if (depth > 0) depth--;
        else return s[i + 1] === ')' ? i + 2 : -1;
      }
    }
    return -1;
  }

  /**
   * The arithmetic between `from` and `end - 2` (the closing `))`): its command and
   * parameter substitutions run (and are parsed like any); a name or expansion whose value
   * is computed at run time leaves a marker, since bash evaluates a value like
   * `a[$(cmd)]` and runs cmd; a literal value is read as arithmetic in turn.
   */
  private readArithmetic(from: number, end: number): void {
    this.pos = from;
    this.arithmeticUntil(end - 2, 'arithmetic');
    this.pos = end;
  }

  private arithmeticUntil(stop: number, where: string): void {
    const s = this.src;
    const begin = this.pos;
    const unknown: string[] = [];
    while (this.pos < stop) {
      const c = s[this.pos] as string;
      if (c === '$') {
        const name = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/.exec(s.slice(this.pos, this.pos + 258));
        const plain = name && (s[this.pos + 1] !== '{' || (name[0] as string).endsWith('}'));
        this.budget.spend();
        if (name && plain) {
          this.pos += (name[0] as string).length;
          this.arithmeticName(name[1] as string, unknown);
          continue;
        }
        const b = scratch();
        const from = this.pos;
        this.readDollar(b, false);
        if (b.cur.dynamic) unknown.push(s.slice(from, Math.min(this.pos, from + 60)).trim());
      } else if (c === '`') {
        const from = this.pos;
        this.readBacktick(scratch());
        unknown.push(s.slice(from, Math.min(this.pos, from + 60)));
      } else if (c === '"') {
        this.readDoubleQuoted(scratch());
      } else if (c === "'") {
        const close = s.indexOf("'", this.pos + 1);
        this.pos = close < 0 ? stop : close + 1;
      } else if (c === '\\') this.pos += 2;
      else if (NAME_START.test(c) && !NAME_CHAR.test(s[this.pos - 1] ?? ' ')) {
        let e = this.pos + 1;
        while (e < stop && NAME_CHAR.test(s[e] as string)) e++;
        this.budget.spend();
        this.arithmeticName(s.slice(this.pos, e), unknown);
        this.pos = e;
      } else this.pos++;
    }
    this.pos = Math.max(this.pos, stop);
    if (unknown.length > 0) this.arithmeticMarker(`${where} evaluates ${unknown.slice(0, 3).join(', ')}, a value computed at run time`, s.slice(begin, stop));
  }

  /** A name arithmetic evaluates: a literal value is arithmetic in turn; an unknown one is recorded. */
  private arithmeticName(name: string, unknown: string[]): void {
    if (this.allUnknown) {
      unknown.push(name);
      return;
    }
    const value = this.vars.get(name);
    if (value === undefined) return; // not assigned in the script: the environment's
    if (value === null || !this.knownHere(name)) {
      if (!this.arithSafe.has(name)) unknown.push(name);
      return;
    }
    if (/[[$`]/.test(value)) {
      const p = this.child(value);
      p.arithmeticUntil(value.length, `arithmetic on ${name}`);
    }
  }

  /** A word evaluated as arithmetic (`let`, an operand of `[[ -eq ]]`). */
  private arithmeticText(word: Word, where: string): void {
    if (word.dynamic) {
      this.arithmeticMarker(`${where} evaluates ${word.text || 'a word'}…, a value computed at run time`, word.text);
      return;
    }
    if (!/[A-Za-z_$`]/.test(word.text)) return;
    const p = this.child(word.text);
    p.arithmeticUntil(word.text.length, where);
  }

  /** The words of `[[ … ]]` up to its `]]` (consumed); its arithmetic operators' operands are judged. */
  private readTest(): void {
    const words: Word[] = [];
    for (;;) {
      this.skipBlanksAndNewlines();
      if (this.eof) this.fail('missing "]]"');
      const s = this.src;
      if (s.startsWith(']]', this.pos) && (this.pos + 2 >= s.length || /[\s;&|)]/.test(s[this.pos + 2] as string))) {
        this.pos += 2;
        this.arithmeticTest(words);
        return;
      }
      const before = this.pos;
      words.push(...this.readWord(true));
      if (this.pos === before) this.pos++;
    }
  }

  /** `[[ a -eq b ]]` evaluates both operands as arithmetic. */
  private arithmeticTest(words: Word[]): void {
    words.forEach((w, i) => {
      if (!ARITH_TESTS.has(w.text) || w.quoted) return;
      for (const operand of [words[i - 1], words[i + 1]]) if (operand) this.arithmeticText(operand, '[[ … ]]');
    });
  }

  private arithmeticMarker(what: string, text: string): void {
    this.out.push({ assignments: [], words: [], redirects: [], stdin: null, pipedFrom: null, source: asWritten(text), clock: this.flow.words, arithmetic: what });
  }

  /** Pass 2: a known variable is known here only after its first assignment (before it, it is unset). */
  private knownHere(name: string): boolean {
    const at = this.from.get(name);
    return at === undefined || this.flow.words > at;
  }

  /** The redirection operator at the cursor (with an fd number before it), or null. */
  private redirectOp(): string | null {
    const s = this.src;
    let p = this.pos;
    while (p < s.length && s[p]! >= '0' && s[p]! <= '9') p++;
    const rest = s.slice(p, p + 3);
    if (rest.startsWith('<(') || rest.startsWith('>(')) return null;
    if (p > this.pos && !(rest.startsWith('<') || rest.startsWith('>'))) return null;
    for (const op of REDIRECT_OPS) {
      if (rest.startsWith(op)) {
        this.pos = p + op.length;
        return op;
      }
    }
    return null;
  }

  private readRedirect(cmd: SimpleCommand, op: string): void {
    this.skipBlanks();
    const procSub = /^[<>]\(/.test(this.src.slice(this.pos, this.pos + 2));
    if (this.eof || (!procSub && /[\n;|&()<>]/.test(this.src[this.pos] as string))) {
      if (op === '>&' || op === '<&') return;
      this.fail(`missing target after "${op}"`);
    }
    const startPos = this.pos;
    const target = this.readWord()[0] ?? emptyWord();
    if (op === '<<' || op === '<<-') {
      const raw = this.src.slice(startPos, this.pos);
      this.pending.push({ cmd, delim: target.text, strip: op === '<<-', quoted: /['"\\]/.test(raw) });
      return;
    }
    if (op === '<<<') {
      cmd.stdin = { text: `${target.text}\n`, dynamic: target.dynamic };
      return;
    }
    cmd.redirects.push({ op, target } satisfies Redirect);
  }

  /** Reads the bodies of the here-documents opened on the line that just ended. */
  private readHeredocs(): void {
    if (this.pending.length === 0) return;
    const pending = this.pending.splice(0);
    for (const doc of pending) {
      const lines: string[] = [];
      for (;;) {
        if (this.eof) break;
        let end = this.src.indexOf('\n', this.pos);
        if (end < 0) end = this.src.length;
        let line = this.src.slice(this.pos, end);
        this.pos = Math.min(end + 1, this.src.length);
        if (doc.strip) line = line.replace(/^\t+/, '');
        if (line === doc.delim || line === `${doc.delim}\r`) break;
        lines.push(line);
      }
      const body = lines.length > 0 ? `${lines.join('\n')}\n` : '';
      const stdin = doc.quoted ? { text: body, dynamic: false } : this.expandHeredoc(body);
      if (doc.cmd) doc.cmd.stdin = stdin;
    }
  }

  /** Here-documents still open at the end of input get an empty (or partial) body. */
  finishHeredocs(): void {
    if (this.pending.length > 0) this.readHeredocs();
  }

  /** An unquoted here-document body: `$…` and backticks expand (and their commands run). */
  private expandHeredoc(body: string): { text: string; dynamic: boolean } {
    if (!/[$`\\]/.test(body)) return { text: body, dynamic: false };
    const p = this.child(body);
    const b = scratch();
    const parts: string[] = [];
    while (!p.eof) {
      const c = body[p.pos] as string;
      if (c === '\\' && /[$`\\\n]/.test(body[p.pos + 1] ?? '')) {
        if (body[p.pos + 1] !== '\n') parts.push(body[p.pos + 1] as string);
        p.pos += 2;
      } else if (c === '$' || c === '`') {
        b.cur.text = '';
        if (c === '$') p.readDollar(b, true);
        else p.readBacktick(b);
        parts.push(b.cur.text);
      } else {
        // Plain text up to the next character that means something.
        let e = p.pos + 1;
        while (e < body.length && body[e] !== '$' && body[e] !== '`' && body[e] !== '\\') e++;
        parts.push(body.slice(p.pos, e));
        p.pos = e;
      }
    }
    return { text: parts.join(''), dynamic: b.cur.dynamic };
  }

  /** `case WORD in [(]pat[|pat]) list ;; … esac` */
  private parseCase(): void {
    this.skipBlanks();
    this.readWord();
    this.skipBlanksAndNewlines();
    if (this.peekReserved() !== 'in') this.fail('expected "in" after case');
    this.pos += 2;
    for (;;) {
      this.skipBlanksAndNewlines();
      if (this.eof) this.fail('missing "esac"');
      if (this.peekReserved() === 'esac') {
        this.pos += 4;
        return;
      }
      if (this.src[this.pos] === '(') this.pos++;
      for (;;) {
        this.skipBlanks();
        if (this.eof) this.fail('unterminated case pattern');
        const c = this.src[this.pos];
        if (c === ')') {
          this.pos++;
          break;
        }
        if (c === '|') {
          this.pos++;
          continue;
        }
        const before = this.pos;
        this.readWord();
        if (this.pos === before) this.fail('bad case pattern');
      }
      const arm = this.nested();
      arm.parseList(null, true);
      this.pos = arm.pos;
    }
  }

  private skipBlanksAndNewlines(): void {
    for (;;) {
      this.skipBlanks();
      if (this.src[this.pos] === '\n') {
        this.pos++;
        this.readHeredocs();
      } else return;
    }
  }

  /** One word at the cursor, split into fields where unquoted expansions and braces say so. */
  readWord(test = false): Word[] {
    this.budget.spend();
    this.flow.words++;
    const s = this.src;
    const b = scratch();
    while (this.pos < s.length) {
      const c = s[this.pos] as string;
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') break;
      if (test && (c === '&' || c === '|' || c === '(' || c === ')' || c === '<' || c === '>' || c === ';')) {
        // Inside `[[ … ]]` these are operators or regex characters, not shell syntax.
        b.cur.text += c;
        b.started = true;
        this.pos++;
        continue;
      }
      if (c === ';' || c === '&' || c === '|') break;
      if (c === '<' || c === '>') {
        if (s[this.pos + 1] === '(') {
          // Process substitution: its commands run (in a subshell); the word is a /dev/fd path.
          this.pos += 2;
          const mark = this.mark();
          this.nested(true).parseListInto(this);
          this.forget(mark);
          b.cur.dynamic = true;
          b.started = true;
          continue;
        }
        break;
      }
      if (c === '(') {
        if (!b.cur.quoted && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(b.cur.text)) {
          this.skipArrayLiteral();
          b.cur.dynamic = true;
          continue;
        }
        if (/[@!?*+]$/.test(b.cur.text) && !b.cur.quoted) {
          // extglob `@(a|b)`: part of the word, not a subshell.
          this.skipBalanced();
          b.cur.glob = true;
          continue;
        }
        break;
      }
      if (c === ')') break;
      b.started = true;
      if (c === '\\') {
        const next = s[this.pos + 1];
        if (next === '\n') this.pos += 2;
        else if (next === undefined) {
          this.pos++;
        } else {
          b.cur.text += next;
          b.cur.quoted = true;
          this.pos += 2;
        }
      } else if (c === "'") {
        const end = s.indexOf("'", this.pos + 1);
        if (end < 0) this.fail('unterminated single quote');
        b.cur.text += s.slice(this.pos + 1, end);
        b.cur.quoted = true;
        this.pos = end + 1;
      } else if (c === '"') {
        this.readDoubleQuoted(b);
      } else if (c === '$') {
        this.readDollar(b, false);
      } else if (c === '`') {
        this.readBacktick(b);
      } else {
        // A run of plain characters at once (a long word costs one slice, not one concatenation per character).
        let e = this.pos;
        while (e < s.length && !/[\s;&|<>()\\'"$`*?[{]/.test(s[e] as string)) e++;
        if (e > this.pos) {
          b.cur.text += s.slice(this.pos, e);
          this.pos = e;
          continue;
        }
        if (c === '*' || c === '?' || c === '[') b.cur.glob = true;
        if (c === '{') b.brace = true;
        b.cur.text += c;
        this.pos++;
      }
    }
    if (!b.started && b.fields.length === 0) return [];
    const fields = [...b.fields, b.cur];
    if (!b.brace) return fields;
    this.budget.spend(fields.length * 4);
    if (fields.some((f) => f.text.length > 4096 || (f.text.match(/\{/g)?.length ?? 0) > 64)) {
      // Brace expansion of a word this large is quadratic; nobody writes one: its value is unknown.
      for (const f of fields) f.dynamic = true;
      return fields;
    }
    const expanded = fields.flatMap((f) => (f.text.includes(',') || f.text.includes('..') ? expandBraces(f.text).map((text) => ({ ...f, text })) : [f]));
    this.budget.spend(expanded.length);
    return expanded;
  }

  private skipArrayLiteral(): void {
    this.pos++;
    for (;;) {
      this.skipBlanksAndNewlines();
      if (this.eof) this.fail('unterminated array');
      if (this.src[this.pos] === ')') {
        this.pos++;
        return;
      }
      const before = this.pos;
      this.readWord();
      if (this.pos === before) this.fail('bad array element');
    }
  }

  private skipBalanced(): void {
    let depth = 0;
    while (!this.eof) {
      const c = this.src[this.pos++];
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) return;
    }
    this.fail('unbalanced "("');
  }

  private readDoubleQuoted(b: Builder): void {
    const s = this.src;
    this.pos++;
    b.cur.quoted = true;
    b.started = true;
    for (;;) {
      if (this.eof) this.fail('unterminated double quote');
      const c = s[this.pos] as string;
      if (c === '"') {
        this.pos++;
        return;
      }
      if (c === '\\') {
        const next = s[this.pos + 1] ?? '';
        if (next === '\n') this.pos += 2;
        else if (next === '$' || next === '`' || next === '"' || next === '\\') {
          b.cur.text += next;
          this.pos += 2;
        } else {
          b.cur.text += '\\';
          this.pos++;
        }
      } else if (c === '$') this.readDollar(b, true);
      else if (c === '`') this.readBacktick(b);
      else {
        let e = this.pos + 1;
        while (e < s.length && s[e] !== '"' && s[e] !== '\\' && s[e] !== '$' && s[e] !== '`') e++;
        b.cur.text += s.slice(this.pos, e);
        this.pos = e;
      }
    }
  }

  /** `$'…'`, `$"…"`, `$(…)`, `$((…))`, `${…}`, `$NAME`, `$1`… at the cursor. */
  readDollar(b: Builder, inDouble: boolean): void {
    const s = this.src;
    const next = s[this.pos + 1] ?? '';
    b.started = true;
    if (next === "'" && !inDouble) {
      this.pos += 2;
      b.cur.text += this.readAnsiC();
      b.cur.quoted = true;
      return;
    }
    if (next === '"' && !inDouble) {
      this.pos++;
      this.readDoubleQuoted(b);
      return;
    }
    if (next === '(') {
      const arith = s[this.pos + 2] === '(' ? this.arithmeticEnd(this.pos + 3) : -1;
      if (arith >= 0) this.readArithmetic(this.pos + 3, arith);
      else {
        // A command substitution runs in a subshell: what it assigns stays there.
        this.pos += 2;
        const mark = this.mark();
        this.nested(true).parseListInto(this);
        this.forget(mark);
      }
      b.cur.dynamic = true;
      return;
    }
    if (next === '{') {
      this.pos += 2;
      const inner = this.readBraced();
      this.expandParameter(b, inner, inDouble);
      return;
    }
    if (NAME_START.test(next)) {
      let end = this.pos + 1;
      while (end < s.length && NAME_CHAR.test(s[end] as string)) end++;
      const name = s.slice(this.pos + 1, end);
      this.pos = end;
      this.appendVariable(b, name, inDouble);
      return;
    }
    if (/[0-9@*#?$!-]/.test(next) && next !== '') {
      this.pos += 2;
      b.cur.dynamic = true;
      return;
    }
    b.cur.text += '$';
    this.pos++;
  }

  private appendVariable(b: Builder, name: string, inDouble: boolean): void {
    const value = this.allUnknown ? null : this.vars.get(name);
    if (value === undefined || value === null || !this.knownHere(name)) {
      b.cur.dynamic = true;
      return;
    }
    // A changed IFS splits unquoted expansions where the parser cannot follow.
    if (!inDouble && this.vars.has('IFS')) b.cur.dynamic = true;
    if (inDouble) {
      b.cur.text += value;
      return;
    }
    // Unquoted: word splitting on blanks.
    const parts = value.split(/[ \t\n]+/);
    parts.forEach((part, i) => {
      if (i > 0 && (b.cur.text !== '' || b.cur.quoted || b.cur.dynamic)) {
        b.fields.push(b.cur);
        b.cur = emptyWord();
      }
      b.cur.text += part;
    });
  }

  /** `${…}`: a plain name resolves; anything else is dynamic, but its commands still run. */
  private expandParameter(b: Builder, inner: string, inDouble: boolean): void {
    const plain = /^[A-Za-z_][A-Za-z0-9_]*$/.exec(inner);
    if (plain) {
      this.appendVariable(b, inner, inDouble);
      return;
    }
    b.cur.dynamic = true;
    const op = /^[#!]?[A-Za-z_0-9@*]+(\[[^\]]*\])?(:?[-=+?]|##?|%%?|\/\/?|\^\^?|,,?|:)(.*)$/s.exec(inner);
    // An array subscript is arithmetic: `${a[x]}` evaluates x.
    const subscript = /^[#!]?[A-Za-z_][A-Za-z0-9_]*\[([^\]]*)\]/.exec(inner);
    if (subscript && subscript[1] !== '@' && subscript[1] !== '*') {
      const p = this.child(subscript[1] as string);
      p.arithmeticUntil((subscript[1] as string).length, 'an array subscript');
    }
    const tail = op ? (op[3] ?? '') : inner;
    if (/[$`]/.test(tail)) {
      const p = this.child(tail);
      while (!p.eof) {
        const before = p.pos;
        p.readWord();
        p.skipBlanksAndNewlines();
        if (p.pos === before) p.pos++;
      }
    }
  }

  /** Text up to the `}` that closes `${`, skipping quotes and nested `${ }` / `$( )`. */
  private readBraced(): string {
    const s = this.src;
    const start = this.pos;
    let depth = 1;
    while (this.pos < s.length) {
      const c = s[this.pos] as string;
      if (c === '\\') this.pos += 2;
      else if (c === "'") {
        const end = s.indexOf("'", this.pos + 1);
        if (end < 0) this.fail('unterminated single quote');
        this.pos = end + 1;
      } else if (c === '"') {
        this.readDoubleQuoted(scratch());
      } else if (c === '{') {
        depth++;
        this.pos++;
      } else if (c === '}') {
        if (--depth === 0) {
          const inner = s.slice(start, this.pos);
          this.pos++;
          return inner;
        }
        this.pos++;
      } else this.pos++;
    }
    this.fail('unterminated "${"');
  }

  readBacktick(b: Builder): void {
    const s = this.src;
    this.pos++;
    const parts: string[] = [];
    for (;;) {
      if (this.eof) this.fail('unterminated backquote');
      const c = s[this.pos] as string;
      if (c === '`') {
        this.pos++;
        break;
      }
      if (c === '\\' && /[\\`$]/.test(s[this.pos + 1] ?? '')) {
        parts.push(s[this.pos + 1] as string);
        this.pos += 2;
      } else {
        let e = this.pos + 1;
        while (e < s.length && s[e] !== '`' && s[e] !== '\\') e++;
        parts.push(s.slice(this.pos, e));
        this.pos = e;
      }
    }
    // A command substitution runs in a subshell: what it assigns stays there.
    const mark = this.mark();
    const p = this.child(parts.join(''), true);
    p.parseList(null);
    p.finishHeredocs();
    this.forget(mark);
    b.cur.dynamic = true;
    b.started = true;
  }

  /** The body of `$'…'` with its escapes decoded (cursor just after the opening quote). */
  private readAnsiC(): string {
    const s = this.src;
    let text = '';
    for (;;) {
      if (this.eof) this.fail("unterminated $'");
      const c = s[this.pos] as string;
      if (c === "'") {
        this.pos++;
        return text;
      }
      if (c !== '\\') {
        text += c;
        this.pos++;
        continue;
      }
      const e = s[this.pos + 1] ?? '';
      this.pos += 2;
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', e: '\x1b', E: '\x1b', '\\': '\\', "'": "'", '"': '"', '?': '?' };
      if (e in simple) text += simple[e];
      else if (e === 'x') text += this.readCode(/[0-9a-fA-F]/, 2, 16);
      else if (e === 'u') text += this.readCode(/[0-9a-fA-F]/, 4, 16);
      else if (e === 'U') text += this.readCode(/[0-9a-fA-F]/, 8, 16);
      else if (e >= '0' && e <= '7') {
        this.pos--;
        text += this.readCode(/[0-7]/, 3, 8);
      } else if (e === 'c') {
        const ch = s[this.pos++] ?? '';
        text += String.fromCharCode(ch.charCodeAt(0) & 31);
      } else text += `\\${e}`;
    }
  }

  private readCode(digit: RegExp, max: number, radix: number): string {
    let digits = '';
    while (digits.length < max && digit.test(this.src[this.pos] ?? '')) digits += this.src[this.pos++];
    if (digits === '') return '';
    const code = Number.parseInt(digits, radix);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '';
  }
}

import { Budget } from './budget.js';
import { expandBraces } from './braces.js';
import { ShellParseError, type Redirect, type ShellScript, type SimpleCommand, type Word } from './types.js';

/**
 * A parser for the POSIX/bash subset an agent's Bash tool call uses. It does not build a
 * full syntax tree: it finds every simple command the shell would run — in lists,
 * pipelines, subshells, groups, `$(…)`, backticks, process substitutions, here-document
 * bodies, `case` arms and function bodies — with its words after quote removal, so the
 * guard can judge each one. Variables assigned earlier in the same script are substituted
 * (and word-split when unquoted); anything it cannot know marks the word `dynamic`.
 *
 * Throws ShellParseError on input bash would reject (unterminated quotes, unbalanced
 * parentheses) or on nesting deeper than MAX_DEPTH; the guard then fails closed.
 */
export function parseShell(src: string, vars: Map<string, string | null> = new Map(), budget: Budget = new Budget(Number.MAX_SAFE_INTEGER)): ShellScript {
  // Pass 1 collects every assignment in the script; pass 2 substitutes only variables
  // whose value is known literally whatever order the shell runs things in (loops,
  // functions): assigned once, to literal text, and not also set by `read` and the like.
  const seen: Seen = { values: new Map(), unreliable: false };
  const first = new Parser(src, [], vars, 0, undefined, budget, seen);
  first.parseList(null);
  first.finishHeredocs();
  const known = new Map(vars);
  for (const [name, values] of seen.values) {
    const outer = vars.get(name);
    const only = values.size === 1 ? [...values][0] : null;
    known.set(name, only !== null && only !== undefined && (outer === undefined || outer === only) ? only : null);
  }
  // Pass 2 may find `eval`/`source` behind a variable (`e=eval; $e …`) that pass 1 could
  // not name: then no variable is known, and it runs again.
  for (let unreliable = seen.unreliable; ; unreliable = true) {
    if (unreliable) for (const name of new Set([...known.keys(), ...seen.values.keys()])) known.set(name, null);
    const check: Seen = { values: new Map(), unreliable: false };
    const commands: SimpleCommand[] = [];
    const parser = new Parser(src, commands, known, 0, undefined, budget, check, unreliable);
    parser.parseList(null);
    parser.finishHeredocs();
    if (unreliable || !check.unreliable) return { commands, vars: known, unreliable };
  }
}

/** What pass 1 saw: each assigned name's values (null: not literal), and whether any variable can change behind the parser's back. */
interface Seen {
  values: Map<string, Set<string | null>>;
  /** `eval`, `source`, `.`, `trap` or a computed command may assign anything. */
  unreliable: boolean;
}

/** Longer variable values are treated as unknown (doubling assignments cannot blow up). */
const MAX_VALUE_CHARS = 1 << 16;
/** Commands that set the variables they name from input the parser cannot see. */
const READERS = new Set(['read', 'mapfile', 'readarray', 'getopts', 'printf', 'wait', 'let']);
/** Commands that run text in the current shell, so they may assign any variable. */
const SAME_SHELL = new Set(['eval', 'source', '.', 'trap']);

/** Nesting beyond this is not something a person or agent writes: refuse it. */
export const MAX_DEPTH = 48;

const RESERVED_SKIP = new Set(['{', '}', '!', 'then', 'else', 'do', 'done', 'fi', 'if', 'elif', 'while', 'until', 'esac', 'coproc']);
const DISCARDING = new Set(['for', 'select', '[[']);
const DECLARERS = new Set(['export', 'declare', 'local', 'readonly', 'typeset']);
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/;
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const REDIRECT_OPS = ['<<<', '<<-', '&>>', '<<', '<>', '<&', '>>', '>&', '>|', '&>', '<', '>'];

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

class Parser {
  pos = 0;
  private pending: Pending[] = [];
  /** Shell aliases defined earlier in this script (`alias g='git push'`). */
  readonly aliases: Map<string, string>;

  constructor(
    readonly src: string,
    readonly out: SimpleCommand[],
    readonly vars: Map<string, string | null>,
    readonly depth: number,
    aliases: Map<string, string> | undefined,
    readonly budget: Budget,
    readonly seen: Seen | null,
    readonly allUnknown = false,
  ) {
    if (depth > MAX_DEPTH) throw new ShellParseError('nesting too deep');
    this.aliases = aliases ?? new Map();
    budget.spend(1 + (depth === 0 ? src.length >> 8 : 0));
  }

  private child(src: string): Parser {
    return new Parser(src, this.out, this.vars, this.depth + 1, this.aliases, this.budget, this.seen, this.allUnknown);
  }

  private get eof(): boolean {
    return this.pos >= this.src.length;
  }

  private fail(message: string): never {
    throw new ShellParseError(`${message} at offset ${this.pos}`);
  }

  /** Spaces, tabs, line continuations and comments (not newlines). */
  private skipBlanks(): void {
    const s = this.src;
    while (this.pos < s.length) {
      const c = s[this.pos];
      if (c === ' ' || c === '\t' || c === '\r') this.pos++;
      else if (c === '\\' && s[this.pos + 1] === '\n') this.pos += 2;
      else if (c === '#') {
        while (this.pos < s.length && s[this.pos] !== '\n') this.pos++;
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
   * A list: pipelines separated by `;`, `&`, `&&`, `||` and newlines, until EOF, the
   * closing `)` (left for the caller) or, in a case arm, `;;`/`;&`/`;;&` (consumed) or `esac`.
   */
  parseList(closer: ')' | null, caseArm = false): void {
    const s = this.src;
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
        continue;
      }
      if (c === ';') {
        if (s[this.pos + 1] === ';' || s[this.pos + 1] === '&') {
          if (!caseArm) this.fail('unexpected ";;"');
          this.pos += s.startsWith(';;&', this.pos) ? 3 : 2;
          return;
        }
        this.pos++;
        continue;
      }
      if (c === '&' && s[this.pos + 1] !== '>') {
        this.pos += s[this.pos + 1] === '&' ? 2 : 1;
        continue;
      }
      if (c === '|' && s[this.pos + 1] === '|') {
        this.pos += 2;
        continue;
      }
      if (c === ')') {
        if (closer === ')') return;
        this.fail('unexpected ")"');
      }
      if (caseArm && this.peekReserved() === 'esac') return;
      this.parsePipeline();
    }
  }

  private parsePipeline(): void {
    let last = this.parseCommand(null);
    for (;;) {
      this.skipBlanks();
      const s = this.src;
      if (s[this.pos] === '|' && s[this.pos + 1] !== '|') {
        this.pos += s[this.pos + 1] === '&' ? 2 : 1;
        // A pipeline may continue on the next line after `|`.
        while (!this.eof && (s[this.pos] === '\n' || /[ \t\r]/.test(s[this.pos] ?? ''))) {
          if (s[this.pos] === '\n') {
            this.pos++;
            this.readHeredocs();
          } else this.pos++;
        }
        last = this.parseCommand(last);
      } else return;
    }
  }

  /** A subshell `( … )` or a simple command; returns the simple command for pipelines. */
  private parseCommand(pipedFrom: SimpleCommand | null): SimpleCommand | null {
    this.skipBlanks();
    if (this.src[this.pos] === '(') {
      this.pos++;
      this.nested().parseListInto(this);
      return this.parseSimple(null, true);
    }
    return this.parseSimple(pipedFrom, false);
  }

  /** A parser for a nested level on the same source (shares position through parseListInto). */
  private nested(): Parser {
    const p = this.child(this.src);
    p.pos = this.pos;
    p.pending = this.pending;
    return p;
  }

  /** Parses `…)` at this nested level and hands the position back to `parent`. */
  parseListInto(parent: Parser): void {
    this.parseList(')');
    this.pos++; // the ")"
    parent.pos = this.pos;
  }

  private parseSimple(pipedFrom: SimpleCommand | null, afterSubshell: boolean): SimpleCommand | null {
    const cmd: SimpleCommand = { assignments: [], words: [], redirects: [], stdin: null, pipedFrom };
    const s = this.src;
    let discard = afterSubshell;
    let discardUntil: string | null = null;
    for (;;) {
      this.skipBlanks();
      if (this.eof) break;
      const c = s[this.pos] as string;
      const redirect = this.redirectOp();
      if (redirect) {
        this.readRedirect(cmd, redirect);
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
          return null;
        }
        if (cmd.words.length === 0 && !afterSubshell) {
          // `((…))` after a prefix or reserved word: parse it as a subshell.
          this.pos++;
          this.nested().parseListInto(this);
          discard = true;
          continue;
        }
        this.fail('unexpected "("');
      }
      if (!discard && cmd.words.length === 0 && cmd.assignments.length === 0) {
        const reserved = this.peekReserved();
        if (reserved === 'case') {
          this.pos += 4;
          this.parseCase();
          return null;
        }
        if (reserved === 'function') {
          // `function name [()] body`: the body follows as the next command.
          this.pos += 8;
          this.skipBlanks();
          this.readWord();
          this.skipBlanks();
          if (s[this.pos] === '(') {
            this.pos++;
            this.skipBlanks();
            if (s[this.pos] !== ')') this.fail('expected ")" in a function definition');
            this.pos++;
          }
          return null;
        }
        if (reserved !== null && RESERVED_SKIP.has(reserved)) {
          this.pos += reserved.length;
          continue;
        }
        if (reserved !== null && DISCARDING.has(reserved)) {
          discard = true;
          // `for NAME in …`: NAME takes values the parser does not follow.
          const loopVar = reserved === '[[' ? null : /^\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(s.slice(this.pos + reserved.length, this.pos + reserved.length + 128));
          if (loopVar && this.seen) {
            const values = this.seen.values.get(loopVar[1] as string) ?? new Set();
            values.add(null);
            this.seen.values.set(loopVar[1] as string, values);
          }
          if (reserved === '[[') discardUntil = ']]';
        }
      }
      const wordStart = this.pos;
      const fields = this.readWord();
      if (discardUntil !== null && fields.some((f) => f.text === discardUntil && !f.quoted)) {
        discardUntil = null;
        discard = false;
        continue;
      }
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
    if (discard && cmd.redirects.length === 0) return null;
    if (discard) cmd.words = [];
    this.remember(cmd);
    if (cmd.words.length > 0 || cmd.assignments.length > 0 || cmd.redirects.length > 0) this.out.push(cmd);
    return cmd;
  }

  /** Tracks aliases the script defines, and (pass 1) every variable it assigns. */
  private remember(cmd: SimpleCommand): void {
    this.budget.spend();
    const set = (name: string, value: Word | null) => {
      if (!this.seen) return;
      const values = this.seen.values.get(name) ?? new Set();
      values.add(value === null || value.dynamic || value.text.length > MAX_VALUE_CHARS ? null : value.text);
      this.seen.values.set(name, values);
    };
    for (const a of cmd.assignments) set(a.name, a.value);
    const name = cmd.words[0];
    if (!name) return;
    if (name.dynamic) return; // the walk denies a computed program name

    if (SAME_SHELL.has(name.text)) {
      if (this.seen) this.seen.unreliable = true;
    } else if (DECLARERS.has(name.text)) {
      const nameref = cmd.words.some((w) => /^-[a-zA-Z]*n/.test(w.text));
      for (const w of cmd.words.slice(1)) {
        const m = ASSIGNMENT.exec(w.text);
        if (m) set(m[1] as string, nameref ? null : { ...w, text: w.text.slice(m[0].length) });
        else if (nameref && !w.text.startsWith('-')) set(w.text, null);
      }
      if (nameref && this.seen) this.seen.unreliable = true;
    } else if (READERS.has(name.text)) {
      for (const w of cmd.words.slice(1)) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(w.text)) set(w.text, null);
    } else if (name.text === 'alias') {
      for (const w of cmd.words.slice(1)) {
        const eq = w.text.indexOf('=');
        if (eq > 0 && !w.dynamic) this.aliases.set(w.text.slice(0, eq), w.text.slice(eq + 1));
      }
    } else if (name.text === 'unset') {
      for (const w of cmd.words.slice(1)) set(w.text, null);
    }
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
    const pending = this.pending.splice(0);
    for (const doc of pending) {
      let body = '';
      for (;;) {
        if (this.eof) break;
        let end = this.src.indexOf('\n', this.pos);
        if (end < 0) end = this.src.length;
        let line = this.src.slice(this.pos, end);
        this.pos = Math.min(end + 1, this.src.length);
        if (doc.strip) line = line.replace(/^\t+/, '');
        if (line === doc.delim || line === `${doc.delim}\r`) break;
        body += `${line}\n`;
      }
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
    const p = this.child(body);
    const b: Builder = { fields: [], cur: emptyWord(), brace: false, started: false };
    while (!p.eof) {
      const c = body[p.pos] as string;
      if (c === '\\' && /[$`\\\n]/.test(body[p.pos + 1] ?? '')) {
        if (body[p.pos + 1] !== '\n') b.cur.text += body[p.pos + 1];
        p.pos += 2;
      } else if (c === '$') p.readDollar(b, true);
      else if (c === '`') p.readBacktick(b);
      else {
        b.cur.text += c;
        p.pos++;
      }
    }
    return { text: b.cur.text, dynamic: b.cur.dynamic };
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
  readWord(): Word[] {
    this.budget.spend();
    const s = this.src;
    const b: Builder = { fields: [], cur: emptyWord(), brace: false, started: false };
    while (this.pos < s.length) {
      const c = s[this.pos] as string;
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ';' || c === '&' || c === '|') break;
      if (c === '<' || c === '>') {
        if (s[this.pos + 1] === '(') {
          // Process substitution: its commands run; the word is a /dev/fd path.
          this.pos += 2;
          this.nested().parseListInto(this);
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
        b.cur.text += c;
        this.pos++;
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
      if (s[this.pos + 2] === '(') {
        this.skipArithmetic();
      } else {
        this.pos += 2;
        this.nested().parseListInto(this);
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
    if (value === undefined || value === null) {
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
        this.readDoubleQuoted({ fields: [], cur: emptyWord(), brace: false, started: false });
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

  private skipArithmetic(): void {
    const s = this.src;
    this.pos += 3;
    let depth = 2;
    while (this.pos < s.length) {
      const c = s[this.pos++];
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) return;
    }
    this.fail('unterminated "$(("');
  }

  readBacktick(b: Builder): void {
    const s = this.src;
    this.pos++;
    let inner = '';
    for (;;) {
      if (this.eof) this.fail('unterminated backquote');
      const c = s[this.pos] as string;
      if (c === '`') {
        this.pos++;
        break;
      }
      if (c === '\\' && /[\\`$]/.test(s[this.pos + 1] ?? '')) {
        inner += s[this.pos + 1];
        this.pos += 2;
      } else {
        inner += c;
        this.pos++;
      }
    }
    const p = this.child(inner);
    p.parseList(null);
    p.finishHeredocs();
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

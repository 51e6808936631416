// What of a JavaScript (or TypeScript) file runs: its top-level code, and the top-level
// functions that code names, and the functions those name, and so on. A function nobody
// names (dead code, or a task another invocation selects) does not run. For a shelljs
// make file (`target.lint = …`, run as `node Makefile lint`), the targets named on the
// command line (else `all`) are what runs, with the functions they name.
//
// The scan is lexical and linear: it skips strings, template literals (their `${…}` code
// counts), comments and regular expressions well enough to find the top-level braces; it
// never throws. Where it cannot tell (unbalanced braces), the whole file counts.

interface Span {
  start: number;
  end: number;
  /** A top-level `function NAME` declaration, or a shelljs `target.NAME = …` assignment. */
  kind: 'function' | 'target' | 'code';
  name: string | null;
}

/** Characters after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^', '\n', '']);

/** The top-level statements of a file: function declarations, shelljs targets, and the rest. Null when the braces do not balance. */
function topLevel(text: string): Span[] | null {
  const spans: Span[] = [];
  let depth = 0;
  let stmtStart = 0;
  let current: Span | null = null;
  let last = '';
  const n = text.length;
  const startStatement = (i: number) => {
    if (current !== null) return;
    const head = text.slice(i, i + 200);
    const fn = /^(?:export\s+(?:default\s+)?)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/.exec(head);
    const target = /^target\.([A-Za-z_$][\w$]*)\s*=/.exec(head);
    current = { start: i, end: i, kind: fn ? 'function' : target ? 'target' : 'code', name: fn ? (fn[1] as string) : target ? (target[1] as string) : null };
  };
  for (let i = 0; i < n; i++) {
    const c = text[i] as string;
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end - 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (depth === 0 && current === null && !/\s/.test(c) && c !== ';') startStatement(i);
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      i = j;
      last = c;
      continue;
    }
    if (c === '`') {
      // A template literal: skip its text, count its `${…}` code as braces of its own.
      let j = i + 1;
      while (j < n && text[j] !== '`') {
        if (text[j] === '\\') j += 2;
        else if (text[j] === '$' && text[j + 1] === '{') {
          let inner = 1;
          j += 2;
          while (j < n && inner > 0) {
            if (text[j] === '{') inner++;
            else if (text[j] === '}') inner--;
            j++;
          }
        } else j++;
      }
      i = j;
      last = '`';
      continue;
    }
    if (c === '/' && BEFORE_REGEX.has(last)) {
      let j = i + 1;
      let cls = false;
      while (j < n && text[j] !== '\n' && (cls || text[j] !== '/')) {
        if (text[j] === '\\') j++;
        else if (text[j] === '[') cls = true;
        else if (text[j] === ']') cls = false;
        j++;
      }
      if (j < n && text[j] === '/') {
        i = j;
        last = 'r';
        continue;
      }
    }
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') {
      depth--;
      if (depth < 0) return null;
      // A top-level function declaration ends with its body's brace.
      if (depth === 0 && c === '}' && current !== null && (current as Span).kind === 'function') {
        (current as Span).end = i + 1;
        spans.push(current);
        current = null;
      }
    } else if (depth === 0 && (c === ';' || (c === '\n' && current !== null && endsStatement(text, i)))) {
      if (current !== null) {
        (current as Span).end = i + 1;
        spans.push(current);
        current = null;
      }
      stmtStart = i + 1;
    }
    if (!/\s/.test(c)) last = c;
  }
  if (depth !== 0) return null;
  if (current !== null) {
    (current as Span).end = n;
    spans.push(current);
  }
  void stmtStart;
  return spans;
}

/** A newline at depth 0 ends a statement unless the next line continues it (`.`, an operator, `)`). */
function endsStatement(text: string, at: number): boolean {
  const next = /^\s*(\S)/.exec(text.slice(at + 1, at + 200));
  const prev = /(\S)\s*$/.exec(text.slice(Math.max(0, at - 200), at));
  if (!next) return true;
  if (/[.,?:+\-*/%&|=<>)\]]/.test(next[1] as string)) return false;
  if (prev && /[,(=+\-*/%&|?:<>[{]$/.test(prev[1] as string)) return false;
  return true;
}

/** Code with the contents of its single- and double-quoted strings blanked: a name in a string is no reference. */
export function withoutStrings(code: string): string {
  return code.replace(/(["'])(?:\\.|(?!\1)[^\\\n])*\1/g, (m) => `${m[0]}${' '.repeat(Math.max(0, m.length - 2))}${m[0]}`);
}

/**
 * The text of `code` that runs when the file is run with `args`: top-level code, the
 * functions it names (transitively), and for a shelljs make file the named targets.
 */
export function reachableCode(code: string, args: readonly string[]): string {
  const spans = topLevel(code);
  if (spans === null) return code;
  const functions = new Map<string, Span>();
  for (const s of spans) if (s.kind === 'function' && s.name !== null && !functions.has(s.name)) functions.set(s.name, s);
  const shelljs = /shelljs\/make/.test(code) && spans.some((s) => s.kind === 'target');
  const wanted = new Set(shelljs ? (args.filter((a) => !a.startsWith('-')).length > 0 ? args.filter((a) => !a.startsWith('-')) : ['all']) : []);
  const reached: Span[] = spans.filter((s) => s.kind === 'code' || (s.kind === 'target' && (!shelljs || wanted.has(s.name as string))));
  const seen = new Set<Span>(reached);
  for (let k = 0; k < reached.length; k++) {
    const body = withoutStrings(code.slice((reached[k] as Span).start, (reached[k] as Span).end));
    for (const m of body.matchAll(/[A-Za-z_$][\w$]*/g)) {
      const fn = functions.get(m[0]);
      if (fn && !seen.has(fn)) {
        seen.add(fn);
        reached.push(fn);
      }
    }
  }
  return reached
    .sort((a, b) => a.start - b.start)
    .map((s) => code.slice(s.start, s.end))
    .join('\n');
}

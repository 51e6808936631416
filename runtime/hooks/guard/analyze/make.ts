import { dirname, join, resolve } from 'node:path';
import type { Word } from '../shell/types.js';
import type { Walk } from './command.js';

// make: the Makefile is read the way make reads it, far enough to know what a goal runs:
// its rules, the variables it defines (and those on the command line), the files it
// includes. The goals named (or the default goal) and every prerequisite they reach have
// their recipes judged as shell commands, each line as make runs it; `$(shell …)` anywhere
// runs when make reads the file, so it is judged too. A recipe of a target the command
// does not reach (`release:` when the command is `make test`) is not judged.

const lit = (text: string): Word => ({ text, dynamic: false, quoted: true, glob: false });

interface Rule {
  targets: string[];
  prereqs: string[];
  recipe: string[];
  file: string;
  /** A static pattern rule's target pattern (its prerequisites' `%` is the target's stem). */
  pattern: string | null;
}

interface Makefile {
  rules: Rule[];
  vars: Map<string, string>;
  defaultGoal: string | null;
  /** `$(shell …)` texts, judged whatever the goal. */
  shells: string[];
}

/** Variables' values are expanded to at most this depth (a variable defined by itself stops there). */
const MAX_EXPANSION = 8;
const MAX_INCLUDES = 16;
/** An unknown variable's value: a shell parameter the walk cannot know. */
const UNKNOWN = '${MAKE_VARIABLE}';

const words = (text: string) => text.split(/\s+/).filter(Boolean);
/** `%` patterns of make (`%.c`, `common-%`). */
const patternOf = (pattern: string, word: string): string | null => {
  const at = pattern.indexOf('%');
  if (at < 0) return pattern === word ? '' : null;
  const [pre, post] = [pattern.slice(0, at), pattern.slice(at + 1)];
  return word.length >= pre.length + post.length && word.startsWith(pre) && word.endsWith(post) ? word.slice(pre.length, word.length - post.length) : null;
};

/** The make functions that only process text, as make computes them. */
const FUNCTIONS: Record<string, (args: string[]) => string> = {
  addprefix: ([p = '', list = '']) => words(list).map((w) => p + w).join(' '),
  addsuffix: ([x = '', list = '']) => words(list).map((w) => w + x).join(' '),
  subst: ([from = '', to = '', text = '']) => (from === '' ? text : text.split(from).join(to)),
  patsubst: ([pattern = '', replacement = '', text = '']) =>
    words(text)
      .map((w) => {
        const stem = patternOf(pattern.trim(), w);
        return stem === null ? w : replacement.trim().replace('%', stem);
      })
      .join(' '),
  strip: ([text = '']) => words(text).join(' '),
  sort: ([text = '']) => [...new Set(words(text))].sort().join(' '),
  filter: ([patterns = '', text = '']) => words(text).filter((w) => words(patterns).some((p) => patternOf(p, w) !== null)).join(' '),
  'filter-out': ([patterns = '', text = '']) => words(text).filter((w) => !words(patterns).some((p) => patternOf(p, w) !== null)).join(' '),
  firstword: ([text = '']) => words(text)[0] ?? '',
  lastword: ([text = '']) => words(text).at(-1) ?? '',
  words: ([text = '']) => String(words(text).length),
  word: ([n = '', text = '']) => words(text)[Number(n.trim()) - 1] ?? '',
  notdir: ([text = '']) => words(text).map((w) => w.split('/').pop() ?? '').join(' '),
  dir: ([text = '']) => words(text).map((w) => (w.includes('/') ? w.slice(0, w.lastIndexOf('/') + 1) : './')).join(' '),
  basename: ([text = '']) => words(text).map((w) => w.replace(/\.[^./]*$/, '')).join(' '),
  suffix: ([text = '']) => words(text).map((w) => /\.[^./]*$/.exec(w)?.[0] ?? '').filter(Boolean).join(' '),
  findstring: ([find = '', text = '']) => (text.includes(find) ? find : ''),
};

/** A function's arguments: split at commas outside parentheses. */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of text) {
    if (c === '(' || c === '{') depth++;
    else if (c === ')' || c === '}') depth--;
    if (c === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/** Expands `$(X)`, `${X}`, `$X`, `$$`, automatic variables and the functions make has. */
function expand(text: string, vars: Map<string, string>, auto: Record<string, string>, shells: string[] | null, depth = 0): string {
  if (depth > MAX_EXPANSION || !text.includes('$')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '$') {
      out += c;
      continue;
    }
    const next = text[i + 1] ?? '';
    if (next === '$') {
      out += '$';
      i++;
      continue;
    }
    if (next === '(' || next === '{') {
      const close = next === '(' ? ')' : '}';
      let depthParen = 1;
      let j = i + 2;
      for (; j < text.length && depthParen > 0; j++) {
        if (text[j] === next) depthParen++;
        else if (text[j] === close) depthParen--;
      }
      const inner = text.slice(i + 2, j - 1);
      i = j - 1;
      const fn = /^([a-z-]+)\s+([\s\S]*)$/.exec(inner);
      if (fn && fn[1] === 'shell') {
        const body = expand(fn[2] as string, vars, auto, shells, depth + 1);
        shells?.push(body);
        out += UNKNOWN;
      } else if (fn && Object.hasOwn(FUNCTIONS, fn[1] as string)) {
        // A make function whose value is plain text processing: computed.
        const args = splitArgs(fn[2] as string).map((a) => expand(a, vars, auto, shells, depth + 1));
        out += (FUNCTIONS[fn[1] as string] as (args: string[]) => string)(args);
      } else if (fn && ['wildcard', 'foreach', 'call', 'realpath', 'abspath', 'if', 'or', 'and', 'eval', 'origin', 'value', 'info', 'warning', 'error', 'file', 'let', 'flavor', 'guile'].includes(fn[1] as string)) {
        // A make function whose value is not followed (its arguments may hold $(shell …)).
        expand(fn[2] as string, vars, auto, shells, depth + 1);
        out += fn[1] === 'info' || fn[1] === 'warning' || fn[1] === 'error' ? '' : UNKNOWN;
      } else {
        const name = expand(inner, vars, auto, shells, depth + 1).replace(/:.*$/, '');
        const value = name === 'MAKE' ? 'make' : (auto[name] ?? vars.get(name));
        out += value === undefined ? UNKNOWN : expand(value, vars, auto, shells, depth + 1);
      }
      continue;
    }
    out += Object.hasOwn(auto, next) ? auto[next] : vars.has(next) ? expand(vars.get(next) as string, vars, auto, shells, depth + 1) : UNKNOWN;
    i++;
  }
  return out;
}

/** The rules, variables and includes of a Makefile (and the files it includes). */
function readMakefile(w: Walk, path: string, text: string, into: Makefile, cmdVars: Map<string, string>, seen: Set<string>): void {
  // A recipe line keeps its continuations (the shell reads them, and a `#` comment ends at
  // the physical line); any other line is joined with its continuations by a space.
  const lines: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const last = lines.length - 1;
    if (last >= 0 && /\\$/.test(lines[last] as string)) {
      lines[last] = (lines[last] as string).startsWith('\t') ? `${lines[last]}\n${raw.replace(/^\t/, '')}` : `${(lines[last] as string).slice(0, -1)} ${raw}`;
    } else lines.push(raw);
  }
  let current: Rule | null = null;
  let define: string | null = null;
  for (const raw of lines) {
    w.budget.spend();
    if (define !== null) {
      if (/^\s*endef\b/.test(raw)) define = null;
      continue;
    }
    if (raw.startsWith('\t') && current) {
      current.recipe.push(raw.slice(1));
      continue;
    }
    const line = raw.replace(/(^|[^\\])#.*$/, '$1').trimEnd();
    if (line.trim() === '') continue;
    // Conditionals: both branches are read (the guard does not evaluate them), and a recipe goes on across them.
    if (/^\s*(ifeq|ifneq|ifdef|ifndef|else|endif)\b/.test(line)) continue;
    const def = /^\s*(?:override\s+|export\s+)?define\s+([A-Za-z0-9_.-]+)/.exec(line);
    if (def) {
      define = def[1] as string;
      continue;
    }
    const include = /^\s*-?s?include\s+(.+)$/.exec(line);
    if (include) {
      current = null;
      for (const inc of expand((include[1] as string).trim(), into.vars, {}, into.shells).split(/\s+/)) {
        if (inc === '' || inc.includes(UNKNOWN) || /[*?[]/.test(inc) || seen.size >= MAX_INCLUDES) continue;
        const incPath = resolve(dirname(path), inc);
        if (seen.has(incPath)) continue;
        seen.add(incPath);
        const body = w.readConfig(incPath);
        if (body !== null) readMakefile(w, incPath, body, into, cmdVars, seen);
      }
      continue;
    }
    const assign = /^\s*(?:override\s+|export\s+|private\s+)*([A-Za-z0-9_.-]+)\s*(\?|:::|::|:|\+|!)?=\s*(.*)$/.exec(line);
    if (assign && !/^\s*[A-Za-z0-9_.%/ -]+:[^=]/.test(line.slice(0, line.indexOf('=')) + ' ')) {
      current = null;
      const [, name, op, value] = assign as unknown as [string, string, string | undefined, string];
      if (cmdVars.has(name)) continue; // the command line wins
      if (op === '?' && into.vars.has(name)) continue;
      if (op === '!') {
        into.shells.push(value);
        into.vars.set(name, UNKNOWN);
      } else if (op === ':' || op === '::' || op === ':::') into.vars.set(name, expand(value, into.vars, {}, into.shells));
      else if (op === '+') into.vars.set(name, `${into.vars.get(name) ?? ''} ${value}`.trim());
      else into.vars.set(name, value);
      if (op !== ':' && op !== '::' && op !== ':::') expand(value, into.vars, {}, into.shells); // $(shell …) in a recursive variable runs on use; judged anyway
      continue;
    }
    const rule = /^([^:=#\t][^:=]*?)\s*::?\s*(?!=)(.*)$/.exec(line);
    if (rule) {
      const targets = expand(rule[1] as string, into.vars, {}, into.shells).split(/\s+/).filter(Boolean);
      let rest = rule[2] as string;
      // `target: VAR = value` (a target-specific variable): no recipe.
      if (/^\s*(?:override\s+|export\s+|private\s+)*[A-Za-z0-9_.-]+\s*[?:+!]?=/.test(rest)) {
        current = null;
        continue;
      }
      let inline: string | null = null;
      const semi = rest.indexOf(';');
      if (semi >= 0) {
        inline = rest.slice(semi + 1);
        rest = rest.slice(0, semi);
      }
      // A static pattern rule: `targets: target-pattern: prereq-patterns`.
      const staticPattern = /^\s*([^:=\s]*%[^:=\s]*)\s*:(?!=)(.*)$/.exec(rest);
      const pattern = staticPattern ? (staticPattern[1] as string) : null;
      if (staticPattern) rest = staticPattern[2] as string;
      const prereqs = expand(rest.replace(/\|/g, ' '), into.vars, {}, into.shells).split(/\s+/).filter(Boolean);
      current = { targets, prereqs, recipe: inline !== null ? [inline] : [], file: path, pattern };
      into.rules.push(current);
      if (into.defaultGoal === null) {
        const first = targets.find((t) => !t.startsWith('.') && !t.includes('%'));
        if (first) into.defaultGoal = first;
      }
      continue;
    }
    current = null;
  }
  const goal = into.vars.get('.DEFAULT_GOAL');
  if (goal) into.defaultGoal = goal.trim();
}

/** make [-f FILE] [-C DIR] [VAR=value] [goals]: the recipes the goals reach, and every `$(shell …)`. */
export function make(args: Word[], w: Walk): void {
  let dir: string | undefined;
  const files: Word[] = [];
  const goals: string[] = [];
  const cmdVars = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Word;
    const t = a.text;
    if (t === '-f' || t === '--file' || t === '--makefile') files.push(args[++i] ?? lit(''));
    else if (/^--(file|makefile)=/.test(t)) files.push({ ...a, text: t.slice(t.indexOf('=') + 1) });
    else if (t.startsWith('-f') && t.length > 2 && !t.startsWith('--')) files.push({ ...a, text: t.slice(2) });
    else if (t === '-C' || t === '--directory') dir = args[++i]?.text;
    else if (t.startsWith('--directory=')) dir = t.slice(12);
    else if (t.startsWith('-C') && t.length > 2) dir = t.slice(2);
    else if (t.startsWith('--eval=')) w.script(evalText(t.slice(7)), false, 'make --eval', { quiet: true });
    else if (t === '-E' || t === '--eval') w.script(evalText(args[++i]?.text ?? ''), false, 'make --eval', { quiet: true });
    else if (['-I', '--include-dir', '-o', '--old-file', '--assume-old', '-W', '--what-if', '--new-file', '--assume-new', '-j', '--jobs', '-l', '--load-average', '-O', '--output-sync'].includes(t)) {
      if (!['-j', '--jobs', '-l', '--load-average', '-O', '--output-sync'].includes(t) || /^\d/.test(args[i + 1]?.text ?? '')) i++;
    } else if (t.startsWith('-')) continue;
    else if (a.dynamic) w.unjudged(`make with a goal or variable computed at run time (${t}…)`);
    else if (/^[A-Za-z0-9_.-]+:?=/.test(t)) {
      const eq = t.indexOf('=');
      cmdVars.set(t.slice(0, eq).replace(/:$/, ''), t.slice(eq + 1));
    } else goals.push(t);
  }
  if (w.cwds.unknown && !dir?.startsWith('/')) return w.unjudged('make after a cd to a computed directory: the guard cannot tell which Makefile runs');
  for (const d of w.cwds.dirs) {
    const base = dir ? resolve(d, dir) : d;
    const candidates = files.length > 0 ? files : null;
    if (candidates) {
      for (const f of candidates) {
        for (const found of w.readFiles(f.dynamic ? f : { ...f, text: resolve(base, f.text) }, `make -f ${f.text}`) ?? []) judge(w, found.path, found.text, base, goals, cmdVars);
      }
      continue;
    }
    for (const name of ['GNUmakefile', 'makefile', 'Makefile']) {
      const path = join(base, name);
      const text = w.readConfig(path);
      if (text === null) continue;
      judge(w, path, text, base, goals, cmdVars);
      break;
    }
  }
}

/** `make --eval=TEXT` defines rules; a rule's recipe there runs only when it is a goal: judged as text. */
function evalText(text: string): string {
  return text
    .split('\n')
    .filter((l) => l.startsWith('\t'))
    .map((l) => l.slice(1))
    .join('\n');
}

function judge(w: Walk, path: string, text: string, dir: string, goals: string[], cmdVars: Map<string, string>): void {
  const mk: Makefile = { rules: [], vars: new Map(cmdVars), defaultGoal: null, shells: [] };
  readMakefile(w, path, text, mk, cmdVars, new Set([path]));
  const label = w.label(path);
  w.inDir(dir, () => {
    for (const body of mk.shells) w.script(body.replace(/\$\{MAKE_VARIABLE\}/g, '"$MAKE_VARIABLE"'), false, `${label} runs $(shell …)`, { file: `${label} $(shell …)` });
    const wanted = goals.length > 0 ? goals : mk.defaultGoal ? [mk.defaultGoal] : [];
    const done = new Set<string>();
    const queue = [...wanted];
    while (queue.length > 0) {
      const target = queue.shift() as string;
      if (done.has(target) || done.size > 512) continue;
      done.add(target);
      const key = `${path}\u0000${target}`;
      if (w.judged.has(key)) continue;
      w.judged.add(key);
      // A name the guard could not expand (a variable it does not know) is not followed.
      if (target.includes(UNKNOWN)) continue;
      const explicit = mk.rules.filter((r) => r.targets.includes(target));
      const rules = explicit.length > 0 ? explicit : mk.rules.filter((r) => r.pattern === null && r.targets.some((t) => t.includes('%') && patternMatches(t, target)));
      for (const rule of rules) {
        const pattern = rule.pattern ?? rule.targets.find((t) => t.includes('%') && patternMatches(t, target));
        const stem = pattern && patternMatches(pattern, target) ? stemOf(pattern, target) : '';
        const prereqs = rule.prereqs.map((p) => p.replace('%', stem));
        queue.push(...prereqs);
        const auto = { '@': target, '<': prereqs[0] ?? '', '^': prereqs.join(' '), '+': prereqs.join(' '), '?': prereqs.join(' '), '*': stem, '|': '' };
        for (const line of rule.recipe) {
          const command = expand(line.replace(/^\s*[@+-]+\s*/, ''), mk.vars, auto, mk.shells).replace(/^\s*[@+-]+\s*/, '');
          if (command.trim() === '') continue;
          w.script(command, false, `make ${target}`, { file: `${label} target "${target}"` });
        }
      }
    }
  });
}

function patternMatches(pattern: string, target: string): boolean {
  const [pre, post] = pattern.split('%') as [string, string];
  return target.length >= pre.length + post.length && target.startsWith(pre) && target.endsWith(post);
}

function stemOf(pattern: string, target: string): string {
  const [pre, post] = pattern.split('%') as [string, string];
  return target.slice(pre.length, target.length - post.length);
}

import { catalogName, inCatalog, PACKAGE_PROGRAMS } from './publish.js';

// The mentions net: for text the guard cannot judge exactly (a command with a part it
// cannot see through, or a file whose code it cannot run), what the text says it would
// do. Two strengths:
//
// - precise (files the guard reads): git as a command word followed by a guarded verb
//   (`git push`, `git -C x commit`, `['git', 'push']`, `"git tag v1"`), or a publishing
//   command at a command position; in code, only inside string literals (a process call's
//   arguments). `skipped.push(parseError)`, `git.push()` and prose that names git and push
//   apart are not mentions.
// - loose (the command line the agent typed, when part of it is computed): a git word and a
//   guarded verb anywhere in it, or a publishing program and its verb anywhere.
//
// The net finds candidates; the walk judges each with the same rules as a literal command
// (command.ts), so `git tag -l` in a string is no tag.

/** Verbs that commit or move refs, as the precise net knows them (the walk's git rules decide). */
const COMMIT_VERBS = new Set(['commit', 'merge', 'cherry-pick', 'revert', 'am', 'rebase', 'commit-tree', 'pull', 'filter-branch', 'filter-repo', 'fast-import', 'subtree', 'tag', 'branch', 'update-ref', 'symbolic-ref', 'stash', 'notes', 'replace', 'worktree', 'reset', 'switch', 'checkout', 'fetch']);
const PUSH_VERBS = new Set(['push', 'send-pack', 'http-push', 'dcommit']);
/** The loose net's commit verbs: those that are not also everyday English (`notes`, `replace`, `switch`, `am`, `pull` of docker). */
const LOOSE_COMMIT_VERBS = ['commit', 'merge', 'rebase', 'cherry-pick', 'revert', 'tag', 'branch', 'reset', 'stash', 'update-ref', 'symbolic-ref', 'commit-tree', 'filter-branch', 'filter-repo', 'fast-import', 'worktree', 'subtree'];
const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--exec-path']);
/** Words after which the next word is a command again. */
const PASS_THROUGH = new Set(['sudo', 'env', 'exec', 'command', 'nohup', 'time', 'timeout', 'xargs', 'npx', 'bunx', 'pnpx', 'dlx', 'exec', 'run', 'then', 'do', 'else', '!', 'if', 'while', 'until', 'nice']);
const MAX_ARGS = 16;
/** Lines longer than this are cut (a minified bundle is one line). */
const MAX_LINE = 4096;

const STOP = '\u0000';

/** A place the text mentions git with a guarded verb, or a publishing program. */
export type Candidate = { kind: 'git'; args: string[]; line: string } | { kind: 'ship'; program: string; args: string[]; line: string };

const isGit = (token: string) => /^(?:.*\/)?git(?:\.exe)?$/i.test(token);
const dashedGit = (token: string) => /^(?:.*\/)?git-([a-z][a-z-]*)$/i.exec(token)?.[1];

/** Shell-ish tokens: words split at blanks and shell punctuation (each a STOP), quotes and backslashes dropped. */
function tokens(text: string, splitAssignments: boolean): string[] {
  const out: string[] = [];
  let cur = '';
  const end = () => {
    // `cmd=pnpm publish …`: an assignment's value starts a word of its own (it may be run later).
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*\+?=)(.+)$/.exec(cur);
    if (assignment) out.push(assignment[1] as string, assignment[2] as string);
    else if (cur !== '') out.push(cur);
    cur = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "'" || c === '"' || c === '\\') continue;
    if (c === ' ' || c === '\t' || c === '\r' || c === ',' || c === '[' || c === ']') end();
    else if (c === '\n' || c === ';' || c === '&' || c === '|' || c === '(' || c === ')' || c === '<' || c === '>' || c === '`') {
      end();
      if (out.at(-1) !== STOP) out.push(STOP);
    } else if (c === '=' && splitAssignments) end();
    else cur += c;
  }
  end();
  return out;
}

/** The string literals of one line of code (`'…'`, `"…"`, `` `…` ``), in order; an unterminated one ends the line (linear, whatever the quotes). */
export function literals(line: string): string[] {
  return literalSpans(line).map((l) => l.text);
}

/** The string literals of one line with where each starts and ends. */
function literalSpans(line: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  for (let i = 0; i < line.length; i++) {
    const q = line[i];
    if (q !== '"' && q !== "'" && q !== '`') continue;
    let j = i + 1;
    while (j < line.length && line[j] !== q) j += line[j] === '\\' ? 2 : 1;
    if (j >= line.length) break;
    out.push({ text: line.slice(i + 1, j), start: i, end: j + 1 });
    i = j;
  }
  return out;
}

/** A comment line in the languages the guard reads (shell, JavaScript, Python, Ruby, Perl, make). */
export const isCommentLine = (line: string) => /^\s*(#(?!!)|\/\/|\/\*|\*|<!--|--\s|;)/.test(line);

/** Candidates in a token list: git + guarded verb anywhere; a catalog program at a command position. */
function candidatesIn(words: string[], line: string, out: Candidate[]): void {
  let commandPosition = true;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (w === STOP) {
      commandPosition = true;
      continue;
    }
    const dashed = commandPosition ? dashedGit(w) : undefined;
    if (isGit(w) || dashed) {
      let j = i + 1;
      const args: string[] = dashed ? [dashed] : [];
      if (!dashed) {
        while (j < words.length && (words[j] as string).startsWith('-') && words[j] !== STOP) {
          if (GIT_VALUED.has(words[j] as string)) j++;
          j++;
        }
      }
      const verb = dashed ?? words[j];
      if (verb !== undefined && (COMMIT_VERBS.has(verb) || PUSH_VERBS.has(verb))) {
        for (let k = dashed ? i + 1 : j; k < words.length && args.length < MAX_ARGS && words[k] !== STOP; k++) args.push(words[k] as string);
        out.push({ kind: 'git', args, line });
      }
    } else if (commandPosition && inCatalog(w)) {
      const args: string[] = [];
      for (let k = i + 1; k < words.length && args.length < MAX_ARGS && words[k] !== STOP; k++) args.push(words[k] as string);
      out.push({ kind: 'ship', program: catalogName(w), args, line });
    } else if (commandPosition && Object.hasOwn(PACKAGE_PROGRAMS, w)) {
      const args: string[] = [];
      for (let k = i + 1; k < words.length && args.length < MAX_ARGS && words[k] !== STOP; k++) args.push(words[k] as string);
      out.push({ kind: 'ship', program: PACKAGE_PROGRAMS[w] as string, args, line });
    }
    // A computed word, an assignment or a wrapper (with its options) at a command position leaves the next word one too.
    const runner = /^(pnpm|yarn|npm|bun)$/.test(w) && ['dlx', 'exec', 'x'].includes(words[i + 1] ?? '');
    const option = w.startsWith('-') && i > 0 && PASS_THROUGH.has(words[i - 1] as string);
    commandPosition = commandPosition && (w.startsWith('$') || PASS_THROUGH.has(w) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w) || option || runner);
  }
}

/** The precise net over a file's text (code: string literals only). */
export function preciseCandidates(text: string, code: boolean): Candidate[] {
  const out: Candidate[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.length > MAX_LINE ? raw.slice(0, MAX_LINE) : raw;
    if (!/git|[a-z]/i.test(line) || isCommentLine(line)) continue;
    if (code) {
      const lits = literalSpans(line);
      if (lits.length === 0) continue;
      const words: string[] = [];
      lits.forEach((lit, i) => {
        // An array's elements continue one argv (`['git', 'tag', v]`, `'git', ['push']`): an
        // identifier among them is a word computed at run time (`$`). Anything else between two
        // literals starts another command.
        const between = i === 0 ? null : line.slice((lits[i - 1] as { end: number }).end, lit.start);
        const own = tokens(lit.text, false);
        const array = between === null ? null : /^\s*,\s*\[?\s*((?:[A-Za-z_$][\w$.]*\s*,\s*)*)$/.exec(between);
        if (between !== null && (array === null || own.length > 1)) words.push(STOP);
        else if (array) for (const _ of (array[1] as string).split(',').filter((x) => x.trim() !== '')) words.push('$');
        words.push(...own);
        const after = i === lits.length - 1 ? /^\s*,\s*[A-Za-z_$][\w$.]*/.exec(line.slice(lit.end)) : null;
        if (after) words.push('$');
      });
      candidatesIn(words, line.trim(), out);
    } else candidatesIn(tokens(line, false), line.trim(), out);
  }
  return out;
}

/** What the loose net finds in the command the agent typed. */
export interface LooseMentions {
  /** A guarded git verb named anywhere (commit-class, push-class). */
  commit: string | null;
  push: string | null;
  force: boolean;
  /** Candidates for the publishing catalog: a program and every later word that is not computed. */
  ships: Candidate[];
  /** The word publish (or unpublish) anywhere: a computed program with it is a publish. */
  publishWord: boolean;
}

/**
 * The loose net, for the command the agent typed when part of it is computed: a git word
 * and a guarded git verb anywhere in it (`(x=echo); $x git push`, `$GIT push`), a
 * publishing program and its verb anywhere after it.
 */
export function looseMentions(text: string): LooseMentions {
  const words = tokens(text, true).filter((w) => w !== STOP);
  const dashed = words.map(dashedGit).filter((v): v is string => v !== undefined);
  const named = new Set([...words, ...dashed]);
  // A git word: git by any path, git-VERB, or a variable named for it (`$GIT`, `${GIT:-git}`).
  const git = dashed.length > 0 || words.some((w) => isGit(w) || /^\$\{?git(_?(bin|cmd|exe|command))?\b/i.test(w));
  const commit = git ? (LOOSE_COMMIT_VERBS.find((v) => named.has(v)) ?? null) : null;
  const push = git ? ([...PUSH_VERBS].find((v) => named.has(v)) ?? null) : null;
  const force = push !== null && words.some((w) => /^--(force|mirror|delete|prune)/.test(w) || /^-[A-Za-z]*[fd]$/.test(w) || /^\+./.test(w));
  const ships: Candidate[] = [];
  words.forEach((w, i) => {
    const program = inCatalog(w) ? catalogName(w) : Object.hasOwn(PACKAGE_PROGRAMS, w) ? PACKAGE_PROGRAMS[w] : undefined;
    if (program === undefined) return;
    const args = words.slice(i + 1).filter((a) => !a.includes('$')).slice(0, MAX_ARGS);
    ships.push({ kind: 'ship', program, args, line: text });
  });
  return { commit, push, force, ships, publishWord: named.has('publish') || named.has('unpublish') };
}

/** Does code we cannot run (an interpreter's inline script) mention removing the kill switch? */
export function mentionsStopRemoval(text: string): boolean {
  // The word STOP (any case beside a .leopold mention, as on a case-insensitive file system), with a removal call.
  const named = /(?<![A-Za-z0-9_])STOP(?![A-Za-z0-9_])/.test(text) || (/\.leopold/.test(text) && /STOP(?![A-Za-z0-9_])/i.test(text));
  return named && /\b(?:rm|unlink|rmdir|remove|rmSync|unlinkSync|rename|renameSync|delete|shred|trash|mv)\b/.test(text);
}

/** Force spellings anywhere in the text (for a push whose arguments are partly computed). */
export function mentionsForce(text: string): boolean {
  const stripped = text.replace(/['"\\`]/g, '');
  return /--(?:force|mirror|delete|prune)|(?:^|\s)-[A-Za-z]*[fd](?=\s|$)|(?:^|\s)\+[^\s+]|(?:^|\s):[A-Za-z]/.test(stripped);
}

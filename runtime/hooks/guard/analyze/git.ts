import { parseShell } from '../shell/parse.js';
import type { Word } from '../shell/types.js';
import { mentionsForce } from './mentions.js';
import type { ArgvOptions, WalkApi } from './walk-api.js';

/** Verbs that create commits on a branch (`--abort`/`--quit` alone are allowed: they undo). */
export const COMMIT_VERBS = new Set(['commit', 'merge', 'cherry-pick', 'revert', 'am', 'rebase', 'commit-tree', 'pull', 'filter-branch', 'fast-import']);
/** Verbs that publish commits. */
export const PUSH_VERBS = new Set(['push', 'send-pack', 'http-push']);
const UNDO_ONLY = new Set(['--abort', '--quit', '--show-current-patch']);

// Global options that take the next word as their value (`git -C dir push`).
const GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--attr-source']);

// Long options of `git push` that delete or overwrite remote history (any unambiguous
// prefix works in git's option parser, so prefixes count too).
const FORCE_LONG = ['force', 'force-with-lease', 'force-if-includes', 'mirror', 'delete', 'prune'];
const PUSH_WITH_VALUE = new Set(['--repo', '--receive-pack', '--exec', '--push-option', '-o']);

// Commands git ships; a verb outside this list may be an alias from the user's config.
const BUILTIN = new Set(
  ('add am annotate apply archive bisect blame branch bugreport bundle cat-file check-attr check-ignore check-mailmap ' +
    'check-ref-format checkout checkout-index cherry cherry-pick citool clean clone column commit commit-graph commit-tree ' +
    'config count-objects credential describe diff diff-files diff-index diff-tree difftool fast-export fast-import fetch ' +
    'fetch-pack filter-branch fmt-merge-msg for-each-ref for-each-repo format-patch fsck gc get-tar-commit-id grep gui ' +
    'hash-object help http-push index-pack init init-db instaweb interpret-trailers log ls-files ls-remote ls-tree mailinfo ' +
    'mailsplit maintenance merge merge-base merge-file merge-index merge-tree mktag mktree mv name-rev notes pack-objects ' +
    'pack-refs patch-id prune pull push range-diff read-tree rebase reflog remote repack replace request-pull rerere reset ' +
    'restore rev-list rev-parse revert rm send-email send-pack shortlog show show-branch show-ref sparse-checkout stash ' +
    'status stripspace submodule switch symbolic-ref tag update-index update-ref var verify-commit verify-pack verify-tag ' +
    'version whatchanged worktree write-tree lfs svn p4 subtree flow')
    .split(' '),
);

const MAX_ALIAS_DEPTH = 8;

interface GitConfig {
  aliases: Map<string, string | null>;
  /** `remote.<name>.mirror=true` or a `+` push refspec in inline config: every push forces. */
  forcing: boolean;
}

/** Inline configuration from `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n` and `GIT_CONFIG_PARAMETERS`. */
function envConfig(w: WalkApi, opts: ArgvOptions, config: GitConfig): void {
  const get = (name: string) => (opts.assignments?.has(name) ? opts.assignments.get(name) : w.env(name));
  const count = Number(get('GIT_CONFIG_COUNT') ?? '0');
  for (let i = 0; i < Math.min(count, 64); i++) {
    const key = get(`GIT_CONFIG_KEY_${i}`);
    if (typeof key === 'string') setConfig(config, key, get(`GIT_CONFIG_VALUE_${i}`) ?? null);
  }
  const params = get('GIT_CONFIG_PARAMETERS');
  if (typeof params === 'string') {
    for (const m of params.matchAll(/'([^']*)'(?:\s*=\s*'([^']*)')?/g)) {
      const [key, value] = m[2] === undefined ? splitKeyValue(m[1] ?? '') : [m[1] ?? '', m[2]];
      setConfig(config, key, value);
    }
  } else if (params === null) config.aliases.set('*', null);
}

function splitKeyValue(kv: string): [string, string | null] {
  const eq = kv.indexOf('=');
  return eq < 0 ? [kv, 'true'] : [kv.slice(0, eq), kv.slice(eq + 1)];
}

function setConfig(config: GitConfig, key: string, value: string | null): void {
  const alias = /^alias\.(.+)$/i.exec(key);
  if (alias) config.aliases.set((alias[1] as string).toLowerCase(), value);
  else if (/^remote\..+\.mirror$/i.test(key) && value !== 'false') config.forcing = true;
  else if (/^remote\..+\.push$/i.test(key) && (value === null || value.startsWith('+'))) config.forcing = true;
}

/**
 * `git <args>`: skips global options (collecting inline aliases and config), resolves
 * aliases, and reports commit-creating verbs, pushes and force-pushes.
 */
export function analyzeGit(args: Word[], w: WalkApi, opts: ArgvOptions, depth = 0, inherited?: GitConfig): void {
  const config: GitConfig = inherited ?? { aliases: new Map(), forcing: false };
  if (!inherited) envConfig(w, opts, config);
  let i = 0;
  let dir: string | undefined;
  for (; i < args.length; i++) {
    const a = args[i] as Word;
    const t = a.text;
    if (t === '--') {
      i++;
      break;
    }
    if (!t.startsWith('-') || t === '-') break;
    const eq = t.indexOf('=');
    const name = eq < 0 ? t : t.slice(0, eq);
    let value: Word | undefined;
    if (eq >= 0 && t.startsWith('--')) value = { ...a, text: t.slice(eq + 1) };
    else if (GLOBAL_WITH_VALUE.has(t)) value = args[++i];
    else if (t.startsWith('-c') && t.length > 2) value = { ...a, text: t.slice(2) };
    else if (t.startsWith('-C') && t.length > 2) value = { ...a, text: t.slice(2) };
    if (!value) continue;
    if (name === '-c') {
      if (value.dynamic) config.aliases.set('*', null);
      const [key, v] = splitKeyValue(value.text);
      setConfig(config, key, v);
    } else if (name === '--config-env') {
      const [key] = splitKeyValue(value.text);
      setConfig(config, key, null);
    } else if (name === '-C' && !value.dynamic) dir = dir ? `${dir}/${value.text}` : value.text;
  }
  const verbWord = args[i];
  const rest = args.slice(i + 1);
  if (!verbWord) {
    if (opts.unknownTrailing) w.mention('runs git with a verb supplied at run time');
    return;
  }
  if (verbWord.dynamic || verbWord.glob) {
    w.mention('runs git with a verb computed at run time');
    if (!verbWord.glob) return;
  }
  const verb = verbWord.text;

  const alias = config.aliases.has(verb.toLowerCase()) ? config.aliases.get(verb.toLowerCase()) : config.aliases.get('*');
  if (alias !== undefined || (!BUILTIN.has(verb) && !verbWord.dynamic)) {
    const body = alias !== undefined ? alias : w.gitAlias(verb);
    if (body === null) {
      w.add({ lock: 'commit', what: `git ${verb} (an alias whose expansion is not known)` });
      w.add({ lock: 'push', what: `git ${verb} (an alias whose expansion is not known)` });
      return;
    }
    if (body !== undefined) {
      expandAlias(verb, body, rest, w, opts, depth, config);
      return;
    }
  }
  if (verbWord.glob) {
    // `git pu?h`: the shell expands it only if a matching file exists; assume one does.
    for (const v of [...COMMIT_VERBS, ...PUSH_VERBS]) {
      if (globMatch(verb, v)) judgeVerb(v, rest, w, opts, config, dir);
    }
    return;
  }
  judgeVerb(verb, rest, w, opts, config, dir);
}

function globMatch(pattern: string, name: string): boolean {
  const re = pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  try {
    return new RegExp(`^${re}$`).test(name);
  } catch {
    return true;
  }
}

function expandAlias(verb: string, body: string, rest: Word[], w: WalkApi, opts: ArgvOptions, depth: number, config: GitConfig): void {
  if (body.startsWith('!')) {
    // A shell alias runs `sh -c '<body> "$@"'`: analyse the body, and deny it anyway (the
    // arguments join it at run time), as a commit-class action.
    w.add({ lock: 'commit', what: `git ${verb} (a shell alias: ${body.slice(0, 60)})` });
    w.script(body.slice(1), false);
    return;
  }
  if (depth >= MAX_ALIAS_DEPTH) {
    w.add({ lock: 'commit', what: `git ${verb} (aliases nested too deep)` });
    return;
  }
  let words: Word[];
  try {
    words = parseShell(body).commands.flatMap((c) => c.words);
  } catch {
    words = body.split(/\s+/).filter(Boolean).map((text) => ({ text, dynamic: false, quoted: false, glob: false }));
  }
  // An alias never shadows itself: `alias.push = push --force` runs the builtin.
  const inner = new Map(config.aliases);
  inner.delete(verb.toLowerCase());
  analyzeGit([...words, ...rest], w, opts, depth + 1, { ...config, aliases: inner });
}

function judgeVerb(verb: string, rest: Word[], w: WalkApi, opts: ArgvOptions, config: GitConfig, dir: string | undefined): void {
  const shown = `git ${[verb, ...rest.map((r) => r.text)].join(' ')}`.slice(0, 80);
  if (COMMIT_VERBS.has(verb)) {
    const undo = rest.length === 1 && UNDO_ONLY.has((rest[0] as Word).text);
    if (!undo) w.add({ lock: 'commit', what: shown });
    return;
  }
  if (PUSH_VERBS.has(verb)) {
    w.add({ lock: 'push', what: shown });
    judgePush(verb, rest, w, opts, config, shown);
    return;
  }
  const sub = rest[0]?.text;
  switch (verb) {
    case 'subtree':
      if (sub === 'push') w.add({ lock: 'push', what: shown });
      else if (sub === 'add' || sub === 'merge' || sub === 'pull' || sub === 'split') w.add({ lock: 'commit', what: shown });
      return;
    case 'svn':
      if (sub === 'dcommit') w.add({ lock: 'push', what: shown });
      else if (sub === 'rebase') w.add({ lock: 'commit', what: shown });
      return;
    case 'p4':
      if (sub === 'submit') w.add({ lock: 'push', what: shown });
      else if (sub === 'rebase') w.add({ lock: 'commit', what: shown });
      return;
    case 'config':
      judgeConfig(rest, w, shown);
      return;
    case 'remote':
      if (sub === 'add' && rest.some((r) => r.text.startsWith('--mirror'))) w.add({ lock: 'force', what: `${shown} (every later push would mirror)` });
      return;
    case 'rm':
    case 'mv': {
      const operands = rest.filter((r) => !r.text.startsWith('-'));
      const sources = verb === 'mv' ? operands.slice(0, -1) : operands;
      w.removal(sources, verb === 'mv' || rest.some((r) => /^-[a-z]*r/.test(r.text)), shown, dir);
      if (verb === 'mv') w.overwrite(operands.slice(-1), shown, dir);
      return;
    }
    case 'checkout':
    case 'restore':
      w.overwrite(rest.filter((r) => !r.text.startsWith('-')), shown, dir);
      return;
    default:
      return;
  }
}

function judgePush(verb: string, rest: Word[], w: WalkApi, opts: ArgvOptions, config: GitConfig, shown: string): void {
  const force = (why: string) => w.add({ lock: 'force', what: `${shown} (${why})` });
  if (config.forcing) force('inline config makes the push a mirror or forced push');
  const positional: Word[] = [];
  let computed = opts.unknownTrailing === true;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as Word;
    const t = a.text;
    if (a.dynamic) computed = true;
    if (t === '--') {
      positional.push(...rest.slice(i + 1));
      break;
    }
    if (t.startsWith('--') && t.length > 2) {
      const name = t.slice(2).split('=')[0] as string;
      if (FORCE_LONG.some((f) => f.startsWith(name))) force(`--${name}`);
      if (PUSH_WITH_VALUE.has(`--${name}`) && !t.includes('=')) i++;
      continue;
    }
    if (t.startsWith('-') && t.length > 1) {
      for (let k = 1; k < t.length; k++) {
        const ch = t[k];
        if (ch === 'f') force('-f');
        else if (ch === 'd') force('-d deletes a remote ref');
        else if (ch === 'o') {
          if (k === t.length - 1) i++;
          break;
        }
      }
      continue;
    }
    positional.push(a);
  }
  for (const [n, p] of positional.entries()) {
    if (p.text.startsWith('+')) force(`refspec ${p.text}`);
    else if (n > 0 && p.text.startsWith(':')) force(`refspec ${p.text} deletes a remote ref`);
  }
  if (computed && mentionsForce(w.source)) force('arguments computed at run time beside a force spelling');
  void verb;
}

function judgeConfig(rest: Word[], w: WalkApi, shown: string): void {
  const positional = rest.filter((r) => !r.text.startsWith('-'));
  const start = positional[0]?.text === 'set' ? 1 : 0;
  const key = positional[start];
  const value = positional[start + 1];
  if (!key) return;
  const alias = /^alias\.(.+)$/i.exec(key.text);
  if (alias) {
    if (!value) return;
    if (value.dynamic || value.text.startsWith('!')) {
      w.add({ lock: 'commit', what: `${shown} (defines a shell or computed git alias)` });
      return;
    }
    const first = value.text.trim().split(/\s+/)[0] ?? '';
    if (COMMIT_VERBS.has(first)) w.add({ lock: 'commit', what: `${shown} (an alias for a commit-creating verb)` });
    if (PUSH_VERBS.has(first)) w.add({ lock: 'push', what: `${shown} (an alias for push)` });
    return;
  }
  if (!value) return;
  if (/^remote\..+\.mirror$/i.test(key.text) && value.text !== 'false') w.add({ lock: 'force', what: `${shown} (every later push would mirror)` });
  if (/^remote\..+\.push$/i.test(key.text) && (value.dynamic || value.text.startsWith('+'))) {
    w.add({ lock: 'force', what: `${shown} (a forced push refspec)` });
  }
}

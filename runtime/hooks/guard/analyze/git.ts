import { parseShell } from '../shell/parse.js';
import type { Word } from '../shell/types.js';
import { mentionsForce } from './mentions.js';
import { shipOf } from './publish.js';
import type { ArgvOptions, WalkApi } from './walk-api.js';

/** Verbs that create commits on a branch (`--abort`/`--quit` alone are allowed: they undo). */
export const COMMIT_VERBS = new Set(['commit', 'merge', 'cherry-pick', 'revert', 'am', 'rebase', 'commit-tree', 'pull', 'fast-import']);
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

/** Config keys whose value is a command git runs through the shell. */
const COMMAND_KEYS = /^(core\.(fsmonitor|sshcommand|pager|editor|askpass)|pager\..+|sequence\.editor|credential(\..+)?\.helper|uploadpack\.packobjectshook|diff\.external|diff\..+\.(command|textconv)|filter\..+\.(clean|smudge|process)|merge\..+\.driver|gpg(\..+)?\.program|remote\..+\.(receivepack|uploadpack|proxy)|core\.gitproxy|sendemail\.(sendmailcmd|smtpserver)|difftool\..+\.cmd|mergetool\..+\.cmd|web\.browser|browser\..+\.(cmd|path)|man\..+\.(cmd|path)|interactive\.difffilter|core\.alternaterefscommand|trace2\..+|ssh\.variant)$/i;
/** Config keys that point git at code or config the guard does not read. */
const OPAQUE_KEYS = /^(core\.hookspath|include\.path|includeif\..+\.path|init\.templatedir|core\.worktree|core\.sshcommand-file|protocol\..+\.allow|protocol\.allow)$/i;
/** Environment variables holding a command git runs (through the shell). */
const COMMAND_ENV = ['GIT_SSH_COMMAND', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'GIT_PAGER', 'GIT_EXTERNAL_DIFF', 'GIT_PROXY_COMMAND', 'EDITOR', 'VISUAL', 'PAGER'];
/** Environment variables holding a program path git runs. */
const PROGRAM_ENV = ['GIT_SSH', 'GIT_ASKPASS', 'SSH_ASKPASS', 'GIT_EXEC_PATH', 'GIT_TEMPLATE_DIR', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG'];

const judgingEnv = new Set<string>();

/** A config key git reads during this invocation: commands it would run are judged, opaque ones denied. */
function judgeRunningKey(key: string, value: string | null, w: WalkApi, where: string): void {
  if (OPAQUE_KEYS.test(key)) {
    if (/^protocol\./i.test(key) && value !== null && !/always|user/i.test(value)) return;
    w.unjudged(`${where} sets ${key}: git would run or read files the guard does not see`);
  } else if (COMMAND_KEYS.test(key)) {
    if (value === null) w.unjudged(`${where} sets ${key} to a command computed at run time`);
    else w.script(value.replace(/^!/, ''), false, `${key} runs a command`);
  }
  if (value !== null && /(^|\s|=)(ext|fd)::/i.test(value)) w.unjudged(`${where}: an ext:: or fd:: URL runs a command`);
}

interface GitConfig {
  aliases: Map<string, string | null>;
  /** `remote.<name>.mirror=true` or a `+` push refspec in inline config: every push forces. */
  forcing: boolean;
}

/** Inline configuration from `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n` and `GIT_CONFIG_PARAMETERS`. */
function envConfig(w: WalkApi, opts: ArgvOptions, config: GitConfig): void {
  if (judgingEnv.has('*')) return; // a command git runs inherits the same environment: judged once
  judgingEnv.add('*');
  try {
    envConfigOnce(w, opts, config);
  } finally {
    judgingEnv.delete('*');
  }
}

function envConfigOnce(w: WalkApi, opts: ArgvOptions, config: GitConfig): void {
  const get = (name: string) => (opts.assignments?.has(name) ? opts.assignments.get(name) : w.env(name));
  const count = Number(get('GIT_CONFIG_COUNT') ?? '0');
  for (let i = 0; i < Math.min(count, 64); i++) {
    const key = get(`GIT_CONFIG_KEY_${i}`);
    if (typeof key === 'string') setConfig(config, key, get(`GIT_CONFIG_VALUE_${i}`) ?? null, w);
    else if (key === null) w.unjudged('GIT_CONFIG_KEY computed at run time');
  }
  const params = get('GIT_CONFIG_PARAMETERS');
  if (typeof params === 'string') {
    for (const m of params.matchAll(/'([^']*)'(?:\s*=\s*'([^']*)')?/g)) {
      const [key, value] = m[2] === undefined ? splitKeyValue(m[1] ?? '') : [m[1] ?? '', m[2]];
      setConfig(config, key, value, w);
    }
  } else if (params === null) {
    config.aliases.set('*', null);
    w.unjudged('GIT_CONFIG_PARAMETERS computed at run time');
  }
  for (const name of COMMAND_ENV) {
    const v = get(name);
    if (v === null) w.unjudged(`${name} computed at run time is a command git may run`);
    else if (typeof v === 'string' && !judgingEnv.has(name)) {
      // The command inherits the variable; judge it once, not again for each git inside it.
      judgingEnv.add(name);
      try {
        w.script(v, false, `${name} runs a command`);
      } finally {
        judgingEnv.delete(name);
      }
    }
  }
  for (const name of PROGRAM_ENV) {
    const v = get(name);
    if (v === null || typeof v === 'string') w.unjudged(`${name}=${v ?? '…'}: git would run or read files the guard does not see`);
  }
}

function splitKeyValue(kv: string): [string, string | null] {
  const eq = kv.indexOf('=');
  return eq < 0 ? [kv, 'true'] : [kv.slice(0, eq), kv.slice(eq + 1)];
}

function setConfig(config: GitConfig, key: string, value: string | null, w?: WalkApi): void {
  if (w) judgeRunningKey(key, value, w, 'inline git config');
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
      if (value.dynamic) {
        config.aliases.set('*', null);
        w.unjudged('git -c with configuration computed at run time');
      }
      const [key, v] = splitKeyValue(value.text);
      setConfig(config, key, v, w);
    } else if (name === '--config-env') {
      const [key] = splitKeyValue(value.text);
      setConfig(config, key, null, w);
    } else if (name === '--exec-path') w.unjudged('git --exec-path runs git commands from a directory the guard does not read');
    else if (name === '-C' && !value.dynamic) dir = dir ? `${dir}/${value.text}` : value.text;
    else if (name === '--work-tree') {
      // Paths are then relative to that tree: `git --work-tree=.leopold checkout -- GUARDRAILS.md`.
      if (value.dynamic) w.unjudged('git --work-tree computed at run time');
      else dir = dir ? `${dir}/${value.text}` : value.text;
    }
  }
  const verbWord = args[i];
  const rest = args.slice(i + 1);
  if (!verbWord) {
    if (opts.unknownTrailing) w.unjudged('git with its verb supplied at run time (xargs)');
    return;
  }
  if (verbWord.dynamic || verbWord.glob) {
    w.unjudged(`git with a verb computed at run time (${verbWord.text}${verbWord.dynamic ? '…' : ''})`);
    return;
  }
  const verb = verbWord.text;
  // xargs appends arguments at run time: judge as if one more, unknown, were there.
  if (opts.unknownTrailing) rest.push({ text: '', dynamic: true, quoted: false, glob: false });
  for (const r of rest) {
    if (/^(ext|fd)::/i.test(r.text) || /^--(upload-pack|receive-pack|exec)=?.*ext::/i.test(r.text)) w.unjudged(`git ${verb} ${r.text.slice(0, 40)}: an ext:: or fd:: URL runs a command`);
  }

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
  const envTree = opts.assignments?.has('GIT_WORK_TREE') ? opts.assignments.get('GIT_WORK_TREE') : w.env('GIT_WORK_TREE');
  if (envTree === null) w.unjudged('GIT_WORK_TREE computed at run time');
  else if (typeof envTree === 'string') dir = dir ? `${dir}/${envTree}` : envTree;
  judgeVerb(verb, rest, w, opts, config, dir);
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
  // The refusal quotes the command as written; `shown` names the verb for the reason.
  const shown = `git ${verb}`;
  if (verb === 'filter-branch' || verb === 'filter-repo') {
    // History rewrites are in the publishing catalog (never lifted).
    const ship = shipOf('git', [verb, ...rest.map((r) => r.text)]);
    if (ship) w.add({ lock: 'publish', what: ship.what, ...(ship.entry.instead ? { instead: ship.entry.instead } : {}) });
    return;
  }
  if (COMMIT_VERBS.has(verb)) {
    const undo = rest.length === 1 && UNDO_ONLY.has((rest[0] as Word).text);
    if (!undo) w.add({ lock: 'commit', what: `${shown} creates commits` });
    return;
  }
  if (PUSH_VERBS.has(verb)) {
    w.add({ lock: 'push', what: `${shown} publishes commits to a remote` });
    judgePush(verb, rest, w, opts, config, shown);
    return;
  }
  const sub = rest[0]?.text;
  const ref = (why: string, instead?: string) => w.add({ lock: 'commit', what: `${shown} ${why}`, ...(instead ? { instead } : {}) });
  const BRANCH = 'work on the current branch; the user creates branches after the run';
  const flags = rest.filter((r) => r.text.startsWith('-')).map((r) => r.text);
  const positional = rest.filter((r) => !r.text.startsWith('-') || r.dynamic);
  const has = (...names: string[]) => flags.some((f) => names.includes(f.split('=')[0] as string) || names.some((n) => /^-[a-zA-Z]$/.test(n) && /^-[a-zA-Z]+$/.test(f) && f.includes(n[1] as string)));
  for (const opt of ['--upload-pack', '-u', '--receive-pack', '--exec']) {
    if (verb === 'push' || !['clone', 'fetch', 'pull', 'ls-remote', 'archive'].includes(verb)) continue;
    if (opt === '-u' && verb !== 'clone') continue;
    const k = rest.findIndex((r) => r.text === opt || r.text.startsWith(`${opt}=`));
    if (k < 0) continue;
    const v = rest[k]!.text.includes('=') ? { ...rest[k]!, text: rest[k]!.text.slice(rest[k]!.text.indexOf('=') + 1) } : rest[k + 1];
    if (v) w.script(v.text, v.dynamic, `git ${verb} ${opt} runs a command`);
  }
  switch (verb) {
    case 'update-ref':
      return ref('moves a ref directly');
    case 'symbolic-ref':
      if (has('-d', '--delete') || positional.length >= 2) ref('writes a symbolic ref');
      return;
    case 'branch': {
      const listing = has('-l', '--list', '-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--show-current', '--format', '--sort', '--column', '--no-column');
      const upstream = has('-u', '--set-upstream-to', '--unset-upstream', '--edit-description');
      if (has('-f', '--force', '-m', '-M', '--move', '-c', '-C', '--copy', '-d', '-D', '--delete')) ref('creates, moves, copies or deletes a branch', BRANCH);
      else if (positional.length > 0 && !listing && !upstream) ref('creates a branch', BRANCH);
      return;
    }
    case 'checkout':
      if (has('-b', '-B', '--orphan')) ref('creates a branch', BRANCH);
      w.pathspecs(positional, shown, dir);
      return;
    case 'switch':
      if (has('-c', '-C', '--create', '--force-create', '--orphan')) ref('creates a branch', BRANCH);
      return;
    case 'reset': {
      const dash = rest.findIndex((r) => r.text === '--');
      const before = (dash < 0 ? rest : rest.slice(0, dash)).filter((r) => !r.text.startsWith('-') || r.dynamic);
      const mode = has('--soft', '--hard', '--mixed', '--merge', '--keep');
      const rev = before[0];
      const looksRev = (r: Word) => r.dynamic || /[~^]|@\{|^[0-9a-f]{7,40}$|^(origin|upstream|refs)\//.test(r.text) || (!/[./]/.test(r.text) && !['HEAD', '@'].includes(r.text));
      if (rev && !['HEAD', '@'].includes(rev.text) && (mode || looksRev(rev))) ref('moves the branch to another commit', 'undo changes in the working tree (`git checkout -- FILE`, `git restore FILE`); the branch stays where it is');
      w.pathspecs(dash < 0 ? before.slice(1) : rest.slice(dash + 1), shown, dir);
      return;
    }
    case 'tag':
      if (has('-d', '--delete')) ref('deletes a tag', 'nothing: the user tags after the run');
      else if (positional.length > 0 && !has('-l', '--list', '-v', '--verify', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--sort', '--format', '--column')) ref('creates a tag', 'nothing: the user tags after the run');
      return;
    case 'stash':
      if (sub === 'list' || sub === 'show') return;
      ref("writes refs/stash, which the run's lock on .git/refs forbids", 'set changes aside with `git diff > changes.patch` (and bring them back with `git apply changes.patch`)');
      if (has('-u', '--include-untracked', '-a', '--all')) w.removal([{ text: '.', dynamic: false, quoted: false, glob: false }], true, `${shown} (removes untracked files)`, dir);
      return;
    case 'notes':
      if (['add', 'append', 'copy', 'edit', 'merge', 'remove', 'prune'].includes(sub ?? '')) ref('writes refs/notes');
      return;
    case 'replace':
      if (rest.length > 0 && !has('-l', '--list', '--format')) ref('writes refs/replace');
      return;
    case 'worktree':
      if (sub === 'add') ref('creates a worktree and its HEAD');
      return;
    case 'fetch': {
      const specs = positional.slice(1);
      for (const sp of specs) {
        if (sp.dynamic) w.unjudged(`${shown}: a refspec computed at run time could write a local branch`);
        const colon = sp.text.indexOf(':');
        if (colon < 0) continue;
        const dst = sp.text.slice(colon + 1);
        if (dst !== '' && !/^refs\/remotes\//.test(dst)) ref(`the refspec ${sp.text} writes a local ref`);
      }
      return;
    }
    case 'clone':
    case 'init': {
      if (flags.some((f) => f.startsWith('--template'))) w.unjudged(`${shown}: --template copies hooks the guard does not read`);
      const cfg = rest.findIndex((r) => r.text === '-c' || r.text === '--config');
      if (cfg >= 0 && rest[cfg + 1]) {
        const [key, value] = splitKeyValue(rest[cfg + 1]!.text);
        judgeRunningKey(key, rest[cfg + 1]!.dynamic ? null : value, w, shown);
      }
      const dest = verb === 'clone' ? positional[1] : positional[0];
      if (dest) w.overwrite([dest], shown, dir);
      return;
    }
    case 'submodule':
      if (sub === 'foreach') {
        const body = rest.slice(1).filter((r) => !['--recursive', '-q', '--quiet'].includes(r.text));
        w.script(body.map((b) => b.text).join(' '), body.some((b) => b.dynamic), 'git submodule foreach runs a command');
      }
      return;
    case 'bisect':
      if (sub === 'run') w.argv(rest.slice(1), {});
      return;
    case 'difftool':
    case 'mergetool': {
      const k = rest.findIndex((r) => r.text === '-x' || r.text === '--extcmd' || r.text.startsWith('--extcmd='));
      if (k >= 0) {
        const v = rest[k]!.text.startsWith('--extcmd=') ? { ...rest[k]!, text: rest[k]!.text.slice(9) } : rest[k + 1];
        if (v) w.script(v.text, v.dynamic, 'git difftool -x runs a command');
      }
      return;
    }
    case 'for-each-repo': {
      const k = rest.findIndex((r) => !r.text.startsWith('--config'));
      analyzeGit(k < 0 ? [] : rest.slice(k), w, opts, 1, config);
      return;
    }
    case 'hook':
      if (sub === 'run') w.unjudged(`${shown}: runs hook scripts the guard does not read`);
      return;
    case 'apply':
      if (!has('--check', '--stat', '--numstat', '--summary')) {
        const files = positional.filter((p) => p.text !== '-');
        if (files.length === 0) w.argv([{ text: 'patch', dynamic: false, quoted: false, glob: false }], {});
        for (const f of files) w.argv([{ text: 'patch', dynamic: false, quoted: false, glob: false }, { text: '-i', dynamic: false, quoted: false, glob: false }, f], {});
      }
      return;
    case 'clean':
      if (has('-n', '--dry-run')) return;
      w.removal(positional.length > 0 ? positional : [{ text: '.', dynamic: false, quoted: false, glob: false }], true, shown, dir);
      return;
    case 'checkout-index': {
      // `--prefix=dir/` writes each path under dir/ instead.
      const prefixed = rest.find((r) => r.text.startsWith('--prefix='));
      const files = has('-a', '--all') ? [{ text: '.', dynamic: false, quoted: false, glob: false }] : positional;
      if (prefixed?.dynamic) w.unjudged(`${shown}: a --prefix computed at run time`);
      const prefix = prefixed ? prefixed.text.slice(9) : '';
      w.pathspecs(files.map((f) => ({ ...f, text: prefix + f.text })), shown, dir);
      if (prefix !== '') w.overwrite(files.map((f) => ({ ...f, text: prefix + f.text })), shown, dir);
      return;
    }
    case 'merge-file':
    case 'archive': {
      if (verb === 'merge-file' && positional[0]) w.overwrite([positional[0]], shown, dir);
      const o = rest.findIndex((r) => r.text === '-o' || r.text.startsWith('--output'));
      if (o >= 0) {
        const v = rest[o]!.text.startsWith('--output=') ? { ...rest[o]!, text: rest[o]!.text.slice(9) } : rest[o + 1];
        if (v) w.overwrite([v], shown, dir);
      }
      return;
    }
    case 'subtree':
      if (sub === 'push') w.add({ lock: 'push', what: `${shown} push publishes commits` });
      else if (sub === 'add' || sub === 'merge' || sub === 'pull' || sub === 'split') w.add({ lock: 'commit', what: `${shown} ${sub} creates commits` });
      return;
    case 'svn':
      if (sub === 'dcommit') w.add({ lock: 'push', what: `${shown} dcommit publishes commits` });
      else if (sub === 'rebase') w.add({ lock: 'commit', what: `${shown} rebase rewrites commits` });
      return;
    case 'p4':
      if (sub === 'submit') w.add({ lock: 'push', what: `${shown} submit publishes commits` });
      else if (sub === 'rebase') w.add({ lock: 'commit', what: `${shown} rebase rewrites commits` });
      return;
    case 'config':
      judgeConfig(rest, w, shown, dir);
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
    case 'restore':
      w.pathspecs(positional, shown, dir);
      return;
    default:
      return;
  }
}

function judgePush(verb: string, rest: Word[], w: WalkApi, opts: ArgvOptions, config: GitConfig, shown: string): void {
  const force = (why: string) => w.add({ lock: 'force', what: `${shown}: ${why}` });
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

const CONFIG_WITH_VALUE = new Set(['-f', '--file', '--blob', '--type', '--default', '--comment', '--value']);
const CONFIG_READS = new Set(['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--get-color', '--get-colorbool', '-l', '--list', '--show-origin', '--show-scope', '--name-only', 'get', 'list']);

function judgeConfig(rest: Word[], w: WalkApi, shown: string, dir: string | undefined): void {
  const positional: Word[] = [];
  for (let i = 0; i < rest.length; i++) {
    const r = rest[i] as Word;
    if (r.text === '-f' || r.text === '--file' || r.text.startsWith('--file=')) {
      const f = r.text.startsWith('--file=') ? { ...r, text: r.text.slice(7) } : rest[i + 1];
      if (f && !rest.some((x) => CONFIG_READS.has(x.text))) w.overwrite([f], shown, dir);
    }
    if (r.text === '-e' || r.text === '--edit' || r.text === 'edit') return w.unjudged(`${shown}: edits git config in an editor, which the guard cannot follow`);
    if (CONFIG_WITH_VALUE.has(r.text)) i++;
    else if (!r.text.startsWith('-') || r.dynamic) positional.push(r);
  }
  if (rest.some((x) => CONFIG_READS.has(x.text))) return;
  const start = ['set', 'unset', 'add'].includes(positional[0]?.text ?? '') ? 1 : 0;
  const key = positional[start];
  const value = positional[start + 1];
  if (!key) return;
  if (key.dynamic) return w.unjudged(`${shown}: a config key computed at run time`);
  if (value) judgeRunningKey(key.text, value.dynamic ? null : value.text, w, shown);
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

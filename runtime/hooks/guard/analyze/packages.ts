import { dirname, join, relative, resolve } from 'node:path';
import type { SimpleCommand, Word } from '../shell/types.js';
import type { Walk } from './command.js';
import { globMatch } from './glob.js';
import { inCatalog, namedForShipping, PACKAGE_PROGRAMS } from './publish.js';
import type { ArgvOptions } from './walk-api.js';

// Package managers and task runners that run a package's scripts: npm, pnpm, yarn, bun,
// `node --run`, `deno task`, turbo, nx, lerna, npm-run-all and concurrently. Each reads the
// package.json (or deno.json) the tool would read and judges the scripts it would run, in
// the package's directory, as files the guard read (docs/guard.md, "Two modes"); with
// workspaces (`pnpm -r`, `--filter`, `yarn workspace`, `npm -w`, `turbo run`, `nx
// run-many`), every member's. `npx`, `pnpm dlx`, `yarn dlx`, `bunx` and `npm exec` run a
// package's program: judged as that program (`npx semantic-release` is a release).

const lit = (text: string): Word => ({ text, dynamic: false, quoted: true, glob: false });

/** Lifecycle scripts npm runs for the root package: on install-like verbs, on pack, on publish. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare', 'dependencies'];
const PACK_SCRIPTS = ['prepack', 'prepare', 'postpack'];
const PUBLISH_SCRIPTS = ['prepublishOnly', 'prepack', 'prepare', 'postpack', 'publish', 'postpublish'];
const INSTALL_VERBS = new Set(['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add', 'ci', 'clean-install', 'ic', 'install-clean', 'install-test', 'it', 'install-ci-test', 'cit', 'rebuild', 'rb', 'pack', 'publish', 'update', 'up', 'upgrade', 'udpate', 'link', 'ln', 'uninstall', 'remove', 'rm', 'un', 'unlink', 'r', 'dedupe', 'ddp', 'prune']);
/** Options of npm, pnpm, yarn and bun that take a value, before or after the verb. */
const VALUED = new Set(['--prefix', '-C', '--dir', '--cwd', '--userconfig', '--globalconfig', '--cache', '--registry', '--loglevel', '--tag', '--filter', '-F', '--filter-prod', '--reporter', '--workspace-concurrency', '--otp', '--access', '--include', '--exclude', '--from', '-j', '--jobs', '--since', '--preload']);
/** npm's workspace options take a value (pnpm's `-w` is the workspace root, a flag). */
const NPM_VALUED = new Set(['--workspace', '-w']);
/** Commands pnpm, yarn and bun run themselves; any other first word is a script (or a program the package provides). */
const BUILTIN: Record<'pnpm' | 'yarn' | 'bun', Set<string>> = {
  pnpm: new Set('add audit bin cache ci config create dedupe deploy dlx doctor env exec fetch help i import init install install-test it licenses link list ln login logout ls outdated pack patch patch-commit patch-remove prune publish rb rebuild remove rm root self-update server setup store un uninstall unlink up update why approve-builds ignored-builds pkg version view info whoami search owner dist-tag docs repo bugs sbom cat-index cat-file find-hash'.split(' ')),
  yarn: new Set('add audit autoclean bin cache check config constraints create dedupe dlx exec explain generate-lock-entry global help import info init install licenses link list login logout node npm outdated owner pack patch patch-commit plugin policies publish rebuild remove search set stage team unlink unplug up upgrade upgrade-interactive version versions why workspace workspaces store fetch env root prune update'.split(' ')),
  bun: new Set('install i add a remove rm update upgrade link unlink pm outdated audit info why patch patch-commit create c init repl build x exec publish completions discord help'.split(' ')),
};
/** More workspace members than this are not read (the rest are judged by what the net finds). */
const MAX_MEMBERS = 64;

interface Package {
  dir: string;
  name: string | null;
  scripts: Record<string, unknown>;
  /** Workspace patterns (package.json `workspaces`). */
  workspaces: string[];
}

/** package.json in `dir`: null when absent; 'bad' (after an unknown) when it does not parse. */
function readPackage(w: Walk, dir: string): Package | null | 'bad' {
  const path = join(dir, 'package.json');
  const text = w.readConfig(path);
  if (text === null) return null;
  try {
    const pkg = JSON.parse(text) as { name?: unknown; scripts?: unknown; workspaces?: unknown };
    const scripts = pkg.scripts !== null && typeof pkg.scripts === 'object' ? (pkg.scripts as Record<string, unknown>) : {};
    const ws = Array.isArray(pkg.workspaces) ? pkg.workspaces : pkg.workspaces !== null && typeof pkg.workspaces === 'object' ? (pkg.workspaces as { packages?: unknown }).packages : [];
    return { dir, name: typeof pkg.name === 'string' ? pkg.name : null, scripts, workspaces: Array.isArray(ws) ? ws.filter((p): p is string => typeof p === 'string') : [] };
  } catch {
    w.unjudged(`${w.label(path)} does not parse, so the guard cannot tell which scripts run`);
    return 'bad';
  }
}

/** The nearest package.json at or above `start`. */
function nearestPackage(w: Walk, start: string): Package | null {
  for (let dir = start; ; dir = dirname(dir)) {
    const pkg = readPackage(w, dir);
    if (pkg === 'bad') return null;
    if (pkg) return pkg;
    if (dirname(dir) === dir) return null;
  }
}

/** Where the command runs: one directory, or null (after an unknown) when a cd made it unknowable. */
function here(w: Walk, what: string, prefix?: string): string[] | null {
  if (w.cwds.unknown) {
    w.unjudged(`${what} after a cd to a computed directory: the guard cannot tell which package.json applies`);
    return null;
  }
  return w.cwds.dirs.map((d) => (prefix ? resolve(d, prefix) : d));
}

/** The workspace root above `start` and its member patterns (pnpm-workspace.yaml, package.json `workspaces`, lerna.json). */
function workspaceRoot(w: Walk, start: string): { dir: string; patterns: string[] } | null {
  for (let dir = start; ; dir = dirname(dir)) {
    const yaml = w.readConfig(join(dir, 'pnpm-workspace.yaml'));
    if (yaml !== null) return { dir, patterns: yamlPackages(yaml) };
    const pkg = readPackage(w, dir);
    if (pkg && pkg !== 'bad' && pkg.workspaces.length > 0) return { dir, patterns: pkg.workspaces };
    const lerna = w.readConfig(join(dir, 'lerna.json'));
    if (lerna !== null) {
      try {
        const packages = (JSON.parse(lerna) as { packages?: unknown }).packages;
        return { dir, patterns: Array.isArray(packages) ? packages.filter((p): p is string => typeof p === 'string') : ['packages/*'] };
      } catch {
        return { dir, patterns: ['packages/*'] };
      }
    }
    if (dirname(dir) === dir) return null;
  }
}

/** The `packages:` list of a pnpm-workspace.yaml (the only part read). */
function yamlPackages(yaml: string): string[] {
  const out: string[] = [];
  let inList = false;
  for (const line of yaml.split('\n')) {
    if (/^packages\s*:/.test(line)) {
      inList = true;
      continue;
    }
    if (inList && /^\S/.test(line)) break;
    const item = inList ? /^\s*-\s*['"]?([^'"#]+?)['"]?\s*(#.*)?$/.exec(line) : null;
    if (item) out.push(item[1] as string);
  }
  return out;
}

/** The member packages of a workspace: each pattern's directories that hold a package.json (`!` patterns excluded). */
function members(w: Walk, root: { dir: string; patterns: string[] }): Package[] {
  const excluded = root.patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1).replace(/\/$/, ''));
  const dirs = new Set<string>();
  for (const pattern of root.patterns.filter((p) => !p.startsWith('!'))) {
    for (const dir of expand(w, root.dir, pattern.replace(/^\.\//, '').replace(/\/$/, '').split('/'), 0)) {
      if (dirs.size >= MAX_MEMBERS) break;
      const rel = relative(root.dir, dir);
      if (!excluded.some((e) => globMatch(e, rel) || rel.startsWith(`${e}/`))) dirs.add(dir);
    }
  }
  const out: Package[] = [];
  for (const dir of [...dirs].sort()) {
    const pkg = readPackage(w, dir);
    if (pkg && pkg !== 'bad') out.push(pkg);
  }
  return out;
}

/** Directories matching the pattern's segments under `dir` (`*` one level, `**` up to three). */
function expand(w: Walk, dir: string, segments: string[], depth: number): string[] {
  w.budget.spend(4);
  if (segments.length === 0) return [dir];
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '**') {
    const here = expand(w, dir, rest, depth);
    if (depth >= 3) return here;
    const below = (w.ctx.listDir?.(dir) ?? []).filter((e) => e !== 'node_modules' && !e.startsWith('.')).flatMap((e) => expand(w, join(dir, e), segments, depth + 1));
    return [...here, ...below];
  }
  if (!/[*?[]/.test(head)) return expand(w, join(dir, head), rest, depth);
  return (w.ctx.listDir?.(dir) ?? [])
    .filter((e) => e !== 'node_modules' && !e.startsWith('.') && globMatch(head, e))
    .flatMap((e) => expand(w, join(dir, e), rest, depth));
}

/** A `--filter`/`-w`/`workspace` selector against the members: by name (globs too) or by path; every member when it cannot tell. */
function select(all: Package[], root: string, selectors: string[]): Package[] {
  if (selectors.length === 0) return all;
  const picked = new Set<Package>();
  for (const raw of selectors) {
    const s = raw.replace(/^\.\.\.\^?|\.\.\.$|\^\.\.\.$/g, '').replace(/^\{(.*)\}$/, '$1');
    if (s.startsWith('!') || s.includes('[') || s === '') return all; // exclusions and change-based selectors: over-approximate
    const byPath = s.startsWith('.') || (s.includes('/') && !s.startsWith('@'));
    const matches = all.filter((p) => (byPath ? resolve(root, s) === p.dir || p.dir.startsWith(`${resolve(root, s)}/`) || globMatch(s.replace(/^\.\//, ''), relative(root, p.dir)) : p.name !== null && (p.name === s || globMatch(s, p.name))));
    if (matches.length === 0) return all;
    for (const m of matches) picked.add(m);
  }
  return [...picked];
}

/** A script's label for a refusal: `package.json script "test"` (with the package's directory when it is not the project root). */
function label(w: Walk, pkg: Package, name: string): string {
  const file = w.label(join(pkg.dir, 'package.json'));
  return `${file} script "${name}"`;
}

/** Runs `names` of `pkg` (missing ones are skipped, as the tools skip them), each once per walk. */
/** Arguments appended to a script, quoted for the shell (a computed one stays computed). */
function appended(args: readonly Word[]): string {
  return args.map((a) => (a.dynamic ? '"$SCRIPT_ARGUMENT"' : `'${a.text.replace(/'/g, "'\\''")}'`)).join(' ');
}

function runScripts(w: Walk, pkg: Package, names: string[], what: string, args: readonly Word[] = [], main?: string): void {
  for (const rc of [join(pkg.dir, '.npmrc'), join(w.cwds.home, '.npmrc')]) {
    const text = w.readConfig(rc);
    if (text !== null && /^\s*(script-shell|node-options|onload-script)\s*=/im.test(text)) w.unjudged(`${w.label(rc)} sets script-shell/node-options: scripts would run through code the guard cannot see`);
  }
  for (const name of names) {
    const script = pkg.scripts[name];
    if (typeof script !== 'string') continue;
    // The arguments after the script's name are appended to the script itself (not to its pre/post scripts).
    const text = name === main && args.length > 0 ? `${script} ${appended(args)}` : script;
    const key = `${pkg.dir}\u0000${name}\u0000${text}`;
    if (w.judged.has(key)) continue;
    w.judged.add(key);
    w.inDir(pkg.dir, () => w.script(text, false, what, { file: label(w, pkg, name) }));
  }
}

const withHooks = (name: string, hooks: boolean) => (hooks ? [`pre${name}`, name, `post${name}`] : [name]);

/** How a package manager was invoked: its options (workspace selection, directory) and the words after them. */
interface Invocation {
  words: Word[];
  prefix?: string;
  recursive: boolean;
  filters: string[];
  allWorkspaces: boolean;
  ignoreScripts: boolean;
}

function invocation(args: Word[], w: Walk, bin: string): Invocation | null {
  const inv: Invocation = { words: [], recursive: false, filters: [], allWorkspaces: false, ignoreScripts: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Word;
    const t = a.text;
    if (a.dynamic && inv.words.length === 0) {
      w.unjudged(`${bin} with an argument computed at run time (${t}…)`);
      return null;
    }
    if (inv.words.length === 0 && t.startsWith('-') && t !== '-') {
      if (/^--script-shell|^--node-options/.test(t)) {
        w.unjudged(`${bin} ${t}: scripts would run through code the guard cannot see`);
        return null;
      }
      const eq = t.indexOf('=');
      const name = t.startsWith('--') && eq > 0 ? t.slice(0, eq) : t;
      const valued = VALUED.has(name) || (bin === 'npm' && NPM_VALUED.has(name));
      const value = t.startsWith('--') && eq > 0 ? t.slice(eq + 1) : valued ? args[++i]?.text : undefined;
      if (name === '--ignore-scripts') inv.ignoreScripts = true;
      else if (name === '-r' || name === '--recursive') inv.recursive = true;
      else if (name === '--workspaces' || name === '-ws') inv.allWorkspaces = true;
      else if ((name === '--filter' || name === '-F' || name === '--filter-prod' || (name === '-w' || name === '--workspace') && bin === 'npm') && value !== undefined) inv.filters.push(value);
      else if ((name === '--prefix' || name === '-C' || name === '--dir' || name === '--cwd') && value !== undefined) inv.prefix = value;
      continue;
    }
    if (t === '--') {
      inv.words.push(...args.slice(i));
      break;
    }
    // npm reads its own options after the verb too (`npm run build --workspaces`).
    if (bin === 'npm' && inv.words.length > 0) {
      if (t === '--ignore-scripts') inv.ignoreScripts = true;
      if (t === '--workspaces' || t === '-ws') inv.allWorkspaces = true;
      if ((t === '-w' || t === '--workspace') && args[i + 1]) {
        inv.filters.push((args[++i] as Word).text);
        continue;
      }
      if (t.startsWith('--workspace=')) {
        inv.filters.push(t.slice(12));
        continue;
      }
    }
    inv.words.push(a);
  }
  return inv;
}

/** The packages a command runs scripts in: the nearest package, or the selected workspace members. */
function targets(w: Walk, inv: Invocation, what: string, bin: string): Package[] {
  const dirs = here(w, what, inv.prefix);
  if (dirs === null) return [];
  const out: Package[] = [];
  for (const dir of dirs) {
    const workspace = inv.recursive || inv.filters.length > 0 || inv.allWorkspaces;
    if (!workspace) {
      const pkg = nearestPackage(w, dir);
      if (pkg) out.push(pkg);
      continue;
    }
    const root = workspaceRoot(w, dir);
    if (!root) {
      const pkg = nearestPackage(w, dir);
      if (pkg) out.push(pkg);
      continue;
    }
    const all = members(w, root);
    // pnpm -r leaves the root out; a filter may name it.
    const rootPkg = readPackage(w, root.dir);
    const candidates = rootPkg && rootPkg !== 'bad' && (inv.filters.length > 0 || bin !== 'pnpm') ? [...all, rootPkg] : all;
    out.push(...select(candidates, root.dir, inv.filters));
  }
  return out;
}

/** npm, pnpm, yarn and bun. */
export function packageManager(bin: 'npm' | 'pnpm' | 'yarn' | 'bun', args: Word[], w: Walk, opts: ArgvOptions, cmd?: SimpleCommand): void {
  const inv = invocation(args, w, bin);
  if (inv === null) return;
  const [verbWord, ...restWords] = inv.words;
  const verb = verbWord?.text ?? (bin === 'npm' ? '' : 'install');
  const rest = restWords.filter((r) => !r.text.startsWith('-') || r.dynamic);
  const name = rest[0]?.text;
  const what = `${bin} ${inv.words.map((p) => p.text).join(' ')}`.trim().slice(0, 80);
  const hooks = !inv.ignoreScripts;
  const scripts = (names: string[]) => {
    for (const pkg of targets(w, inv, what, bin)) runScripts(w, pkg, names, what);
  };

  if (verb === 'version' && bin === 'npm') {
    const noTag = args.some((a) => a.text === '--no-git-tag-version' || a.text === '--git-tag-version=false');
    if (name && !['--help', 'help'].includes(name) && !noTag) w.add({ lock: 'commit', what: `${what} commits the version bump and tags it`, instead: 'leave the version as it is; the user bumps, commits and tags it after the run' });
    if (name) scripts(['preversion', 'version', 'postversion']);
    return;
  }
  if (['exec', 'x', 'dlx'].includes(verb) || (bin === 'yarn' && verb === 'node')) {
    if (bin === 'yarn' && verb === 'node') return w.argv([lit('node'), ...restWords], opts);
    return execPackage(bin, restWords, w, opts, inv, what);
  }
  if (['test', 't', 'tst', 'start', 'stop', 'restart'].includes(verb) && !(bin === 'bun' && verb === 'test')) {
    const full = verb === 't' || verb === 'tst' ? 'test' : verb;
    return scripts(verb === 'restart' ? [...withHooks('restart', hooks), ...withHooks('stop', hooks), ...withHooks('start', hooks)] : withHooks(full, hooks));
  }
  if (['run', 'run-script', 'rum', 'urn'].includes(verb)) {
    const runArgs = restWords;
    // `bun run --filter x build`, `pnpm run -r build`: options after run select packages too.
    const after = invocation(runArgs, w, bin);
    if (after === null) return;
    inv.recursive ||= after.recursive;
    inv.allWorkspaces ||= after.allWorkspaces;
    inv.ignoreScripts ||= after.ignoreScripts;
    inv.filters.push(...after.filters);
    const script = after.words[0];
    if (!script) return;
    if (script.dynamic) return w.unjudged(`${what}: a script name computed at run time`);
    return runOrProgram(bin, script, after.words.slice(1), w, opts, inv, what, hooks, cmd);
  }
  if (bin === 'yarn' && verb === 'workspace') {
    // `yarn workspace NAME CMD…`: the command in one member.
    const member = restWords[0];
    const inner = restWords.slice(1);
    if (!member || inner.length === 0) return;
    return forMembers(w, inv, [member.text], what, bin, (pkg) => w.inDir(pkg.dir, () => packageManager('yarn', inner, w, opts, cmd)));
  }
  if (bin === 'yarn' && verb === 'workspaces') {
    const [sub, ...more] = restWords;
    if (sub?.text === 'foreach') {
      const inner = yarnForeachCommand(more);
      return forMembers(w, inv, [], what, bin, (pkg) => w.inDir(pkg.dir, () => packageManager('yarn', inner, w, opts, cmd)));
    }
    if (sub?.text === 'run' && more[0]) return forMembers(w, inv, [], what, bin, (pkg) => runScripts(w, pkg, withHooks(more[0]!.text, hooks), what));
    return;
  }
  if (bin === 'yarn' && verb === 'npm') return; // `yarn npm publish` and the like: the catalog judges them
  if (INSTALL_VERBS.has(verb) || verb === '') {
    if (verb === '' && bin === 'npm') return;
    if (hooks) scripts(verb === 'publish' ? PUBLISH_SCRIPTS : verb === 'pack' ? PACK_SCRIPTS : INSTALL_SCRIPTS);
    return;
  }
  if (verb === 'pkg' && name === 'set') {
    w.noteWrite(lit('package.json'));
    for (const p of rest.slice(1)) {
      const eq = p.text.indexOf('=');
      if (/^scripts\./.test(p.text) && eq > 0) w.script(p.text.slice(eq + 1), p.dynamic, 'npm pkg set writes a script');
    }
    return;
  }
  if (verb === 'config' && rest.some((p) => /script-shell|node-options|onload-script/.test(p.text))) return w.unjudged(`${what}: scripts would run through code the guard cannot see`);
  if (bin === 'bun' && verb === 'test') return;
  if (bin !== 'npm' && verbWord && !BUILTIN[bin].has(verb)) return runOrProgram(bin, verbWord, restWords, w, opts, inv, what, hooks, cmd);
}

/** `yarn workspaces foreach [options] [run] CMD…`: the command after its options. */
function yarnForeachCommand(words: Word[]): Word[] {
  const valued = new Set(['--include', '--exclude', '--from', '-j', '--jobs', '--since']);
  let i = 0;
  for (; i < words.length && words[i]!.text.startsWith('-'); i++) if (valued.has(words[i]!.text)) i++;
  return words.slice(i);
}

/** Runs `fn` in each member a selector picks (every member without one). */
function forMembers(w: Walk, inv: Invocation, selectors: string[], what: string, bin: string, fn: (pkg: Package) => void): void {
  const dirs = here(w, what, inv.prefix);
  if (dirs === null) return;
  for (const dir of dirs) {
    const root = workspaceRoot(w, dir);
    if (!root) continue;
    for (const pkg of select(members(w, root), root.dir, [...selectors, ...inv.filters])) fn(pkg);
  }
  void bin;
}

/**
 * `yarn X`, `pnpm X`, `bun run X`: the script X when the package has one; else (yarn, pnpm)
 * the program X that the package's dependencies provide, or (bun) the file X.
 */
function runOrProgram(bin: string, script: Word, rest: Word[], w: Walk, opts: ArgvOptions, inv: Invocation, what: string, hooks: boolean, cmd?: SimpleCommand): void {
  const pkgs = targets(w, inv, what, bin);
  const withScript = pkgs.filter((p) => typeof p.scripts[script.text] === 'string');
  // npm passes what follows `--`; yarn, pnpm and bun what follows the name.
  const dash = rest.findIndex((r) => r.text === '--');
  const forwarded = bin === 'npm' ? (dash >= 0 ? rest.slice(dash + 1) : []) : rest.filter((r, i) => !(i === dash && r.text === '--'));
  for (const pkg of withScript) runScripts(w, pkg, withHooks(script.text, hooks), what, forwarded, script.text);
  if (withScript.length > 0 || bin === 'npm') return;
  // bun runs a file by that name; yarn and pnpm a program the dependencies provide.
  if (bin === 'bun' && /[./]/.test(script.text)) return w.runFile(script, `bun run ${script.text}`, 'code');
  w.argv([script, ...rest], opts, cmd);
}

/** `npx X`, `npm exec X`, `pnpm dlx X`, `yarn dlx X`, `bunx X`: the program X (a package name names its program). */
function execPackage(bin: string, words: Word[], w: Walk, opts: ArgvOptions, inv: Invocation, what: string): void {
  // `-c`/`--call` among exec's own options (before the program): a script to run.
  const program0 = words.findIndex((a) => !a.text.startsWith('-'));
  const call = words.findIndex((a, k) => (program0 < 0 || k < program0) && (a.text === '-c' || a.text === '--call' || a.text.startsWith('--call=')));
  if (call >= 0) {
    const c = words[call] as Word;
    const text = c.text.startsWith('--call=') ? { ...c, text: c.text.slice(7) } : words[call + 1];
    if (text) w.script(text.text, text.dynamic, `${bin} exec -c runs a script`);
    return;
  }
  let i = 0;
  for (; i < words.length; i++) {
    const t = words[i]!.text;
    if (t === '--') {
      i++;
      break;
    }
    if (!t.startsWith('-')) break;
    if (['-p', '--package', '--registry', '--cache', '--userconfig'].includes(t)) i++;
  }
  const program = words[i];
  if (!program) return;
  if (program.dynamic) return w.unjudged(`${what}: a package computed at run time`);
  // A package spec names its program: `semantic-release@23` → semantic-release, `@changesets/cli` → changeset.
  const spec = program.text.replace(/(?!^)@[^/@]*$/, '');
  const name = Object.hasOwn(PACKAGE_PROGRAMS, spec) ? (PACKAGE_PROGRAMS[spec] as string) : spec.replace(/^@[^/]+\//, '');
  const argv = [{ ...program, text: name }, ...words.slice(i + 1)];
  if (!inCatalog(name) && namedForShipping(spec)) w.add({ lock: 'publish', what: `runs ${spec} from the registry, a package named for releasing, publishing or deploying`, instead: 'nothing: the user releases after the run' });
  if (inv.recursive || inv.filters.length > 0) {
    // `pnpm -r exec CMD`: in every member.
    for (const pkg of targets(w, inv, what, bin)) w.inDir(pkg.dir, () => w.argv(argv, opts));
    return;
  }
  w.argv(argv, opts);
}

/** `node --run X`: the script alone (no pre/post). */
export function nodeRun(name: Word, w: Walk): void {
  if (name.dynamic) return w.unjudged('node --run with a script name computed at run time');
  const dirs = here(w, `node --run ${name.text}`);
  for (const dir of dirs ?? []) {
    const pkg = nearestPackage(w, dir);
    if (pkg) runScripts(w, pkg, [name.text], `node --run ${name.text}`);
  }
}

/** `deno task X`: deno.json(c) tasks, else package.json scripts. */
export function denoTask(name: Word | undefined, w: Walk): void {
  if (!name) return;
  if (name.dynamic) return w.unjudged('deno task with a task name computed at run time');
  for (const dir of here(w, `deno task ${name.text}`) ?? []) {
    for (let d = dir; ; d = dirname(d)) {
      for (const file of ['deno.json', 'deno.jsonc']) {
        const text = w.readConfig(join(d, file));
        if (text === null) continue;
        let tasks: Record<string, unknown> = {};
        try {
          tasks = ((JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as { tasks?: Record<string, unknown> }).tasks ?? {}) as Record<string, unknown>;
        } catch {
          w.unjudged(`${w.label(join(d, file))} does not parse, so the guard cannot tell which task runs`);
          return;
        }
        const task = tasks[name.text];
        const body = typeof task === 'string' ? task : task !== null && typeof task === 'object' ? (task as { command?: unknown }).command : undefined;
        if (typeof body === 'string') w.inDir(d, () => w.script(body, false, `deno task ${name.text}`, { file: `${w.label(join(d, file))} task "${name.text}"` }));
        return;
      }
      const pkg = readPackage(w, d);
      if (pkg && pkg !== 'bad') {
        runScripts(w, pkg, [name.text], `deno task ${name.text}`);
        return;
      }
      if (dirname(d) === d) return;
    }
  }
}

/** turbo, nx, lerna: tasks run in every workspace member (over-approximating their filters and graphs). */
export function monorepo(tool: 'turbo' | 'nx' | 'lerna', args: Word[], w: Walk, opts: ArgvOptions): void {
  const words = args.map((a) => a.text);
  const positional = words.filter((t) => !t.startsWith('-'));
  let tasks: string[] = [];
  let projects: string[] = [];
  const valueOf = (...names: string[]) => {
    const out: string[] = [];
    words.forEach((t, i) => {
      for (const n of names) {
        if (t === n && words[i + 1]) out.push(...(words[i + 1] as string).split(','));
        else if (t.startsWith(`${n}=`)) out.push(...t.slice(n.length + 1).split(','));
      }
    });
    return out;
  };
  if (tool === 'turbo') {
    const commands = new Set(['prune', 'gen', 'generate', 'login', 'logout', 'link', 'unlink', 'daemon', 'ls', 'query', 'info', 'telemetry', 'scan', 'boundaries', 'devtools', 'docs', 'completion', 'bin', 'config']);
    if (commands.has(positional[0] ?? '')) return;
    tasks = positional[0] === 'run' || positional[0] === 'watch' ? positional.slice(1) : positional;
    projects = valueOf('--filter', '-F');
    tasks = tasks.filter((t) => !projects.includes(t));
  } else if (tool === 'nx') {
    const [verb, target, project] = positional;
    if (verb === 'run-many' || verb === 'affected') tasks = valueOf('-t', '--target', '--targets');
    else if (verb === 'run' && target) {
      const [p, t] = target.split(':');
      projects = [p as string];
      tasks = t ? [t] : [];
    } else if (verb && target && !['graph', 'show', 'list', 'report', 'reset', 'migrate', 'init', 'add', 'generate', 'g', 'format', 'format:check', 'format:write', 'daemon', 'watch', 'release', 'connect', 'view-logs', 'sync', 'repair'].includes(verb)) {
      tasks = [verb];
      projects = [target];
      void project;
    } else if (verb && !target && verb.includes(':')) {
      const [p, t] = verb.split(':');
      projects = [p as string];
      tasks = t ? [t] : [];
    }
    if (verb === 'release') {
      w.add({ lock: 'publish', what: 'nx release versions, tags, and publishes the packages', instead: 'nothing: the user releases after the run' });
      return;
    }
    projects.push(...valueOf('-p', '--projects'));
  } else {
    const [verb, ...rest] = positional;
    if (verb === 'run') tasks = rest.slice(0, 1);
    else if (verb === 'exec') {
      const dash = args.findIndex((a) => a.text === '--');
      const inner = dash >= 0 ? args.slice(dash + 1) : args.slice(1).filter((a) => !a.text.startsWith('-'));
      for (const dir of here(w, `lerna exec`) ?? []) {
        const root = workspaceRoot(w, dir);
        for (const pkg of root ? members(w, root) : []) w.inDir(pkg.dir, () => w.argv(inner, opts));
      }
      return;
    }
  }
  if (tasks.length === 0) return;
  const what = `${tool} ${words.join(' ')}`.slice(0, 80);
  for (const dir of here(w, what) ?? []) {
    const root = workspaceRoot(w, dir) ?? { dir, patterns: [] };
    const all = members(w, root);
    const rootPkg = readPackage(w, root.dir);
    const pkgs = select(rootPkg && rootPkg !== 'bad' && tool !== 'lerna' ? [...all, rootPkg] : all, root.dir, projects);
    for (const pkg of pkgs) {
      runScripts(w, pkg, tasks, what);
      if (tool === 'nx') nxTargets(w, pkg, tasks, what);
    }
  }
}

/** nx `project.json` targets that run commands (`nx:run-commands`). */
function nxTargets(w: Walk, pkg: Package, tasks: string[], what: string): void {
  const path = join(pkg.dir, 'project.json');
  const text = w.readConfig(path);
  if (text === null) return;
  let targets: Record<string, { options?: { command?: unknown; commands?: unknown } }> = {};
  try {
    targets = (JSON.parse(text) as { targets?: typeof targets }).targets ?? {};
  } catch {
    return;
  }
  for (const task of tasks) {
    const options = targets[task]?.options;
    const list = [options?.command, ...(Array.isArray(options?.commands) ? options.commands : [])].map((c) => (typeof c === 'string' ? c : c !== null && typeof c === 'object' ? (c as { command?: unknown }).command : undefined)).filter((c): c is string => typeof c === 'string');
    for (const command of list) w.inDir(pkg.dir, () => w.script(command, false, what, { file: `${w.label(path)} target "${task}"` }));
  }
}

/** npm-run-all's script patterns: `build:*` (one level), `build:**` (all below), other globs on the whole name. */
function scriptMatches(pattern: string, name: string): boolean {
  if (pattern === name) return true;
  if (pattern.endsWith(':**')) return name.startsWith(pattern.slice(0, -2));
  if (pattern.endsWith(':*')) return name.startsWith(pattern.slice(0, -1)) && !name.slice(pattern.length - 1).includes(':');
  return /[*?[]/.test(pattern) && globMatch(pattern, name);
}

/** npm-run-all / run-s / run-p: package scripts by name (`build:*` globs); concurrently: commands, `npm:X` scripts. */
export function scriptRunners(tool: string, args: Word[], w: Walk): void {
  const what = `${tool} ${args.map((a) => a.text).join(' ')}`.slice(0, 80);
  const valued = new Set(['--max-parallel', '-n', '--names', '-c', '--prefix-colors', '-p', '--prefix', '--kill-others-on-fail', '--restart-tries', '--restart-after', '--timings', '-l', '--prefix-length', '-t', '--timestamp-format', '--handle-input', '--default-input-target', '-P', '--passthrough-arguments', '--npm-path']);
  const positional: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Word;
    if (a.text === '--') break;
    if (a.text.startsWith('-')) {
      if (valued.has(a.text)) i++;
      continue;
    }
    positional.push(a);
  }
  const dirs = here(w, what);
  if (dirs === null) return;
  for (const dir of dirs) {
    const pkg = nearestPackage(w, dir);
    const scriptsMatching = (pattern: string) => (pkg ? Object.keys(pkg.scripts).filter((n) => scriptMatches(pattern, n)) : []);
    for (const p of positional) {
      if (p.dynamic) {
        w.unjudged(`${what}: a script or command computed at run time`);
        continue;
      }
      if (tool === 'concurrently') {
        const npmScript = /^(npm|yarn|pnpm|bun):(.+)$/.exec(p.text);
        if (npmScript && pkg) runScripts(w, pkg, scriptsMatching(npmScript[2] as string), what);
        else if (!npmScript) w.script(p.text, false, `${tool} runs a command`);
      } else if (pkg) runScripts(w, pkg, scriptsMatching(p.text), what);
    }
  }
}

import { join, resolve } from 'node:path';
import type { SimpleCommand, Word } from '../shell/types.js';
import type { Walk } from './command.js';
import { reachableCode } from './javascript.js';
import { denoTask, nodeRun, packageManager } from './packages.js';
import { namedForShipping } from './publish.js';
import { noxRunner, toxRunner } from './taskrunners.js';
import type { ArgvOptions } from './walk-api.js';

// Interpreters: inline code (`-c`, `-e`, `-p`, `-r`), code on stdin and script files go
// through the walk's code net; options are read the way each interpreter reads them, so
// that a test runner, a version flag or a syntax check never counts as "reads its program
// from stdin", and a script name resolves the way the interpreter resolves it (`node
// Makefile` runs Makefile.js).

const lit = (text: string): Word => ({ text, dynamic: false, quoted: true, glob: false });

/** Flags whose next word is inline code. */
const CODE_FLAGS: Record<string, string[]> = {
  python: ['-c'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  expect: ['-c'],
  tclsh: [],
  lua: ['-e'],
  osascript: ['-e'],
  pwsh: ['-c', '-Command', '-EncodedCommand'],
  Rscript: ['-e'],
  julia: ['-e', '--eval'],
};
/** Interpreters where `…` runs a shell command. */
const BACKTICKS_RUN = new Set(['perl', 'ruby', 'php']);
/** Flags that take the next word as a value (not a script). */
const VALUE_FLAGS: Record<string, Set<string>> = {
  python: new Set(['-W', '-X', '--check-hash-based-pycs']),
  perl: new Set(['-I', '-M', '-m', '-x']),
  ruby: new Set(['-I', '-r', '-C', '-E', '-F']),
  php: new Set(['-c', '-d', '-z']),
};
const VERSION_FLAGS = new Set(['--version', '-v', '-V', '--help', '-h', '-?', '--v8-options']);

/**
 * A script file the interpreter runs, judged as a file: `candidates` lists the names it
 * tries; `reach` keeps the part of the code that runs (JavaScript: javascript.ts).
 */
function scriptFile(w: Walk, word: Word, what: string, candidates: (path: string) => string[], reach: (code: string) => string = (code) => code): void {
  if (word.dynamic || word.glob || word.text === '' || w.cwds.unknown) return w.runFile(word, what, 'code');
  const base = word.text.startsWith('~/') ? join(w.cwds.home, word.text.slice(2)) : word.text;
  for (const dir of w.cwds.dirs) {
    const path = resolve(dir, base);
    const found = candidates(path).find((p) => w.ctx.readFile !== undefined && w.ctx.readFile(p) !== null);
    if (found === undefined) {
      w.runFile(word, what, 'code'); // missing: the walk says so (unknown)
      continue;
    }
    if (/\.(json|node|wasm)$/.test(found)) continue; // data or a native addon: no code to read
    for (const file of w.readFiles(lit(found), what) ?? []) {
      const label = w.label(file.path);
      const code = reach(file.text);
      w.inFile(label, code, true, () => w.codeNet(code, label));
    }
  }
}

/** How node resolves a main script: the name, then `.js`, `.mjs`, `.cjs`, `.json`, then a directory's package.json `main` or index file. */
function nodeCandidates(w: Walk, path: string): string[] {
  const list = [path, `${path}.js`, `${path}.mjs`, `${path}.cjs`, `${path}.json`];
  const pkg = w.ctx.readFile?.(join(path, 'package.json')) ?? null;
  if (pkg !== null) {
    try {
      const main = (JSON.parse(pkg) as { main?: unknown }).main;
      if (typeof main === 'string') list.push(resolve(path, main), `${resolve(path, main)}.js`);
    } catch {
      // not JSON: node would fail too
    }
  }
  list.push(join(path, 'index.js'), join(path, 'index.mjs'), join(path, 'index.cjs'));
  return list;
}

const NODE_VALUED = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--input-type', '--env-file', '--env-file-if-exists', '--inspect-port', '--debug-port', '--title', '--test-reporter', '--test-reporter-destination', '--test-name-pattern', '--test-skip-pattern', '--test-concurrency', '--test-timeout', '--test-shard', '--test-coverage-include', '--test-coverage-exclude', '--test-coverage-branches', '--test-coverage-functions', '--test-coverage-lines', '--test-global-setup', '--test-isolation', '--watch-path', '--disable-warning', '--redirect-warnings', '--report-dir', '--report-directory', '--report-filename', '--diagnostic-dir', '--heapsnapshot-signal', '--icu-data-dir', '--openssl-config', '--localstorage-file', '--stack-trace-limit', '--unhandled-rejections', '--max-http-header-size', '--secure-heap', '--secure-heap-min', '--cpu-prof-dir', '--heap-prof-dir', '--run']);

/** node: `-e`/`-p` code, `--test` (the test runner: never stdin), `--run` (a package script), `-c` (a syntax check), a script resolved as node does. */
function node(args: Word[], w: Walk, cmd?: SimpleCommand): void {
  let test = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Word;
    const t = a.text;
    if (a.dynamic && t.startsWith('-')) return w.unjudged('node with options computed at run time');
    const eq = t.indexOf('=');
    const name = t.startsWith('--') && eq > 0 ? t.slice(0, eq) : t;
    const value = t.startsWith('--') && eq > 0 ? { ...a, text: t.slice(eq + 1) } : args[i + 1];
    if (name === '-e' || name === '--eval' || name === '-p' || name === '--print' || /^-[a-z]*[ep]$/.test(t) && !t.startsWith('--') && t.length > 2) {
      if (!value) return;
      if (value.dynamic) return w.unjudged('node runs code computed at run time');
      w.codeNet(value.text, 'node inline code');
      w.writesUnknown();
      return;
    }
    if (name === '--run') {
      if (value) nodeRun(value, w);
      return;
    }
    if (name === '-c' || name === '--check' || VERSION_FLAGS.has(name)) return;
    if (name === '--test') {
      test = true;
      continue;
    }
    if (name === '-') return w.shellStdin('node', cmd, (text) => w.codeNet(text, 'node code on stdin'));
    if (name === '-i' || name === '--interactive') return w.shellStdin('node', cmd, (text) => w.codeNet(text, 'node code on stdin'));
    if (t.startsWith('-')) {
      if (NODE_VALUED.has(name) && eq < 0) {
        const mod = args[i + 1];
        // A preloaded module the agent may have written is read like a script.
        if (mod && ['-r', '--require', '--import', '--loader', '--experimental-loader'].includes(name) && /^[./~]/.test(mod.text)) scriptFile(w, mod, `node ${name} ${mod.text}`, (p) => nodeCandidates(w, p));
        i++;
      }
      continue;
    }
    if (test) {
      // The test runner: files, directories or globs; it never reads stdin. Files that exist are read.
      for (const f of args.slice(i)) {
        if (f.dynamic || f.glob || f.text.startsWith('-')) continue;
        for (const dir of w.cwds.unknown ? [] : w.cwds.dirs) {
          const path = resolve(dir, f.text);
          if (w.ctx.readFile?.(path) != null) w.runFile(lit(path), `node --test ${f.text}`, 'code');
        }
      }
      return;
    }
    if (/(^|\/)leopold(\.[cm]?js)?$/.test(t)) return w.leopold(args.slice(i + 1), args.slice(i));
    const scriptArgs = args.slice(i + 1).map((x) => x.text);
    scriptFile(w, a, `node ${t}`, (p) => nodeCandidates(w, p), (code) => reachableCode(code, scriptArgs));
    return;
  }
  // No script: the test runner finds its own files; anything else reads its program from stdin.
  if (!test) w.shellStdin('node', cmd, (text) => w.codeNet(text, 'node code on stdin'));
}

const DENO_VALUED = new Set(['-c', '--config', '--import-map', '--env-file', '--location', '--seed', '-L', '--log-level', '--cert', '--lock', '--inspect', '--inspect-brk', '--inspect-wait', '--reload', '-r', '--filter', '--reporter', '--coverage', '--shuffle', '--ext', '--node-modules-dir', '--vendor', '--preload', '--unstable-sloppy-imports', '-o', '--output', '-n', '--name', '--root', '-f', '--frozen', '--permit-no-files', '--junit-path', '--cwd']);
/** deno subcommands that run no script of the project and read no stdin (publish: the catalog). */
const DENO_TOOLS = new Set(['test', 'bench', 'fmt', 'lint', 'check', 'doc', 'info', 'cache', 'install', 'i', 'uninstall', 'compile', 'bundle', 'coverage', 'types', 'upgrade', 'init', 'add', 'remove', 'outdated', 'clean', 'jupyter', 'lsp', 'vendor', 'completions', 'publish', 'approve-scripts', 'update', 'deploy']);

/** deno: subcommands (`deno task X`, `deno test`, `deno install` are not scripts), `run`/`serve` FILE, `eval` CODE, `x` PACKAGE. */
function deno(args: Word[], w: Walk, opts: ArgvOptions, cmd?: SimpleCommand): void {
  const positional: { word: Word; at: number }[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Word;
    if (a.text.startsWith('-')) {
      if (VERSION_FLAGS.has(a.text) && positional.length === 0) return;
      if (DENO_VALUED.has(a.text)) i++;
      continue;
    }
    positional.push({ word: a, at: i });
    if (positional.length === 2) break;
  }
  const [first, second] = positional;
  if (!first) return w.shellStdin('deno', cmd, (text) => w.codeNet(text, 'deno code on stdin'));
  if (first.word.dynamic) return w.unjudged('deno with a subcommand computed at run time');
  const sub = first.word.text;
  if (sub === 'task') return denoTask(second?.word, w);
  if (sub === 'eval') {
    if (!second) return;
    if (second.word.dynamic) return w.unjudged('deno runs code computed at run time');
    return w.codeNet(second.word.text, 'deno inline code');
  }
  if (sub === 'x') return w.argv(args.slice(first.at + 1).filter((a) => !a.text.startsWith('-')), opts);
  if (DENO_TOOLS.has(sub) || sub === 'repl') return;
  const script = sub === 'run' || sub === 'serve' ? second?.word : first.word;
  // `deno NAME` runs the task NAME when no file has that name (deno 2).
  if (script === first.word && !script.dynamic && !/[./]/.test(script.text)) return denoTask(script, w);
  if (!script) return w.shellStdin('deno', cmd, (text) => w.codeNet(text, 'deno code on stdin'));
  if (/^(https?|npm|jsr):/.test(script.text)) {
    // A remote module: code the guard cannot read; judged by its name.
    if (namedForShipping(script.text)) w.add({ lock: 'publish', what: `runs ${script.text}, a module named for releasing, publishing or deploying`, instead: 'nothing: the user releases after the run' });
    return;
  }
  scriptFile(w, script, `deno ${script.text}`, (p) => [p]);
}

/** bun as a runtime and a package manager: `bun -e CODE`, `bun FILE`, `bun run X`, `bun test`, `bun install`. */
function bun(args: Word[], w: Walk, opts: ArgvOptions, cmd?: SimpleCommand): void {
  const first = args[0];
  if (first && ['-e', '--eval', '-p', '--print'].includes(first.text)) {
    const code = args[1];
    if (!code) return;
    if (code.dynamic) return w.unjudged('bun runs code computed at run time');
    return w.codeNet(code.text, 'bun inline code');
  }
  if (first && VERSION_FLAGS.has(first.text)) return;
  packageManager('bun', args, w, opts, cmd);
}

/** python: `-c` code, `-m` a module (a publishing module is judged by the catalog), a script, or stdin. */
function python(args: Word[], w: Walk, cmd?: SimpleCommand): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Word;
    const t = a.text;
    if (a.dynamic) return w.unjudged('python with code or arguments computed at run time');
    if (t === '-c' || (t.startsWith('-c') && !t.startsWith('--'))) {
      const body = t === '-c' ? args[i + 1] : { ...a, text: t.slice(2) };
      if (!body) return;
      if (body.dynamic) return w.unjudged('python runs code computed at run time');
      w.codeNet(body.text, 'python inline code');
      w.writesUnknown();
      return;
    }
    if (t === '-m' || (t.startsWith('-m') && !t.startsWith('--') && t.length > 2)) {
      const module = t === '-m' ? args[i + 1] : { ...a, text: t.slice(2) };
      const rest = args.slice(t === '-m' ? i + 2 : i + 1);
      if (module?.text === 'nox') return noxRunner(rest, w);
      if (module?.text === 'tox') return toxRunner(rest, w);
      if (module) w.ship(module.text, rest);
      return; // an installed module
    }
    if (t === '-') return w.shellStdin('python', cmd, (text) => w.codeNet(text, 'python code on stdin'));
    if (t.startsWith('-')) {
      if (VERSION_FLAGS.has(t)) return;
      if (VALUE_FLAGS.python?.has(t)) i++;
      continue;
    }
    scriptFile(w, a, `python ${t}`, (p) => [p, join(p, '__main__.py')]);
    return;
  }
  w.shellStdin('python', cmd, (text) => w.codeNet(text, 'python code on stdin'));
}

/** perl, ruby, php, lua and the rest: inline code, a script file, or stdin. */
function interpreter(family: string, args: Word[], w: Walk, cmd?: SimpleCommand): void {
  const flags = Object.hasOwn(CODE_FLAGS, family) ? (CODE_FLAGS[family] as string[]) : [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Word;
    if (a.dynamic) return w.unjudged(`${family} with code or arguments computed at run time`);
    const t = a.text;
    const code = flags.find((f) => t === f || (f.length === 2 && t.startsWith(f) && !t.startsWith('--'))) ?? (/^-[a-zA-Z]*e$/.test(t) && (family === 'perl' || family === 'ruby') ? t : undefined);
    if (code !== undefined) {
      const body = t === code ? args[i + 1] : { ...a, text: t.slice(code.length) };
      if (!body) return;
      if (body.dynamic) return w.unjudged(`${family} runs code computed at run time`);
      w.codeNet(body.text, `${family} inline code`, BACKTICKS_RUN.has(family));
      w.writesUnknown();
      return;
    }
    if (t === '-') return w.shellStdin(family, cmd, (text) => w.codeNet(text, `${family} code on stdin`));
    if (t.startsWith('-')) {
      if (VERSION_FLAGS.has(t) || (family === 'perl' && /^-[a-zA-Z]*c$/.test(t))) return;
      if (Object.hasOwn(VALUE_FLAGS, family) && VALUE_FLAGS[family]?.has(t)) i++;
      continue;
    }
    if (/(^|\/)leopold(\.[cm]?js)?$/.test(t)) return w.leopold(args.slice(i + 1), args.slice(i));
    w.runFile(a, `${family} ${t}`, 'code');
    return;
  }
  // No code and no script: the interpreter reads its program from stdin.
  w.shellStdin(family, cmd, (text) => w.codeNet(text, `${family} code on stdin`));
}

const family = (base: string) => base.replace(/[0-9.]+$/, '').replace(/^nodejs$/, 'node');

type Runner = (args: Word[], w: Walk, opts: ArgvOptions, cmd?: SimpleCommand) => void;

/** The interpreters, by program name. */
export const INTERPRETERS: Record<string, Runner> = {
  node: (a, w, _o, c) => node(a, w, c),
  nodejs: (a, w, _o, c) => node(a, w, c),
  // Runners of TypeScript and modern JavaScript files: a script file as node would run it.
  ...Object.fromEntries(['tsx', 'ts-node', 'ts-node-esm', 'esno', 'esrun', 'jiti', 'vite-node', 'babel-node', 'sucrase-node', 'swc-node'].map((b) => [b, ((a, w, _o, c) => node(a.filter((x) => x.text !== 'watch'), w, c)) as Runner])),
  deno: (a, w, o, c) => deno(a, w, o, c),
  bun: (a, w, o, c) => bun(a, w, o, c),
  python: (a, w, _o, c) => python(a, w, c),
  python2: (a, w, _o, c) => python(a, w, c),
  python3: (a, w, _o, c) => python(a, w, c),
  perl: (a, w, _o, c) => {
    if (a.some((x) => /^-[a-zA-Z]*i/.test(x.text))) w.overwrite(a.filter((x) => !x.text.startsWith('-')).slice(1), 'perl -i');
    interpreter('perl', a, w, c);
  },
  ...Object.fromEntries(['ruby', 'php', 'osascript', 'tclsh', 'lua', 'pwsh', 'powershell', 'expect', 'wish', 'Rscript', 'julia'].map((b) => [b, ((a, w, _o, c) => interpreter(family(b), a, w, c)) as Runner])),
};

import type { SimpleCommand, Word } from '../shell/types.js';
import type { Walk } from './command.js';
import { INTERPRETERS } from './interpreters.js';
import { make } from './make.js';
import { monorepo, packageManager, scriptRunners } from './packages.js';
import { noxRunner, rakeRunner, taskRunner, toxRunner } from './taskrunners.js';
import type { ArgvOptions } from './walk-api.js';

// Programs that run other programs or code given to them: package managers' scripts
// (packages.ts), make (make.ts), interpreters (interpreters.ts), `uv run`-style runners,
// tmux/screen, gdb, tar/sed/awk/ed/vim exec features, socat. Each is judged by what it
// would run: a literal script is walked like the command line, code the guard cannot run
// goes through the code net (Walk.codeNet), and anything computed is unknown.

type Runner = (args: Word[], w: Walk, opts: ArgvOptions, cmd?: SimpleCommand) => void;

const lit = (text: string): Word => ({ text, dynamic: false, quoted: true, glob: false });
const joined = (words: Word[]) => ({ text: words.map((x) => x.text).join(' '), dynamic: words.some((x) => x.dynamic) });

/** awk: `system()`, pipes to commands and output redirections in the program. */
function awk(args: Word[], w: Walk): void {
  let program: Word | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Word;
    if (a.text === '-f' || a.text === '--file') {
      const f = args[++i];
      if (f) w.runFile(f, `awk -f ${f.text}`, 'code');
      program = lit('');
      continue;
    }
    if (['-F', '-v', '--assign', '--field-separator'].includes(a.text)) {
      i++;
      continue;
    }
    if (a.text.startsWith('-') && a.text.length > 1 && program === undefined) continue;
    if (program === undefined) {
      program = a;
      break;
    }
  }
  if (!program) return;
  if (program.dynamic) return w.unjudged('awk runs a program computed at run time');
  const text = program.text;
  if (/\bsystem\s*\(|\|\s*(getline|")|"\s*\||\|&|\bprint[f]?\b[^;}]*>/.test(text)) {
    w.codeNet(text, 'awk program');
    const calls = [...text.matchAll(/\bsystem\s*\(\s*([^)]*)\)|"([^"]*)"\s*\|(?!\|)|\|\s*"([^"]*)"/g)];
    for (const m of calls) {
      const arg = m[1] ?? m[2] ?? m[3] ?? '';
      const literal = /^\s*"([^"]*)"\s*$/.exec(arg);
      if (m[1] !== undefined && !literal) w.unjudged('awk system() runs a command assembled at run time; write it out literally');
      else w.script(literal ? (literal[1] as string) : arg, false);
    }
    for (const m of text.matchAll(/>>?\s*"([^"]*)"/g)) w.overwrite([lit(m[1] as string)], 'awk output redirection');
    if (/>>?\s*[^"\s]/.test(text.replace(/[<>=!]=|>\s*\d/g, ''))) w.writesUnknown();
  }
}

/** sed: the `e` command and the `e` flag of `s` run the shell; `w` writes files. */
function sed(args: Word[], w: Walk): void {
  const scripts: Word[] = [];
  let sawScript = false;
  const operands: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Word;
    if (a.text === '-e' || a.text === '--expression') {
      scripts.push(args[++i] ?? lit(''));
      sawScript = true;
    } else if (a.text.startsWith('--expression=')) {
      scripts.push({ ...a, text: a.text.slice(13) });
      sawScript = true;
    } else if (a.text === '-f' || a.text === '--file') {
      const f = args[++i];
      if (f) {
        const texts = w.readAll(f, `sed -f ${f.text}`);
        for (const t of texts ?? []) scripts.push(lit(t));
      }
      sawScript = true;
    } else if (a.text.startsWith('-') && a.text.length > 1 && !a.text.startsWith('-i') && !a.text.startsWith('--in-place')) {
      if (['-l', '--line-length'].includes(a.text)) i++;
      if (/^-[a-zA-Z]*e$/.test(a.text)) {
        scripts.push(args[++i] ?? lit(''));
        sawScript = true;
      }
    } else if (a.text.startsWith('-i') || a.text.startsWith('--in-place')) {
      /* in place: operands are written */
    } else if (!sawScript && scripts.length === 0) {
      scripts.push(a);
      sawScript = true;
    } else operands.push(a);
  }
  if (args.some((a) => /^-[a-zA-Z]*i|^--in-place/.test(a.text) && !a.dynamic)) w.overwrite(operands, `sed -i ${operands.map((o) => o.text).join(' ')}`.slice(0, 80));
  for (const s of scripts) {
    if (s.dynamic) {
      // `sed "s/$from/$to/"` in a file the guard reads: a substitution (its computed part is
      // most likely the pattern or replacement) is judged by its known text; on the command
      // line without the OS layer a computed part could be an `e` flag, so it stays unknown.
      if (!w.strict && /^\s*(?:\d+|\$|\/[^/]*\/)?\s*s([^\w\s\\])/.test(s.text) && /^[^;\n]*$/.test(s.text)) sedScript(s.text, w);
      else w.unjudged('sed runs a script computed at run time');
      continue;
    }
    sedScript(s.text, w);
  }
}

/** Scans a sed script for `e` (run), `s///e` and `w`/`W` (write). */
function sedScript(text: string, w: Walk): void {
  let i = 0;
  const n = text.length;
  const rest = () => {
    let end = text.indexOf('\n', i);
    if (end < 0) end = n;
    const r = text.slice(i, end).trim();
    i = end;
    return r;
  };
  while (i < n) {
    w.budget.spend();
    const c = text[i] as string;
    if (/[\s;{}!]/.test(c)) {
      i++;
      continue;
    }
    if (/[0-9$,~+]/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' || c === '\\') {
      // An address regex: skip to its closing delimiter.
      const delim = c === '\\' ? (text[++i] as string) : '/';
      for (i++; i < n && text[i] !== delim; i++) if (text[i] === '\\') i++;
      i++;
      if (/[IM]/.test(text[i] ?? '')) i++;
      continue;
    }
    i++;
    if (c === 'e') {
      const cmd = rest();
      if (cmd === '') w.unjudged('sed e runs the pattern space as a shell command (computed at run time)');
      else w.script(cmd, false);
    } else if (c === 'w' || c === 'W') w.overwrite([lit(rest())], 'sed w');
    else if (c === 'r' || c === 'R' || c === 'a' || c === 'i' || c === 'c' || c === ':' || c === 'b' || c === 't' || c === 'T' || c === 'q' || c === 'Q' || c === 'l' || c === 'L') {
      while (i < n && text[i] !== '\n' && text[i] !== ';') i++;
    } else if (c === 's' || c === 'y') {
      const delim = text[i] as string;
      let parts = 0;
      for (i++; i < n && parts < 2; i++) {
        if (text[i] === '\\') i++;
        else if (text[i] === delim) parts++;
      }
      if (c === 's') {
        let flags = '';
        while (i < n && /[gpiImMe0-9w]/.test(text[i] as string)) {
          const f = text[i++] as string;
          if (f === 'w') {
            w.overwrite([lit(rest())], 'sed s///w');
            break;
          }
          flags += f;
        }
        if (flags.includes('e')) w.unjudged('sed s///e runs the substituted text as a shell command (computed at run time)');
      }
    }
  }
}

/** ed/ex: `!cmd`, `w !cmd`, `r !cmd`, `e !cmd` run the shell; `w file` writes. */
function edCommands(text: string, w: Walk, base: string): void {
  for (const raw of text.split('\n')) {
    w.budget.spend();
    const line = raw.replace(/^\s*:?\s*/, '');
    const bang = line.indexOf('!');
    if (bang >= 0) {
      const cmd = line.slice(bang + 1).trim();
      if (cmd !== '' && !/^\s*$/.test(cmd)) w.script(cmd.replace(/%/g, 'file'), false);
    }
    if (/\b(system|systemlist|py3?|python3?|pyx|perl|lua|ruby|terminal|term|call|exe|execute|source|so|luado|pydo|perldo)\b/.test(line) && base !== 'ed') w.codeNet(line, `${base} command`);
    const write = /^[0-9,.$'a-z]*\s*(w|W|wq|x|sav|saveas|write|f|file)!?\s+([^!|\s][^|]*)$/.exec(line);
    if (write) w.overwrite([lit((write[2] as string).trim())], `${base} ${write[1]}`);
  }
}

function ed(args: Word[], w: Walk, opts: ArgvOptions, cmd?: SimpleCommand): void {
  for (const a of args) {
    if (a.text.startsWith('!')) w.script(a.text.slice(1), a.dynamic, 'ed runs a command');
    else if (!a.text.startsWith('-')) w.overwrite([a], 'ed edits');
  }
  void opts;
  w.shellStdin('ed', cmd, (text) => edCommands(text, w, 'ed'));
}

/** vim/vi/ex/nvim: `-c cmd`, `+cmd`, `--cmd`, `-s`/`-S` scripts; ex mode reads stdin. */
function vim(base: string, args: Word[], w: Walk, opts: ArgvOptions, cmd?: SimpleCommand): void {
  let commands = false;
  const files: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Word;
    const t = a.text;
    let c: Word | undefined;
    if (t === '-c' || t === '--cmd') c = args[++i];
    else if (t.startsWith('+') && t.length > 1) c = { ...a, text: t.slice(1) };
    else if (t === '-S' || t === '-s' || t === '-u' || t === '-i') {
      const f = args[++i];
      if (f && t !== '-i') {
        const texts = w.readAll(f, `${base} ${t} ${f.text}`);
        for (const text of texts ?? []) edCommands(text, w, base);
      }
      commands = true;
      continue;
    } else if (t === '-e' || t === '-E' || t === '-es' || t === '-Es') {
      commands = true;
      continue;
    } else if (!t.startsWith('-')) files.push(a);
    if (c) {
      commands = true;
      if (c.dynamic) w.unjudged(`${base} runs a command computed at run time`);
      else edCommands(c.text, w, base);
    }
  }
  if (files.length > 0) w.overwrite(files, `${base} edits`);
  if (base === 'ex' || commands === false) {
    if (cmd?.stdin || cmd?.pipedFrom || cmd?.redirects.some((r) => r.op === '<')) w.shellStdin(base, cmd, (text) => edCommands(text, w, base));
  }
  void opts;
}

/** gdb: `-ex`/`-iex` commands (`shell`, `!`, `pipe`, `python`), `-x` files, `--args prog …`. */
function gdb(args: Word[], w: Walk): void {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (['-ex', '--ex', '-iex', '--iex', '-eval-command', '--eval-command', '-init-eval-command'].includes(t) || t.startsWith('--eval-command=')) {
      const c = t.includes('=') ? { ...args[i]!, text: t.slice(t.indexOf('=') + 1) } : args[++i];
      if (!c) continue;
      if (c.dynamic) {
        w.unjudged('gdb runs a command computed at run time');
        continue;
      }
      const m = /^\s*(shell|!|pipe|\|)\s*(.*)$/s.exec(c.text);
      if (m) w.script(m[1] === 'pipe' || m[1] === '|' ? (m[2] as string).replace(/^[^|]*\|/, '') : (m[2] as string), false);
      else w.codeNet(c.text, 'gdb command');
    } else if (['-x', '--x', '-command', '--command', '-ix', '--init-command'].includes(t)) {
      const f = args[++i];
      if (f) w.runFile(f, `gdb -x ${f.text}`, 'code');
    } else if (t === '--args' || t === '-args') {
      w.argv(args.slice(i + 1), {});
      return;
    } else if (!t.startsWith('-') && i === args.length - 1) {
      w.argv([args[i] as Word], {});
    }
  }
}

const TMUX_OPTS_WITH_VALUE = new Set(['-t', '-s', '-n', '-c', '-x', '-y', '-F', '-e', '-l', '-p', '-L', '-S', '-f', '-T', '-w', '-h', '-b', '-N', '-X']);
const TMUX_RUNS = new Set(['new-session', 'new', 'new-window', 'neww', 'split-window', 'splitw', 'respawn-pane', 'respawnp', 'respawn-window', 'respawnw', 'run-shell', 'run', 'display-popup', 'popup', 'pipe-pane', 'pipep', 'if-shell', 'if']);

/** tmux: commands it starts (new-session … 'cmd', run-shell, if-shell) and keys it types (send-keys). */
function tmux(args: Word[], w: Walk): void {
  let i = 0;
  for (; i < args.length && args[i]!.text.startsWith('-'); i++) if (['-L', '-S', '-f', '-c'].includes(args[i]!.text)) i++;
  const groups: Word[][] = [[]];
  for (const a of args.slice(i)) {
    if (a.text === ';' || a.text === '\\;') groups.push([]);
    else groups.at(-1)!.push(a);
  }
  for (const g of groups) {
    const verb = g[0]?.text ?? '';
    const rest: Word[] = [];
    for (let k = 1; k < g.length; k++) {
      const t = g[k]!.text;
      if (t.startsWith('-') && rest.length === 0) {
        if (TMUX_OPTS_WITH_VALUE.has(t)) k++;
        continue;
      }
      rest.push(g[k] as Word);
    }
    if (verb === 'source-file' || verb === 'source' || args.some((a) => a.text === '-f')) {
      w.unjudged('tmux reads a configuration file of commands the guard does not read');
      continue;
    }
    if (verb === 'send-keys' || verb === 'send') {
      const keys = rest.filter((r) => !/^(Enter|C-m|C-j|KPEnter|Escape|Tab|Space)$/.test(r.text));
      const text = joined(keys);
      w.script(text.text, text.dynamic, 'tmux send-keys types a command');
    } else if (TMUX_RUNS.has(verb) && rest.length > 0) {
      const text = joined(rest);
      w.script(text.text, text.dynamic, `tmux ${verb} runs a command`);
    }
  }
}

/** screen: `-X stuff 'cmd\n'`, `-X exec …`, and a program to start. */
function screen(args: Word[], w: Walk): void {
  const x = args.findIndex((a) => a.text === '-X');
  if (x >= 0) {
    const text = joined(args.slice(x + 2));
    return w.script(text.text.replace(/\\n|\\r|\^M/g, '\n'), text.dynamic, 'screen types or runs a command');
  }
  let i = 0;
  for (; i < args.length && args[i]!.text.startsWith('-'); i++) if (/^-[SpcltTe]$/.test(args[i]!.text)) i++;
  if (i < args.length) w.argv(args.slice(i), {});
}

/** tar: --to-command, --checkpoint-action=exec, -I/--use-compress-program, --rsh-command, --info-script; extraction. */
function tar(args: Word[], w: Walk): void {
  let extract = false;
  let archive: Word | undefined;
  let into: Word | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Word;
    const t = a.text;
    const valued = (prefix: string) => (t.startsWith(`${prefix}=`) ? { ...a, text: t.slice(prefix.length + 1) } : t === prefix ? args[++i] : undefined);
    for (const opt of ['--to-command', '--use-compress-program', '--rsh-command', '--info-script', '--new-volume-script', '-I', '-F']) {
      const v = valued(opt);
      if (v) w.script(v.text, v.dynamic, `tar ${opt} runs a command`);
    }
    if (t.startsWith('-I') && t.length > 2) w.script(t.slice(2), a.dynamic, 'tar -I runs a command');
    const cp = /^--checkpoint-action=(?:exec|sh)=(.*)$/s.exec(t);
    if (cp) w.script(cp[1] as string, a.dynamic, 'tar --checkpoint-action=exec runs a command');
    if (t === '-x' || t === '--extract' || t === '--get' || (/^-?[A-Za-z]*x/.test(t) && i === 0 && !t.startsWith('--'))) extract = true;
    const dir = t === '-C' || t === '--directory' ? args[i + 1] : t.startsWith('--directory=') ? { ...a, text: t.slice(12) } : undefined;
    if (dir) into = dir;
    if (t === '-f' || t === '--file') archive = args[i + 1];
    else if (t.startsWith('--file=')) archive = { ...a, text: t.slice(7) };
    else if (/^-?[A-Za-z]*f$/.test(t) && !t.startsWith('--') && i <= 1) archive = args[i + 1];
  }
  if (!extract) return;
  extraction(w, 'tar -x', archive, into, (text) => text.slice(257, 262) === 'ustar');
  w.writesUnknown();
}

/** Where the archive holds protected paths (`.leopold/ALLOW_GIT`), extracting it writes them. */
const ARCHIVED_PROTECTED = /(^|[^A-Za-z0-9_-])(\.leopold\/|\.claude\/settings|node_modules\/(\.bin\/)?leopold|\.git\/)|\.\.\//;

/** An archive extracted into a directory that holds protected paths: its names are read (an unreadable or compressed one is denied). */
function extraction(w: Walk, what: string, archive: Word | undefined, into: Word | undefined, readable: (text: string) => boolean): void {
  const dir = into ?? lit('.');
  if (!w.holds(dir)) return;
  const landing = w.receives(dir);
  if (landing.length > 0) {
    for (const t of landing) w.add({ lock: t.lock, what: `${what} into ${dir.text}, a protected directory` });
    return;
  }
  if (!archive || archive.text === '-') return w.unjudged(`${what}: an archive from stdin, extracted where protected paths live`);
  for (const text of w.readAll(archive, `${what} ${archive.text}`) ?? []) {
    if (!readable(text)) w.unjudged(`${what} ${archive.text}: a compressed archive extracted where protected paths live; the guard cannot read its names (extract it into a subdirectory with -C)`);
    else if (ARCHIVED_PROTECTED.test(text)) w.unjudged(`${what} ${archive.text}: the archive holds protected paths (.leopold/, .claude/, node_modules/leopold, .git/ or ../)`);
  }
}

/** unzip: the central directory names are plain text even when the contents are compressed. */
function unzip(args: Word[], w: Walk): void {
  if (args.some((a) => /^-[a-zA-Z]*[lptvZ]/.test(a.text))) return;
  const d = args.findIndex((a) => a.text === '-d');
  const positional = args.filter((a, i) => !a.text.startsWith('-') && !(d >= 0 && i === d + 1));
  extraction(w, 'unzip', positional[0], d >= 0 ? args[d + 1] : undefined, (text) => text.startsWith('PK'));
  w.writesUnknown();
}

/** socat: EXEC: and SYSTEM: addresses run programs. */
function socat(args: Word[], w: Walk): void {
  for (const a of args) {
    const m = /^(EXEC|SYSTEM):(.*)$/is.exec(a.text);
    if (!m) continue;
    const body = (m[2] as string).replace(/,[a-z-]+(=[^,]*)?$/gi, '');
    w.script(body, a.dynamic, `socat ${(m[1] as string).toUpperCase()} runs a command`);
  }
}

/** patch / git apply style writers whose targets are in a file: read it and look for protected names. */
function patch(args: Word[], w: Walk, opts: ArgvOptions, cmd?: SimpleCommand): void {
  const input = args.findIndex((a) => a.text === '-i' || a.text === '--input');
  const judge = (text: string) => {
    w.codeNet(text.split('\n').filter((l) => /^(\+\+\+|---|diff |rename |copy )/.test(l)).join('\n'), 'the patch');
    if (/^(\+\+\+|---) .*(\.git\/|\.leopold\/)/m.test(text)) w.unjudged('the patch writes into .git/ or .leopold/');
  };
  w.writesUnknown();
  if (input >= 0 && args[input + 1]) {
    for (const t of w.readAll(args[input + 1] as Word, 'patch -i') ?? []) judge(t);
    return;
  }
  const files = args.filter((a) => !a.text.startsWith('-'));
  if (files.length > 0) w.overwrite(files.slice(0, 1), 'patch');
  w.shellStdin('patch', cmd, judge);
  void opts;
}

/** at/batch: the job's commands come from stdin or -f FILE. */
function at(base: string, args: Word[], w: Walk, cmd?: SimpleCommand): void {
  if (args.some((a) => ['-l', '-d', '-r', '-c', '-q'].includes(a.text)) && !args.some((a) => a.text === '-f')) return;
  const f = args.findIndex((a) => a.text === '-f');
  if (f >= 0 && args[f + 1]) return w.runFile(args[f + 1] as Word, `${base} -f`, 'shell');
  w.shellStdin(base, cmd);
}

/** parallel: `cmd ::: args` (arguments at run time), or `::: 'cmd1' 'cmd2'` (each a command). */
function parallel(args: Word[], w: Walk): void {
  const sep = args.findIndex((a) => a.text === ':::' || a.text === '::::');
  const head = (sep < 0 ? args : args.slice(0, sep)).filter((a) => !a.text.startsWith('-'));
  if (head.length === 0 && sep >= 0) {
    for (const a of args.slice(sep + 1)) w.script(a.text, a.dynamic, 'parallel runs a command');
  } else w.argv(head, { unknownTrailing: true });
}

/** `uv run CMD`, `poetry run CMD`, `bundle exec CMD`…: the command after the tool's own options. */
const RUN_WRAPPERS: Record<string, { sub: string[]; valued: string[] }> = {
  uv: { sub: ['run'], valued: ['--with', '--with-requirements', '--python', '-p', '--package', '--directory', '--project', '--env-file', '--extra', '--group', '--index', '--index-url', '-i'] },
  uvx: { sub: [], valued: ['--from', '--with', '--python', '-p'] },
  poetry: { sub: ['run'], valued: ['-C', '--directory', '-P', '--project'] },
  pipenv: { sub: ['run'], valued: [] },
  pdm: { sub: ['run'], valued: ['-p', '--project'] },
  rye: { sub: ['run'], valued: [] },
  hatch: { sub: ['run'], valued: ['-e', '--env'] },
  pixi: { sub: ['run', 'exec'], valued: ['-e', '--environment', '--manifest-path'] },
  conda: { sub: ['run'], valued: ['-n', '--name', '-p', '--prefix', '--cwd'] },
  mamba: { sub: ['run'], valued: ['-n', '--name', '-p', '--prefix'] },
  micromamba: { sub: ['run'], valued: ['-n', '--name', '-p', '--prefix'] },
  bundle: { sub: ['exec'], valued: ['--gemfile'] },
  dotenv: { sub: [], valued: ['-e', '-c', '-v'] },
  'env-cmd': { sub: [], valued: ['-f', '--file', '-e', '--environments', '-r', '--rc-file'] },
};

function runWrapper(tool: string, args: Word[], w: Walk, opts: ArgvOptions, cmd?: SimpleCommand): void {
  const spec = RUN_WRAPPERS[tool] as { sub: string[]; valued: string[] };
  let i = 0;
  if (spec.sub.length > 0) {
    const verb = args.findIndex((a) => !a.text.startsWith('-'));
    if (verb < 0 || !spec.sub.includes(args[verb]!.text)) return;
    i = verb + 1;
  }
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === '--') {
      i++;
      break;
    }
    if (!t.startsWith('-')) break;
    if (spec.valued.includes(t)) i++;
  }
  if (i < args.length) w.argv(args.slice(i), opts, cmd);
}

/** The runner for each program name the walk hands over. */
export const RUNNERS: Record<string, Runner> = {
  npm: (a, w, o, c) => packageManager('npm', a, w, o, c),
  npx: (a, w, o, c) => packageManager('npm', [lit('exec'), ...a], w, o, c),
  yarn: (a, w, o, c) => packageManager('yarn', a, w, o, c),
  pnpm: (a, w, o, c) => packageManager('pnpm', a, w, o, c),
  pnpx: (a, w, o, c) => packageManager('pnpm', [lit('dlx'), ...a], w, o, c),
  bunx: (a, w, o, c) => packageManager('bun', [lit('x'), ...a], w, o, c),
  turbo: (a, w, o) => monorepo('turbo', a, w, o),
  nx: (a, w, o) => monorepo('nx', a, w, o),
  lerna: (a, w, o) => monorepo('lerna', a, w, o),
  'npm-run-all': (a, w) => scriptRunners('npm-run-all', a, w),
  'npm-run-all2': (a, w) => scriptRunners('npm-run-all', a, w),
  'run-s': (a, w) => scriptRunners('run-s', a, w),
  'run-p': (a, w) => scriptRunners('run-p', a, w),
  concurrently: (a, w) => scriptRunners('concurrently', a, w),
  make: (a, w) => make(a, w),
  task: (a, w) => taskRunner(a, w),
  'go-task': (a, w) => taskRunner(a, w),
  tox: (a, w) => toxRunner(a, w),
  nox: (a, w) => noxRunner(a, w),
  rake: (a, w) => rakeRunner(a, w),
  gmake: (a, w) => make(a, w),
  awk: (a, w) => awk(a, w),
  gawk: (a, w) => awk(a, w),
  mawk: (a, w) => awk(a, w),
  nawk: (a, w) => awk(a, w),
  sed: (a, w) => sed(a, w),
  gsed: (a, w) => sed(a, w),
  ed: (a, w, o, c) => ed(a, w, o, c),
  red: (a, w, o, c) => ed(a, w, o, c),
  vi: (a, w, o, c) => vim('vi', a, w, o, c),
  vim: (a, w, o, c) => vim('vim', a, w, o, c),
  nvim: (a, w, o, c) => vim('nvim', a, w, o, c),
  ex: (a, w, o, c) => vim('ex', a, w, o, c),
  view: (a, w, o, c) => vim('view', a, w, o, c),
  gdb: (a, w) => gdb(a, w),
  tmux: (a, w) => tmux(a, w),
  screen: (a, w) => screen(a, w),
  tar: (a, w) => tar(a, w),
  bsdtar: (a, w) => tar(a, w),
  socat: (a, w) => socat(a, w),
  unzip: (a, w) => unzip(a, w),
  patch: (a, w, o, c) => patch(a, w, o, c),
  at: (a, w, _o, c) => at('at', a, w, c),
  batch: (a, w, _o, c) => at('batch', a, w, c),
  parallel: (a, w) => parallel(a, w),
  ...INTERPRETERS,
  ...Object.fromEntries(Object.keys(RUN_WRAPPERS).map((tool) => [tool, ((a, w, o, c) => runWrapper(tool, a, w, o, c)) as Runner])),
};

/** Hands `base` to its runner (python3.12 → python). */
export function runRunner(base: string, args: Word[], w: Walk, opts: ArgvOptions, cmd?: SimpleCommand): void {
  (RUNNERS[base] as Runner)(args, w, opts, cmd);
}

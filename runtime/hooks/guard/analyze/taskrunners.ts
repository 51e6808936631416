import { dirname, join, resolve } from 'node:path';
import type { Word } from '../shell/types.js';
import type { Walk } from './command.js';
import { withoutStrings } from './javascript.js';
import { readYaml, type Yaml } from './yaml.js';

// Task runners besides make (make.ts) and the package managers (packages.ts): Task
// (Taskfile.yml), tox (tox.ini), nox (noxfile.py) and rake (Rakefile). Each reads its file
// far enough to know what the tasks named on the command line run (their commands, the
// tasks they depend on or call), and judges that as a file the guard read; tasks that are
// not named are not judged (`task release` publishes, `task test` does not).

/** A value of the runner's own templating (`{{.VERSION}}`, `{posargs}`): unknown to the shell. */
const TEMPLATE = '${TASK_VALUE}';
const MAX_TASKS = 256;

type Json = { [key: string]: Yaml };
const isMap = (v: Yaml | undefined): v is Json => v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
const list = (v: Yaml | undefined): Yaml[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const positionals = (args: Word[], valued: string[]) => {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Word;
    if (a.text === '--') break;
    if (a.text.startsWith('-')) {
      if (valued.includes(a.text)) i++;
      continue;
    }
    out.push(a);
  }
  return out;
};

/** Where the runner's file is: in the command's directory or above it. */
function findUp(w: Walk, names: string[]): { path: string; text: string } | null {
  if (w.cwds.unknown) return null;
  for (const start of w.cwds.dirs) {
    for (let dir = start; ; dir = dirname(dir)) {
      for (const name of names) {
        const text = w.readConfig(join(dir, name));
        if (text !== null) return { path: join(dir, name), text };
      }
      if (dirname(dir) === dir) break;
    }
  }
  return null;
}

// ---------------------------------------------------------------- Task (Taskfile.yml)

interface Taskfile {
  path: string;
  dir: string;
  tasks: Json;
  /** Included Taskfiles by namespace. */
  includes: Map<string, Taskfile>;
}

function readTaskfile(w: Walk, path: string, depth: number): Taskfile | null {
  const text = w.readConfig(path);
  if (text === null) return null;
  const doc = readYaml(text);
  const file: Taskfile = { path, dir: dirname(path), tasks: isMap(doc) && isMap(doc.tasks) ? doc.tasks : {}, includes: new Map() };
  const includes = isMap(doc) && isMap(doc.includes) ? doc.includes : {};
  if (depth < 4) {
    for (const [ns, spec] of Object.entries(includes)) {
      const target = typeof spec === 'string' ? spec : isMap(spec) && typeof spec.taskfile === 'string' ? spec.taskfile : null;
      if (target === null || target.includes('{{')) continue;
      const base = resolve(file.dir, target);
      const inner = readTaskfile(w, /\.ya?ml$/.test(base) ? base : join(base, 'Taskfile.yml'), depth + 1) ?? readTaskfile(w, join(base, 'Taskfile.yaml'), depth + 1);
      if (inner) {
        file.includes.set(ns, inner);
        const aliases = isMap(spec) ? list(spec.aliases) : [];
        for (const alias of aliases) if (typeof alias === 'string') file.includes.set(alias, inner);
      }
    }
  }
  return file;
}

/** The task a name selects: exact, an alias, a `prefix:*` wildcard, or through an included Taskfile's namespace. */
function findTask(file: Taskfile, name: string): { file: Taskfile; task: Yaml; name: string } | null {
  if (Object.hasOwn(file.tasks, name)) return { file, task: file.tasks[name] as Yaml, name };
  for (const [key, task] of Object.entries(file.tasks)) {
    if (isMap(task) && list(task.aliases).includes(name)) return { file, task, name: key };
    if (key.includes('*')) {
      const re = new RegExp(`^${key.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
      if (re.test(name)) return { file, task, name: key };
    }
  }
  const colon = name.indexOf(':');
  if (colon > 0) {
    const inner = file.includes.get(name.slice(0, colon));
    if (inner) return findTask(inner, name.slice(colon + 1));
  }
  return null;
}

const templated = (text: string) => text.replace(/\{\{[^}]*\}\}/g, TEMPLATE);

/** `task [NAME…]`: each task's commands, the tasks it calls and depends on, its `sh:` variables, preconditions and status checks. */
export function taskRunner(args: Word[], w: Walk): void {
  const names = positionals(args, ['-d', '--dir', '-t', '--taskfile', '-o', '--output', '-C', '--concurrency', '--interval', '-I']).map((a) => a.text);
  if (args.some((a) => ['--list', '-l', '--list-all', '-a', '--summary', '--version', '--help', '-h', '--init', '-i'].includes(a.text))) return;
  const found = findUp(w, ['Taskfile.yml', 'Taskfile.yaml', 'taskfile.yml', 'taskfile.yaml', 'Taskfile.dist.yml']);
  if (!found) return;
  const root = readTaskfile(w, found.path, 0);
  if (!root) return;
  const queue = (names.length > 0 ? names : ['default']).map((n) => ({ file: root, name: n }));
  const done = new Set<string>();
  while (queue.length > 0 && done.size < MAX_TASKS) {
    const { file, name } = queue.shift() as { file: Taskfile; name: string };
    const hit = findTask(file, name);
    if (!hit) continue;
    const key = `${hit.file.path}\u0000${hit.name}`;
    if (done.has(key)) continue;
    done.add(key);
    const label = `${w.label(hit.file.path)} task "${hit.name}"`;
    const task = hit.task;
    // A task may be a single command or a list of them.
    const body: Json = isMap(task) ? task : { cmds: typeof task === 'string' ? [task] : list(task) };
    const scripts: string[] = [];
    for (const cmd of [...list(body.cmds), ...list(body.cmd)]) {
      if (typeof cmd === 'string') scripts.push(cmd);
      else if (isMap(cmd) && typeof cmd.cmd === 'string') scripts.push(cmd.cmd);
      else if (isMap(cmd) && typeof cmd.task === 'string') queue.push({ file: hit.file, name: cmd.task });
    }
    for (const dep of list(body.deps)) {
      if (typeof dep === 'string') queue.push({ file: hit.file, name: dep });
      else if (isMap(dep) && typeof dep.task === 'string') queue.push({ file: hit.file, name: dep.task });
    }
    for (const value of Object.values(isMap(body.vars) ? body.vars : {})) if (isMap(value) && typeof value.sh === 'string') scripts.push(value.sh);
    for (const check of [...list(body.preconditions), ...list(body.status)]) {
      if (typeof check === 'string') scripts.push(check);
      else if (isMap(check) && typeof check.sh === 'string') scripts.push(check.sh);
    }
    const dir = typeof body.dir === 'string' && !body.dir.includes('{{') ? resolve(hit.file.dir, body.dir) : hit.file.dir;
    w.inDir(dir, () => {
      for (const script of scripts) w.script(templated(script), false, `task ${hit.name}`, { file: label });
    });
  }
}

// ---------------------------------------------------------------- tox (tox.ini)

/** tox.ini's sections and their keys (continuation lines joined with newlines). */
function readIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let section: Map<string, string> | null = null;
  let key: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const head = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (head) {
      section = new Map();
      sections.set((head[1] as string).trim(), section);
      key = null;
      continue;
    }
    if (!section || /^\s*[#;]/.test(raw) || raw.trim() === '') continue;
    const kv = /^([A-Za-z_][\w.-]*)\s*[=:]\s*(.*)$/.exec(raw);
    if (kv && !/^\s/.test(raw)) {
      key = kv[1] as string;
      section.set(key, kv[2] as string);
    } else if (key !== null && /^\s/.test(raw)) section.set(key, `${section.get(key) ?? ''}\n${raw.trim()}`);
  }
  return sections;
}

/** `tox [run] -e ENV[,ENV…] [-- ARGS]`: each environment's commands (with the base section's, factor-selected). */
export function toxRunner(args: Word[], w: Walk): void {
  const found = findUp(w, ['tox.ini']);
  if (!found) return;
  const ini = readIni(found.text);
  const envs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (t === '--') break;
    if (t === '-e' || t === '--env') envs.push(...(args[++i]?.text ?? '').split(','));
    else if (t.startsWith('-e') && t.length > 2) envs.push(...t.slice(2).split(','));
    else if (t.startsWith('--env=')) envs.push(...t.slice(6).split(','));
  }
  const tox = ini.get('tox');
  if (envs.length === 0) envs.push(...(tox?.get('envlist') ?? tox?.get('env_list') ?? '').split(/[\s,]+/).filter(Boolean));
  const label = w.label(found.path);
  w.inDir(dirname(found.path), () => {
    for (const env of envs.filter(Boolean)) {
      if (env.includes('{') || env.includes('$')) continue;
      const factors = new Set(env.split('-'));
      const own = ini.get(`testenv:${env}`);
      const base = ini.get('testenv');
      for (const key of ['commands_pre', 'commands', 'commands_post']) {
        const value = own?.get(key) ?? base?.get(key);
        if (value === undefined) continue;
        for (const line of resolveIni(value, ini).split('\n')) {
          // `factor: command` lines apply only to environments with that factor.
          const factored = /^([\w.,!-]+):\s+(.*)$/.exec(line);
          if (factored && !(factored[1] as string).split(',').some((f) => (f.startsWith('!') ? !factors.has(f.slice(1)) : factors.has(f)))) continue;
          const command = (factored ? (factored[2] as string) : line).replace(/\{envpython\}/g, 'python').replace(/\{[^{}]*\}/g, TEMPLATE).trim();
          if (command !== '' && !command.startsWith('#')) w.script(command.replace(/^-\s*/, ''), false, `tox -e ${env}`, { file: `${label} [testenv:${env}]`, quiet: true });
        }
      }
    }
  });
}

/** `{[section]key}` references in tox.ini values. */
function resolveIni(value: string, ini: Map<string, Map<string, string>>, depth = 0): string {
  if (depth > 4) return value;
  return value.replace(/\{\[([^\]]+)\]([\w.-]+)\}/g, (_, section: string, key: string) => resolveIni(ini.get(section)?.get(key) ?? TEMPLATE, ini, depth + 1));
}

// ---------------------------------------------------------------- nox (noxfile.py)

/** The top-level blocks of a Python file: `def` (with their decorators) and the rest. */
function pythonBlocks(code: string): { name: string | null; decorators: string; text: string }[] {
  const lines = code.split('\n');
  const blocks: { name: string | null; decorators: string; text: string }[] = [];
  let decorators: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^@/.test(line)) {
      // A decorator may span lines: up to the line where its brackets close.
      let text = line;
      let open = (line.match(/[([{]/g)?.length ?? 0) - (line.match(/[)\]}]/g)?.length ?? 0);
      while (open > 0 && i + 1 < lines.length) {
        const next = lines[++i] as string;
        text += `\n${next}`;
        open += (next.match(/[([{]/g)?.length ?? 0) - (next.match(/[)\]}]/g)?.length ?? 0);
      }
      decorators.push(text);
      continue;
    }
    const def = /^(?:async\s+)?def\s+([A-Za-z_]\w*)/.exec(line);
    if (def) {
      const body = [line];
      while (i + 1 < lines.length && (/^\s/.test(lines[i + 1] as string) || (lines[i + 1] as string).trim() === '')) body.push(lines[++i] as string);
      blocks.push({ name: def[1] as string, decorators: decorators.join('\n'), text: body.join('\n') });
      decorators = [];
      continue;
    }
    decorators = [];
    if (line.trim() !== '' && !/^\s*#/.test(line)) blocks.push({ name: null, decorators: '', text: line });
  }
  return blocks;
}

/** `nox -s NAME…` (and `python -m nox`): each session's function, the module's top-level code, and the functions they call. */
export function noxRunner(args: Word[], w: Walk): void {
  const found = findUp(w, ['noxfile.py']);
  if (!found) return;
  const sessions: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (t === '--') break;
    if (t === '-s' || t === '--session' || t === '--sessions' || t === '-e') {
      for (let k = i + 1; k < args.length && !(args[k] as Word).text.startsWith('-'); k++) sessions.push((args[k] as Word).text);
    } else if (/^--sessions?=/.test(t)) sessions.push(...t.slice(t.indexOf('=') + 1).split(','));
  }
  const blocks = pythonBlocks(found.text);
  const functions = new Map(blocks.filter((b) => b.name !== null).map((b) => [b.name as string, b]));
  const wanted = blocks.filter((b) => {
    if (b.name === null || !/nox\.session/.test(b.decorators)) return false;
    const named = /name\s*=\s*["']([^"']+)["']/.exec(b.decorators)?.[1] ?? b.name;
    // Sessions are selected by name, or by name with a parameter (`test-3.12`).
    return sessions.length === 0 || sessions.some((s) => s === named || s.startsWith(`${named}-`) || s.startsWith(`${named}(`) || s.replace(/-/g, '_') === b.name);
  });
  const reached = [...blocks.filter((b) => b.name === null), ...wanted];
  const seen = new Set(reached);
  for (let k = 0; k < reached.length; k++) {
    for (const m of withoutStrings((reached[k] as { text: string }).text).replace(/#.*$/gm, '').matchAll(/[A-Za-z_]\w*/g)) {
      const fn = functions.get(m[0]);
      if (fn && !seen.has(fn)) {
        seen.add(fn);
        reached.push(fn);
      }
    }
  }
  const code = reached.map((b) => b.text).join('\n');
  const label = `${w.label(found.path)} session${sessions.length === 1 ? ` "${sessions[0]}"` : 's'}`;
  w.inDir(dirname(found.path), () => w.inFile(label, code, true, () => w.codeNet(code, label)));
}

// ---------------------------------------------------------------- rake (Rakefile)

/** `rake [TASK…]`: the blocks of the tasks named (a task whose name is computed, inside the named namespace, counts), their prerequisites, and the file's top level. */
export function rakeRunner(args: Word[], w: Walk): void {
  const found = findUp(w, ['Rakefile', 'rakefile', 'Rakefile.rb', 'rakefile.rb']);
  if (!found) return;
  const goals = positionals(args, ['-f', '--rakefile', '-C', '--directory', '-I', '--libdir', '-r', '--require', '-j', '--jobs']).map((a) => a.text.replace(/\[.*$/, '')).filter((g) => !g.includes('='));
  const lines = found.text.split('\n');
  // Namespaces and tasks, by indentation: `namespace :x do` … `end` at the same indentation.
  const tasks: { name: string | null; ns: string[]; text: string; prereqs: string[] }[] = [];
  const stack: { ns: string; indent: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const indent = line.length - line.trimStart().length;
    while (stack.length > 0 && indent <= (stack.at(-1) as { indent: number }).indent && /^\s*end\b/.test(line)) {
      stack.pop();
      break;
    }
    const ns = /^\s*namespace\s*\(?\s*[:'"]([\w-]+)['"]?/.exec(line);
    if (ns) {
      stack.push({ ns: ns[1] as string, indent });
      continue;
    }
    const task = /^\s*(?:multi)?task\s*\(?\s*(?::([\w?!-]+)|["']([^"']+)["']|([\w-]+):|([a-z_]\w*))/.exec(line);
    if (!task) continue;
    const name = task[1] ?? task[2] ?? task[3] ?? null;
    const body = [line];
    if (/\bdo\b(\s*\|[^|]*\|)?\s*$/.test(line) || /\{[^}]*$/.test(line)) {
      while (i + 1 < lines.length) {
        const next = lines[++i] as string;
        body.push(next);
        const nextIndent = next.length - next.trimStart().length;
        if (nextIndent <= indent && /^\s*(end|\})\b/.test(next)) break;
      }
    }
    const prereqs = [...(/=>\s*(.*)$/.exec(line)?.[1] ?? '').matchAll(/[:'"]([\w:.-]+)/g)].map((m) => m[1] as string);
    tasks.push({ name, ns: stack.map((s) => s.ns), text: body.join('\n'), prereqs });
  }
  const queue = goals.length > 0 ? [...goals] : ['default'];
  const done = new Set<string>();
  const judged: string[] = [];
  while (queue.length > 0 && done.size < MAX_TASKS) {
    const goal = queue.shift() as string;
    if (done.has(goal)) continue;
    done.add(goal);
    const parts = goal.split(':');
    const leaf = parts.at(-1) as string;
    const ns = parts.slice(0, -1).join(':');
    for (const t of tasks) {
      if (t.ns.join(':') !== ns) continue;
      if (t.name !== null && t.name !== leaf) continue;
      judged.push(t.text);
      for (const p of t.prereqs) queue.push(p.includes(':') || ns === '' ? p : `${ns}:${p}`);
    }
  }
  const code = judged.join('\n');
  const label = `${w.label(found.path)} task${goals.length === 1 ? ` "${goals[0]}"` : 's'}`;
  w.inDir(dirname(found.path), () =>
    w.inFile(label, code, true, () => {
      w.codeNet(code, label, true);
      // `sh <<-SH … SH`: here-document bodies are shell scripts.
      for (const m of code.matchAll(/<<[-~]?(['"]?)([A-Z_]+)\1[^\n]*\n([\s\S]*?)\n\s*\2\b/g)) w.script((m[3] as string).replace(/#\{[^}]*\}/g, TEMPLATE), false, label, { quiet: true });
    }),
  );
}

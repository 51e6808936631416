import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineSchema } from '../../runtime/state/index.js';
import { leopoldBinary, root } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

// Every `leopold …` command the README and docs/ show, in code blocks, tables and inline
// code, is one the CLI accepts: the command and subcommand exist, every flag is in its
// --help, and every documented value of an enumerated flag (`--format text|json|github`) is
// one the CLI takes. So the README cannot drift from the CLI. (What the commands do, from
// the packed tarball, is test/package/smoke.e2e.test.ts.)

const COMMANDS = ['graph', 'compile', 'simulate', 'record', 'plan', 'run', 'hook', 'ci', 'init'];
const SUBCOMMANDS: Record<string, string[]> = { plan: ['tick', 'amend'], run: ['start', 'finish', 'status', 'stop', 'unlock', 'allow'], hook: ['stop', 'guard'] };

/** One command as a page shows it. */
interface Shown {
  page: string;
  text: string;
  path: string[];
  flags: string[];
  /** Documented values of enumerated flags: `--format text|json|github`. */
  values: Array<{ flag: string; values: string[] }>;
}

/**
 * The text of code blocks, table rows and inline code spans of a Markdown page. In a table
 * row a span that starts with a command word (`run finish` after `leopold run start …`)
 * is a leopold command too.
 */
function snippets(markdown: string): string[] {
  const out: string[] = [];
  for (const block of markdown.matchAll(/```[^\n]*\n([\s\S]*?)```/g)) out.push(...block[1]!.split('\n'));
  const prose = markdown.replace(/```[^\n]*\n[\s\S]*?```/g, '');
  for (const line of prose.split('\n')) {
    const row = line.startsWith('|');
    for (const span of line.matchAll(/`([^`\n]+)`/g)) {
      const text = span[1]!;
      out.push(row && COMMANDS.includes(text.split(' ')[0]!) ? `leopold ${text}` : text);
    }
  }
  // Table cells escape their pipes; quoted arguments are values, not flags.
  return out.map((s) => s.replace(/\\\|/g, '|').replace(/'[^']*'|"[^"]*"/g, 'ARG'));
}

/** Each `leopold <command> …` in a snippet, up to a comment, a redirection or the next command. */
function commandsIn(page: string, snippet: string): Shown[] {
  const found: Shown[] = [];
  for (const m of snippet.matchAll(/(?:^|[\s(`"])(?:npx (?:--no )?|node_modules\/\.bin\/|\S*bin\/)?leopold ([a-z][^#;<>`]*)/g)) {
    const words = m[1]!.trim().split(/\s+/);
    if (!COMMANDS.includes(words[0]!)) continue;
    const path = [words[0]!];
    const sub = words[1]?.split('|')[0];
    if (SUBCOMMANDS[path[0]!] && sub && SUBCOMMANDS[path[0]!]!.includes(sub)) path.push(sub);
    const rest = words.slice(path.length).join(' ');
    const flags = [...new Set([...rest.matchAll(/--[a-z][a-z0-9-]*/g)].map((f) => f[0]))];
    const values = [...rest.matchAll(/(--[a-z][a-z-]*) ([a-z][a-z-]*(?:\|[a-z][a-z-]*)+)/g)].map((v) => ({ flag: v[1]!, values: v[2]!.split('|') }));
    found.push({ page, text: m[0].trim(), path, flags, values });
  }
  return found;
}

function pagesShown(): Shown[] {
  const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  return pages.flatMap((page) => snippets(readFileSync(join(root, page), 'utf8')).flatMap((s) => commandsIn(page, s)));
}

let bin = '';
let scratch = '';
beforeAll(async () => {
  bin = await leopoldBinary();
  scratch = tempDir('leopold-readme-');
  mkdirSync(join(scratch, '.leopold'));
  writeFileSync(join(scratch, '.leopold', 'PLAN.md'), '- [ ] one\n');
});

const helps = new Map<string, string>();
function help(path: string[]): string {
  const key = path.join(' ');
  if (!helps.has(key)) {
    const out = spawnSync(process.execPath, [bin, ...path, '--help'], { cwd: scratch, encoding: 'utf8' });
    expect(out.status, `leopold ${key} --help`).toBe(0);
    helps.set(key, out.stdout);
  }
  return helps.get(key)!;
}

/** The values an enumerated flag takes, as the CLI says when given one it does not. */
function accepted(path: string[], flag: string): string[] {
  if (path.join(' ') === 'run start' && flag === '--engine') return EngineSchema.options;
  const out = spawnSync(process.execPath, [bin, ...path, flag, 'not-a-value'], { cwd: scratch, encoding: 'utf8' });
  const list = /(?:must be|expected) (.+?)(?: \(got|\n)/.exec(out.stderr)?.[1];
  expect(list, `leopold ${path.join(' ')} ${flag} not-a-value: ${out.stderr}`).toBeDefined();
  return list!.split(/, | or /);
}

describe('the commands the README and docs show', () => {
  const shown = pagesShown();

  it('are found on the pages (every command of the README among them)', () => {
    const readme = new Set(shown.filter((s) => s.page === 'README.md').map((s) => s.path.join(' ')));
    for (const command of ['graph', 'compile', 'simulate', 'record', 'plan tick', 'plan amend', 'run start', 'run finish', 'run status', 'run stop', 'run unlock', 'run allow', 'hook stop', 'hook guard', 'ci', 'init']) {
      expect(readme, command).toContain(command);
    }
  });

  it('exist, with every flag they show', () => {
    const wrong = shown.flatMap((s) => {
      const text = help(s.path);
      return s.flags.filter((flag) => !new RegExp(`(^|[\\s,])${flag}(?![a-z-])`, 'm').test(text)).map((flag) => `${s.page}: ${s.text}: leopold ${s.path.join(' ')} has no ${flag}`);
    });
    expect(wrong).toEqual([]);
  });

  it('take every value they show for an enumerated flag', () => {
    const wrong = shown.flatMap((s) =>
      s.values.flatMap(({ flag, values }) => {
        const takes = accepted(s.path, flag);
        return values.filter((v) => !takes.includes(v)).map((v) => `${s.page}: ${s.text}: ${flag} does not take ${v} (takes ${takes.join(', ')})`);
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('run allow takes exactly what the pages show: git or push', () => {
    const out = spawnSync(process.execPath, [bin, 'run', 'allow', 'not-a-value'], { cwd: scratch, encoding: 'utf8' });
    expect(out.stderr).toContain('run allow takes git or push');
    for (const s of shown.filter((x) => x.path.join(' ') === 'run allow')) {
      const arg = /run allow (\S+)/.exec(s.text)?.[1];
      if (arg && arg !== '…') for (const what of arg.split('|')) expect(['git', 'push'], s.text).toContain(what);
    }
  });
});

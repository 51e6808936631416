import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runGuard } from '../../runtime/hooks/guard/index.js';
import { builtHook, root } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

// The corpus of real commands from public repositories (fixtures/commands: its README),
// judged by the registered hook's entry (runGuard, which dist/hooks/guard.js runs) with
// real hook JSON, each repository's files laid out in a project armed as `leopold run
// start` arms it (.leopold/lock.json recording the OS layer in force, an active
// state.json). Ordinary commands: at least 99% allowed, and the refusals that remain are
// exactly those docs/guard.md lists with their reasons. Ship commands: every one refused.
// Then the same without the OS layer (the numbers are printed), and a sample through the
// built binary itself, which must answer as runGuard does.

const CORPUS = join(root, 'fixtures', 'commands');
const DOCS = join(root, 'docs', 'guard.md');

interface Entry {
  command: string;
  cwd: string;
  from: string;
  class: 'ordinary' | 'ship';
  what: string;
}

let work = '';
let home = '';
const repos: { name: string; dir: string; entries: Entry[] }[] = [];

const record = (osLayer: boolean) => ({
  version: 1,
  armed_at: '2026-01-01T00:00:00.000Z',
  grants: [],
  require_sandbox: false,
  previous: { enabled: null, allowUnsandboxedCommands: null, failIfUnavailable: null },
  deny_rules: [],
  exclude: [],
  created_packed_refs: false,
  previous_allow_root: false,
  denied_domains: [],
  local_remotes: [],
  widened: true,
  ...(osLayer ? { sandbox: { armed: true, available: true, excluded_commands: [] } } : {}),
});

function arm(osLayer: boolean): void {
  for (const repo of repos) writeFileSync(join(repo.dir, '.leopold', 'lock.json'), `${JSON.stringify(record(osLayer), null, 2)}\n`);
}

beforeAll(() => {
  work = realpathSync(tempDir('leopold-guard-real-'));
  home = join(work, 'home');
  mkdirSync(home);
  for (const name of readdirSync(CORPUS).sort()) {
    if (!existsSync(join(CORPUS, name, 'commands.json'))) continue;
    const dir = join(work, name);
    cpSync(join(CORPUS, name, 'tree'), dir, { recursive: true, verbatimSymlinks: true });
    mkdirSync(join(dir, '.leopold'), { recursive: true });
    writeFileSync(join(dir, '.leopold', 'state.json'), '{"version":1,"active":true}\n');
    repos.push({ name, dir, entries: JSON.parse(readFileSync(join(CORPUS, name, 'commands.json'), 'utf8')) as Entry[] });
  }
});

const hookInput = (command: string, cwd: string) => JSON.stringify({ session_id: 'corpus', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command, description: 'corpus' }, cwd });
const where = (dir: string) => ({ env: { HOME: home, PATH: '/usr/local/bin:/usr/bin:/bin', CLAUDE_PROJECT_DIR: dir }, processCwd: dir });

interface Verdicts {
  ordinary: number;
  allowed: number;
  ship: number;
  denied: number;
  refused: { repo: string; from: string; command: string; reason: string }[];
  missed: { repo: string; from: string; command: string }[];
}

function judgeAll(): Verdicts {
  const v: Verdicts = { ordinary: 0, allowed: 0, ship: 0, denied: 0, refused: [], missed: [] };
  for (const repo of repos) {
    for (const e of repo.entries) {
      const out = runGuard(hookInput(e.command, join(repo.dir, e.cwd)), where(repo.dir));
      const deny = out !== '';
      if (e.class === 'ordinary') {
        v.ordinary++;
        if (!deny) v.allowed++;
        else v.refused.push({ repo: repo.name, from: e.from, command: e.command, reason: JSON.parse(out).hookSpecificOutput.permissionDecisionReason as string });
      } else {
        v.ship++;
        if (deny) v.denied++;
        else v.missed.push({ repo: repo.name, from: e.from, command: e.command });
      }
    }
  }
  return v;
}

/** The refusals docs/guard.md lists, as `repo from` keys. */
function documented(): Set<string> {
  const text = readFileSync(DOCS, 'utf8');
  const start = text.indexOf('<!-- remaining-refusals:start -->');
  const end = text.indexOf('<!-- remaining-refusals:end -->');
  expect(start, 'docs/guard.md has the remaining-refusals table').toBeGreaterThan(0);
  const rows = text.slice(start, end).split('\n').filter((l) => /^\| `[^`]+` \| `[^`]+` \|/.test(l));
  return new Set(rows.map((row) => {
    const [, repo, from] = /^\| `([^`]+)` \| `([^`]+)` \|/.exec(row) as RegExpExecArray;
    const reason = row.split('|')[4]?.trim() ?? '';
    expect(reason.length, `a reason for ${repo} ${from}`).toBeGreaterThan(20);
    return `${repo} ${from}`;
  }));
}

describe('the corpus of real commands, through the registered hook', () => {
  it('with the OS layer in force: at least 99% of ordinary commands allowed, every ship command refused, the refusals documented', () => {
    arm(true);
    const v = judgeAll();
    const rate = (100 * v.allowed) / v.ordinary;
    console.log(`real commands, OS layer in force: ordinary ${v.allowed}/${v.ordinary} allowed (${rate.toFixed(2)}%), ship ${v.denied}/${v.ship} refused (${((100 * v.denied) / v.ship).toFixed(2)}%)`);
    expect(v.ordinary).toBeGreaterThanOrEqual(450);
    expect(v.ship).toBeGreaterThanOrEqual(80);
    expect(v.missed).toEqual([]);
    expect(rate).toBeGreaterThanOrEqual(99);
    const docs = documented();
    const undocumented = v.refused.filter((r) => !docs.has(`${r.repo} ${r.from}`)).map((r) => `${r.repo} ${r.from}: ${r.command.slice(0, 80)}\n  ${r.reason.slice(0, 300)}`);
    const gone = [...docs].filter((key) => !v.refused.some((r) => `${r.repo} ${r.from}` === key));
    expect(undocumented, 'refused, but not in docs/guard.md').toEqual([]);
    expect(gone, 'in docs/guard.md, but no longer refused').toEqual([]);
    // Each refusal names a part of the command or of a file it runs, and what to do instead.
    for (const r of v.refused) expect(r.reason, r.command).toMatch(/^Leopold guard: refused `.+`.*Instead: /s);
  });

  it('without the OS layer: every ship command refused; the share of ordinary commands allowed is printed', () => {
    arm(false);
    const v = judgeAll();
    console.log(`real commands, no OS layer: ordinary ${v.allowed}/${v.ordinary} allowed (${((100 * v.allowed) / v.ordinary).toFixed(2)}%), ship ${v.denied}/${v.ship} refused (${((100 * v.denied) / v.ship).toFixed(2)}%)`);
    expect(v.missed).toEqual([]);
    // Refusing more than with the OS layer is the cost of no sandbox (docs/guard.md, "Two modes"), never less.
    expect(v.allowed).toBeLessThanOrEqual(v.ordinary);
  });

  it('the built dist/hooks/guard.js answers a sample of each repository as runGuard does', async () => {
    arm(true);
    mkdirSync(join(work, 'bin'), { recursive: true });
    const bins = await builtHook(join(work, 'bin'), 'guard');
    const guardJs = bins['dist/hooks/guard.js'] as string[];
    let sampled = 0;
    for (const repo of repos) {
      // One command of each repository: its first ship command, else its first.
      const sample = [repo.entries.find((e) => e.class === 'ship') ?? repo.entries[0]].filter((e): e is Entry => e !== undefined);
      for (const e of sample) {
        const stdin = hookInput(e.command, join(repo.dir, e.cwd));
        const w = where(repo.dir);
        const out = spawnSync(process.execPath, guardJs, { input: stdin, cwd: repo.dir, env: { ...w.env }, encoding: 'utf8' });
        expect(out.status).toBe(0);
        expect(out.stderr).toBe('');
        expect(out.stdout, `${repo.name}: ${e.command}`).toBe(runGuard(stdin, w));
        sampled++;
      }
    }
    expect(sampled).toBeGreaterThanOrEqual(repos.length);
  });
});

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtLeopold } from '../compile/harness.js';

// The CLI's output contract through the built binary: --strict on compile, machine
// formats that stay machine formats on both streams, annotation paths from the repository
// root, graph refusing what compile refuses for size, and messages in one style.

const made: string[] = [];
let bin = '';
beforeAll(async () => {
  bin = (await builtLeopold()).bin;
});
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A temp repository (a `.git` directory marks its root) with `.leopold/PLAN.md` and a nested folder. */
function project(plan: string): { root: string; deep: string } {
  const root = mkdtempSync(join(tmpdir(), 'leopold-formats-'));
  made.push(root);
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, '.leopold'));
  mkdirSync(join(root, 'sub', 'deep'), { recursive: true });
  writeFileSync(join(root, '.leopold', 'PLAN.md'), plan);
  return { root, deep: join(root, 'sub', 'deep') };
}

function leopold(cwd: string, args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, LEOPOLD_AUTONOMY: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const BROKEN = '- [ ] Start\n  @on ok -> 9\n- [ ] Next\n';
const WARNED = '- [ ] Start\n- [ ] Next\n  @write src/x.ts\n';
const SCRIPT = '.claude/workflows/leopold-run.js';

describe('compile --strict', () => {
  it('refuses a plan with warnings: exit 1, nothing written; without --strict it compiles', () => {
    const { root } = project(WARNED);
    const strict = leopold(root, ['compile', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/: warning: .+ \[did-you-mean\]$/m);
    expect(strict.stderr).toContain('leopold: --strict: 1 warning counts as an error; nothing was written');
    expect(existsSync(join(root, SCRIPT))).toBe(false);
    expect(leopold(root, ['compile', '--strict', '--print']).stdout).toBe('');
    const plain = leopold(root, ['compile']);
    expect(plain.code).toBe(0);
    expect(existsSync(join(root, SCRIPT))).toBe(true);
  });

  it('reads parallel_items from GUARDRAILS: overlapping @writes refuse only a plan whose items may run together', () => {
    const { root } = project('- [ ] One\n  @writes src/**\n- [ ] Two\n  @writes src/a.ts\n');
    expect(leopold(root, ['compile', '--strict', '--print']).code).toBe(0);
    writeFileSync(join(root, '.leopold', 'GUARDRAILS.md'), '# G\n- parallel_items: on\n');
    const strict = leopold(root, ['compile', '--strict', '--print']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/^\.leopold\/PLAN\.md:3:7: warning: .+ \[write-scope-overlap\]$/m);
  });
});

describe('compile --format json: one JSON document on stderr, nothing else', () => {
  it('plan errors: the note is inside the document, not a text line after it', () => {
    const { root } = project(BROKEN);
    const run = leopold(root, ['compile', '--format', 'json', '--no-repair']);
    expect(run.code).toBe(1);
    const doc = JSON.parse(run.stderr) as { ok: boolean; diagnostics: Array<{ code: string }>; notes: Array<{ text: string }> };
    expect(doc.ok).toBe(false);
    expect(doc.diagnostics.map((d) => d.code)).toEqual(['dangling-edge']);
    expect(doc.notes.map((n) => n.text)).toEqual(['not repaired: --no-repair']);
  });

  it('an empty plan: no repair note at all (repair cannot help), still pure JSON', () => {
    const { root } = project('# Plan\n\nNothing yet.\n');
    for (const format of ['json', 'text']) {
      const run = leopold(root, ['compile', '--format', format]);
      expect(run.code).toBe(1);
      expect(run.stderr).not.toContain('not repaired');
    }
    const doc = JSON.parse(leopold(root, ['compile', '--format', 'json']).stderr) as { notes: unknown[]; diagnostics: Array<{ code: string }> };
    expect(doc.notes).toEqual([]);
    expect(doc.diagnostics.map((d) => d.code)).toEqual(['empty-plan']);
  });

  it('success: what was written is a note in the document', () => {
    const { root } = project(WARNED);
    const run = leopold(root, ['compile', '--format', 'json']);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stderr) as { ok: boolean; notes: Array<{ text: string }> };
    expect(doc.ok).toBe(true);
    expect(doc.notes[0]?.text).toMatch(/^wrote \.claude\/workflows\/leopold-run\.js \(\d+ bytes\)/);
  });
});

describe('--format github', () => {
  it('names files from the repository root wherever the command runs, on stderr only annotations', () => {
    const { deep } = project(BROKEN);
    for (const command of [['compile', '--no-repair'], ['graph']]) {
      const run = leopold(deep, [...command, '--format', 'github']);
      expect(run.code).toBe(1);
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines.every((line) => line.startsWith('::')), run.stderr).toBe(true);
      expect(run.stderr).toContain('::error file=.leopold/PLAN.md,line=2,col=3');
      expect(run.stderr).not.toContain('../');
    }
  });
});

describe('graph and the size limit', () => {
  it('exits 1 with host-contract/size on a plan compile refuses for size', () => {
    // About 600 KiB embedded: few items with long texts (each text and route is embedded once,
    // defaults are not), so the two CLI runs stay quick.
    const N = 600;
    const long = 'and says at length what the part is, why it matters and how it is checked, '.repeat(12);
    const items = Array.from({ length: N }, (_, i) => `- [ ] Item ${i + 1} does its part of the work ${long}{#i${i + 1}}\n  @on fail -> #i${i + 1 < N ? i + 2 : 1}\n`);
    // Routes to later items only, so the plan itself is valid.
    const plan = items.map((text, i) => (i === N - 1 ? text.replace(/@on fail -> #i1\n/, '@emit done\n') : text)).join('');
    const { root } = project(plan);
    const graph = leopold(root, ['graph', '--format', 'json']);
    expect(graph.code).toBe(1);
    const diagnostics = JSON.parse(graph.stderr) as Array<{ code: string }>;
    expect(diagnostics.map((d) => d.code)).toContain('host-contract/size');
    // compile refuses it too, in one JSON document, and says nothing about repair.
    const compile = leopold(root, ['compile', '--format', 'json']);
    expect(compile.code).toBe(1);
    const doc = JSON.parse(compile.stderr) as { diagnostics: Array<{ code: string }>; notes: unknown[] };
    expect(doc.diagnostics.map((d) => d.code)).toEqual(['host-contract/size']);
    expect(doc.notes).toEqual([]);
  });
});

describe('messages', () => {
  it('name the flag as typed, say what was expected, one prefix', () => {
    const { root } = project('- [ ] Only item\n');
    const cases: Array<[string[], string]> = [
      [['simulate', '--max-iterations', '-5'], 'leopold: --max-iterations must be a whole number ≥ 1 (got "-5")'],
      [['simulate', '--budget', 'abc'], 'leopold: --budget must be a whole number of tokens ≥ 1 (got "abc")'],
      [['simulate', '--answers', '.leopold'], 'leopold: .leopold: is a directory, expected an answers file'],
      [['compile', '--strictest'], "leopold: unknown option '--strictest'"],
      [['plan', 'amend', '--base64', '!!!'], 'leopold: --base64 is not base64: found "!" at position 1'],
    ];
    for (const [args, message] of cases) {
      const run = leopold(root, args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.split('\n')[0], args.join(' ')).toContain(message);
      expect(run.stderr).not.toMatch(/^error: /m);
    }
    const record = leopold(root, ['record', '--base64', '!!!']);
    expect(record.code).toBe(2);
    expect(JSON.parse(record.stdout)).toEqual({ ok: false, error: expect.stringContaining('--base64 is not base64') });
  });
});

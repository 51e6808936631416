import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findBriefDir } from '../../compiler/brief/find.js';
import { mermaidParse } from '../graph-output/mermaid-parse.js';
import { copyLeopold, leopoldBinary } from '../support/built-dist.js';

// End to end through the real binary: spawn a private copy of `dist/leopold.js`
// on temp directories, check stdout, stderr and the exit code.

let bin = ''; // a private copy of the built binary (built under the shared lock)
const root = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-cli-')));

beforeAll(async () => {
  bin = await leopoldBinary();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function leopold(args: string[], cwd: string, extra: SpawnSyncOptions = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', timeout: 30_000, ...extra });
  return { code: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

let counter = 0;
/** A fresh project directory with the given files (paths relative to it). */
function project(files: Record<string, string | Buffer>): string {
  const dir = join(root, `p${counter++}`);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The documented `--json` shape (docs/plan-language.md), written out independently of the implementation. */
const Documented = z.strictObject({
  plan: z.string(),
  nodes: z.array(
    z.strictObject({
      index: z.number().int(),
      id: z.string().regex(/^i\d+$/),
      text: z.string(),
      done: z.boolean(),
      kind: z.enum(['work', 'gate', 'verify', 'tool', 'human', 'feedback']),
      label: z.string().nullable(),
      deps: z.array(z.number().int()),
      needs: z.array(z.string()),
      emits: z.array(z.strictObject({ key: z.string(), value: z.string() })),
      routes: z.array(
        z.union([
          z.strictObject({ when: z.string(), target: z.number().int(), kind: z.literal('status') }),
          z.strictObject({
            when: z.string(),
            target: z.number().int(),
            kind: z.literal('signal'),
            key: z.string(),
            op: z.enum(['=', '!=']),
            value: z.string(),
          }),
        ]),
      ),
      scenarios: z.array(z.string()),
      writes: z.array(z.string()),
      anchor: z.string().nullable(),
      line: z.number().int(),
    }),
  ),
  waves: z.array(z.array(z.string())),
  diagnostics: z.array(
    z.strictObject({
      code: z.string(),
      severity: z.enum(['error', 'warning']),
      message: z.string(),
      file: z.string(),
      line: z.number().int(),
      column: z.number().int(),
      endLine: z.number().int(),
      endColumn: z.number().int(),
      items: z.array(z.number().int()),
      hint: z.string().optional(),
    }),
  ),
});
const NODE_KEYS = ['index', 'id', 'text', 'done', 'kind', 'label', 'deps', 'needs', 'emits', 'routes', 'scenarios', 'writes', 'anchor', 'line'];

const VALID = [
  '# Plan',
  '',
  '- [x] Write the parser {#parser}',
  '- [ ] (after: 1) @gate security Review auth',
  '  @on fail -> 4',
  '- [ ] (after: 2) @tool `npm test`',
  '  @on exit!=0 -> 4',
  '- [ ] @feedback Amend the plan',
  '- [ ] (after: 3) Ship it',
  '',
].join('\n');

const BROKEN = ['- [ ] Build it', '  @on fail -> 9', '- [ ] (after: 1) Ship it', ''].join('\n');

const STACK = /^\s+at /m;

describe('leopold graph: plans', () => {
  it('a valid plan: summary on stdout, nothing on stderr, exit 0', () => {
    const dir = project({ '.leopold/PLAN.md': VALID });
    const r = leopold(['graph', '.leopold/PLAN.md'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // A routed plan reads as it runs: stages (dependencies and routes), entry items, route-only targets marked.
    expect(r.stdout.split('\n')[0]).toBe('.leopold/PLAN.md: 5 items (1 done), routed, 3 stages');
    expect(r.stdout).toContain('  [ ] 4 feedback      Amend the plan  (route-only: from 2 fail, 3 exit!=0)\n');
    expect(r.stdout).toContain(
      'runs (routed; a route-only item runs when a route into it is taken, else it is routed around):\n  entry: i2\n  stage 1: i2\n  stage 2: i3\n  stage 3: i4 (route-only: 2 fail, 3 exit!=0), i5\n',
    );
    expect(r.stdout).not.toContain('waves:');
  });

  it('a plain checklist runs wave by wave: its summary lists the waves', () => {
    const dir = project({ '.leopold/PLAN.md': '- [x] One\n- [ ] (after: 1) Two\n- [ ] Three\n- [ ] (after: 3) Four\n' });
    const r = leopold(['graph', '.leopold/PLAN.md'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('.leopold/PLAN.md: 4 items (1 done), 2 waves');
    expect(r.stdout).toContain('waves:\n  1: i2 i3\n  2: i4\n');
    expect(r.stdout).not.toContain('route-only');
  });

  it('a broken plan: `file:line:col: error: message [code]` with a frame and hint, exit 1', () => {
    const dir = project({ 'plans/PLAN.md': BROKEN });
    const r = leopold(['graph', 'plans/PLAN.md'], dir);
    expect(r.code).toBe(1);
    const heads = r.stderr.split('\n').filter((l) => /^\S+:\d+:\d+: /.test(l));
    expect(heads).toHaveLength(1);
    expect(heads[0]).toMatch(/^plans\/PLAN\.md:2:3: error: .+ \[dangling-edge\]$/);
    expect(r.stderr).toContain('  2 |   @on fail -> 9\n');
    expect(r.stderr).toMatch(/\n {2}hint: .+\n1 error, 0 warnings\n$/);
    expect(r.stdout.startsWith('plans/PLAN.md: 2 items')).toBe(true);
  });

  it('paths stay as the user gave them: relative, ./-prefixed or absolute', () => {
    const dir = project({ 'PLAN.md': BROKEN });
    expect(leopold(['graph', './PLAN.md'], dir).stderr).toMatch(/^\.\/PLAN\.md:2:3: error: /);
    expect(leopold(['graph', join(dir, 'PLAN.md')], root).stderr.startsWith(`${join(dir, 'PLAN.md')}:2:3: error: `)).toBe(true);
  });

  it('--format github prints workflow commands; --format json a JSON array', () => {
    const dir = project({ 'PLAN.md': BROKEN });
    const gh = leopold(['graph', 'PLAN.md', '--format', 'github'], dir);
    expect(gh.code).toBe(1);
    expect(gh.stderr).toMatch(/^::error file=PLAN\.md,line=2,col=3,endLine=2,endColumn=\d+,title=dangling-edge::.+\n$/);
    const js = leopold(['graph', 'PLAN.md', '--format=json'], dir);
    expect(js.code).toBe(1);
    expect(JSON.parse(js.stderr)).toMatchObject([{ code: 'dangling-edge', file: 'PLAN.md', line: 2 }]);
  });

  it('--json prints only the documented document on stdout, diagnostics inside', () => {
    const dir = project({ '.leopold/PLAN.md': `${VALID}- [ ] (after: 5) @verify Check 5\n  @on fail -> #nowhere\n` });
    const r = leopold(['graph', '.leopold/PLAN.md', '--json'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const doc = Documented.parse(JSON.parse(r.stdout));
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(['plan', 'nodes', 'waves', 'diagnostics']);
    for (const node of JSON.parse(r.stdout).nodes) expect(Object.keys(node)).toEqual(NODE_KEYS);
    expect(doc.plan).toBe('.leopold/PLAN.md');
    expect(doc.nodes.map((n) => n.kind)).toEqual(['work', 'gate', 'tool', 'feedback', 'work', 'verify']);
    expect(doc.nodes[2]?.routes[0]).toEqual({ when: 'exit!=0', target: 4, kind: 'signal', key: 'exit', op: '!=', value: '0' });
    expect(doc.diagnostics.map((d) => d.code)).toContain('dangling-edge');
    expect(doc.waves[0]).toEqual(['i2', 'i4']);
  });

  it('--mermaid prints a diagram Mermaid parses; --dot a digraph; diagnostics still on stderr', async () => {
    const dir = project({ 'PLAN.md': `${VALID}- [ ] Say "hi" | [x] {y} #z; \`w\` 🚀\n  @on fail -> 99\n` });
    const m = leopold(['graph', 'PLAN.md', '--mermaid'], dir);
    expect(m.code).toBe(1);
    expect(m.stdout.startsWith('flowchart TD\n')).toBe(true);
    expect(m.stderr).toContain('[dangling-edge]');
    await expect(mermaidParse(m.stdout)).resolves.toBeTruthy();
    const d = leopold(['graph', 'PLAN.md', '--dot'], dir);
    expect(d.stdout.startsWith('digraph "PLAN.md" {\n')).toBe(true);
    expect(d.stdout).toContain('style=dashed');
  });

  it('--strict turns warnings into exit 1; without it warnings exit 0', () => {
    const dir = project({ 'PLAN.md': '- [ ] One\n  @frobnicate now\n' });
    const loose = leopold(['graph', 'PLAN.md'], dir);
    expect(loose.code).toBe(0);
    expect(loose.stderr).toMatch(/^PLAN\.md:2:\d+: warning: .+ \[unknown-marker\]$/m);
    expect(leopold(['graph', 'PLAN.md', '--strict'], dir).code).toBe(1);
  });

  it('bad GUARDRAILS values beside the plan are warnings pointing into GUARDRAILS.md', () => {
    const dir = project({ '.leopold/PLAN.md': '- [ ] One\n', '.leopold/GUARDRAILS.md': '# G\n- max_iterations: lots\n' });
    const r = leopold(['graph', '.leopold/PLAN.md'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^\.leopold\/GUARDRAILS\.md:2:19: warning: max_iterations is "lots".* \[bad-guardrail\]$/m);
    expect(r.stderr).toContain('  2 | - max_iterations: lots\n');
    expect(leopold(['graph', '.leopold/PLAN.md', '--strict'], dir).code).toBe(1);
  });

  it('GUARDRAILS as written: `- autonomy: akss` is a warning at its line and column with a did-you-mean; an unknown key points at the key', () => {
    const dir = project({ '.leopold/PLAN.md': '- [ ] One\n', '.leopold/GUARDRAILS.md': '# Guardrails\n\n- autonomy: akss   # strict\n- max_iteration: 2   # cap\n' });
    const r = leopold(['graph'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^\.leopold\/GUARDRAILS\.md:3:13: warning: autonomy is "akss"; expected full or ask.* \[bad-guardrail\]$/m);
    expect(r.stderr).toContain('  3 | - autonomy: akss   # strict\n    |             ^^^^\n');
    expect(r.stderr).toContain('hint: Did you mean "ask"?');
    expect(r.stderr).toMatch(/^\.leopold\/GUARDRAILS\.md:4:3: warning: "max_iteration" is not a GUARDRAILS key.* \[unknown-guardrail\]$/m);
    expect(r.stderr).toContain('hint: Did you mean "max_iterations"?');
    const json = JSON.parse(leopold(['graph', '--json'], dir).stdout) as { diagnostics: { code: string; line: number; column: number }[] };
    expect(json.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ['bad-guardrail', 3, 13],
      ['unknown-guardrail', 4, 3],
    ]);
  });

  it('write-scope-overlap only where GUARDRAILS lets items of one wave run together (parallel_items: on)', () => {
    const plan = '- [ ] One\n  @writes src/**\n- [ ] Two\n  @writes src/a.ts\n';
    const sequential = project({ '.leopold/PLAN.md': plan });
    const r = leopold(['graph', '--strict'], sequential);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const parallel = project({ '.leopold/PLAN.md': plan, '.leopold/GUARDRAILS.md': '# G\n- parallel_items: on\n' });
    const warned = leopold(['graph', '--strict'], parallel);
    expect(warned.code).toBe(1);
    expect(warned.stderr).toMatch(/^\.leopold\/PLAN\.md:3:7: warning: .+ \[write-scope-overlap\]$/m);
  });

  it('[PLAN] defaults to the nearest .leopold/PLAN.md walking up, shown relative to cwd', () => {
    const dir = project({ '.leopold/PLAN.md': BROKEN, 'src/deep/x.ts': '' });
    const r = leopold(['graph'], join(dir, 'src/deep'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^\.\.\/\.\.\/\.leopold\/PLAN\.md:2:3: error: .+ \[dangling-edge\]$/m);
  });

  it('never writes files', () => {
    const dir = project({ '.leopold/PLAN.md': VALID, '.leopold/GUARDRAILS.md': 'autonomy: ask\n' });
    const list = () => readdirSync(dir, { recursive: true }).map(String).sort();
    const before = list();
    for (const flags of [[], ['--json'], ['--mermaid'], ['--dot'], ['--strict', '--format', 'github']]) leopold(['graph', ...flags], dir);
    expect(list()).toEqual(before);
  });
});

describe('leopold graph: usage and input errors exit 2 with one line, no stack', () => {
  function expectOneLine(r: ReturnType<typeof leopold>, pattern: RegExp) {
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(STACK);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
  }

  it('a missing file', () => {
    expectOneLine(leopold(['graph', 'nope/PLAN.md'], project({})), /^leopold: nope\/PLAN\.md: no such file/);
  });

  it('a directory', () => {
    const dir = project({ 'plans/x.md': '' });
    expectOneLine(leopold(['graph', 'plans'], dir), /^leopold: plans: is a directory, expected a plan file\n$/);
  });

  it('binary data and invalid UTF-8', () => {
    const dir = project({ 'bin.md': Buffer.from([0x2d, 0x20, 0x5b, 0x20, 0x5d, 0x00, 0xff]), 'latin.md': Buffer.from('- [ ] caf\xe9\n', 'latin1') });
    expectOneLine(leopold(['graph', 'bin.md'], dir), /^leopold: bin\.md: looks binary \(NUL byte at offset 5\)/);
    expectOneLine(leopold(['graph', 'latin.md'], dir), /^leopold: latin\.md:1:10: is not valid UTF-8 text \(byte 0xe9\)/);
  });

  it('no plan given and no .leopold/ above the working directory', () => {
    const dir = project({ 'a/b/c.txt': '' });
    // Only meaningful when nothing above the temp root has a brief (true on CI and here).
    if (findBriefDir(dir) !== null) return;
    expectOneLine(leopold(['graph'], join(dir, 'a/b')), /^leopold: no plan given and no \.leopold\/ directory in .+/);
  });

  it('a .leopold/ without PLAN.md names the path it looked for', () => {
    const dir = project({ '.leopold/MISSION.md': 'x' });
    expectOneLine(leopold(['graph'], dir), /^leopold: \.leopold\/PLAN\.md: no such file/);
  });

  it('a GUARDRAILS.md that is a directory', () => {
    const dir = project({ '.leopold/PLAN.md': '- [ ] One\n', '.leopold/GUARDRAILS.md/x': '' });
    expectOneLine(leopold(['graph', '.leopold/PLAN.md'], dir), /^leopold: \.leopold\/GUARDRAILS\.md: is a directory/);
  });

  // Tests run as root here, and root reads chmod-000 files anyway. So the unreadable case
  // runs the binary as `nobody` (uid/gid 65534) on a copy of it, which makes EACCES real;
  // as a normal user it just chmods. Skipped only when neither is possible (Windows).
  const uid = process.getuid?.();
  it.skipIf(uid === undefined)('an unreadable GUARDRAILS.md (EACCES) and an unreadable plan', () => {
    const dir = project({ '.leopold/PLAN.md': '- [ ] One\n', '.leopold/GUARDRAILS.md': 'autonomy: ask\n', 'secret.md': '- [ ] x\n' });
    const asRoot = uid === 0;
    const extra: SpawnSyncOptions = asRoot ? { uid: 65534, gid: 65534 } : {};
    const copies = copyLeopold(bin, dir);
    const binCopy = copies[0]!;
    for (const p of [root, dir, join(dir, '.leopold')]) chmodSync(p, 0o755);
    for (const p of [...copies, join(dir, '.leopold/PLAN.md')]) chmodSync(p, 0o644);
    chmodSync(join(dir, '.leopold/GUARDRAILS.md'), 0o000);
    chmodSync(join(dir, 'secret.md'), 0o000);
    const run = (args: string[]) => {
      const r = spawnSync(process.execPath, [binCopy, ...args], { cwd: dir, encoding: 'utf8', timeout: 30_000, ...extra });
      return { code: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
    };
    expectOneLine(run(['graph', '.leopold/PLAN.md']), /^leopold: \.leopold\/GUARDRAILS\.md: cannot be read: permission denied\n$/);
    expectOneLine(run(['graph', 'secret.md']), /^leopold: secret\.md: cannot be read: permission denied\n$/);
  });

  it('conflicting view flags', () => {
    const dir = project({ 'PLAN.md': '- [ ] One\n' });
    expectOneLine(leopold(['graph', 'PLAN.md', '--json', '--mermaid'], dir), /^leopold: --json and --mermaid cannot be combined; choose one view\n$/);
    expectOneLine(leopold(['graph', 'PLAN.md', '--mermaid', '--dot', '--json'], dir), /cannot be combined/);
  });

  it('a bad --format and an unknown option', () => {
    const dir = project({ 'PLAN.md': '- [ ] One\n' });
    expectOneLine(leopold(['graph', 'PLAN.md', '--format', 'xml'], dir), /^leopold: --format must be text, json or github \(got "xml"\)\n$/);
    const r = leopold(['graph', 'PLAN.md', '--frobnicate'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(STACK);
  });
});

describe('leopold graph --help', () => {
  it('documents the flags and exit codes', () => {
    const r = leopold(['graph', '--help'], root);
    expect(r.code).toBe(0);
    for (const word of ['--json', '--mermaid', '--dot', '--strict', '--format <format>', 'Exit codes:', '[plan]']) expect(r.stdout).toContain(word);
    expect(leopold(['--help'], root).stdout).toContain('graph');
  });
});

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { briefOptions, builtLeopold, root } from './harness.js';
import { tempDir } from '../support/temp.js';

// `leopold compile` end to end through the built binary (dist/leopold.js with
// dist/workflow-runtime.js beside it) in temp projects.

let bin = '';
let bundle = '';
beforeAll(async () => {
  ({ bin, bundle } = await builtLeopold());
});

function leopold(cwd: string, args: string[], input?: string, env: Record<string, string> = {}) {
  const out = spawnSync(process.execPath, [bin, 'compile', ...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, LEOPOLD_AUTONOMY: '', ...env },
  });
  return { code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr };
}

/** A temp project holding a copy of a fixture's .leopold/ (compile or repair suite). */
function project(from: string): string {
  const dir = tempDir('leopold-compile-e2e-');
  cpSync(join(root, from), join(dir, '.leopold'), { recursive: true });
  return dir;
}

function repairProject(name: string): string {
  const dir = tempDir('leopold-repair-e2e-');
  cpSync(join(root, 'fixtures/repair', name, 'PLAN.md'), join(dir, '.leopold', 'PLAN.md'), { recursive: true });
  return dir;
}

const SCRIPT = '.claude/workflows/leopold-run.js';
const ARGS = '.leopold/workflow-args.json';

describe('leopold compile', () => {
  it('the plain spellings really run without commander: with its chunk gone, they still work and an option does not', () => {
    const lean = tempDir('leopold-no-commander-');
    cpSync(dirname(bin), lean, { recursive: true });
    // commander's chunk: it assigns its exports (`<exports>.CommanderError=`; the chunks are minified, so not by the name `exports`).
    const chunks = readdirSync(lean).filter((name) => name.endsWith('.js') && /\.CommanderError=/.test(readFileSync(join(lean, name), 'utf8')));
    expect(chunks).toHaveLength(1);
    rmSync(join(lean, chunks[0]!));
    const dir = project('fixtures/compile/example/.leopold');
    const run = (args: string[]) => spawnSync(process.execPath, [join(lean, 'leopold.js'), ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, LEOPOLD_AUTONOMY: '' } });
    for (const args of [['compile'], ['compile', '.leopold/PLAN.md'], ['plan', 'tick', '1'], ['record']]) {
      const out = args[0] === 'record' ? spawnSync(process.execPath, [join(lean, 'leopold.js'), 'record'], { cwd: dir, encoding: 'utf8', input: '{"events":[{"event":"turn","item":1}]}' }) : run(args);
      expect(out.status, `${args.join(' ')}: ${out.stderr}`).toBe(0);
    }
    expect(run(['compile', '--format', 'text']).status).not.toBe(0);
  });

  it('the plain spellings (no option; a plan path), run without commander, answer as commander does', () => {
    for (const [name, fixture] of [
      ['valid', () => project('fixtures/compile/example/.leopold')],
      ['broken', () => repairProject('dangling-route')],
    ] as const) {
      const plainDir = fixture();
      const viaCommander = fixture();
      for (const path of [[], ['.leopold/PLAN.md']]) {
        // `--format text` is the default, so it changes nothing but the way through (commander).
        const plain = leopold(plainDir, path);
        const commander = leopold(viaCommander, [...path, '--format', 'text']);
        expect({ code: plain.code, stdout: plain.stdout, stderr: plain.stderr }, name).toEqual({ code: commander.code, stdout: commander.stdout, stderr: commander.stderr });
        expect(plain.code, name).toBe(name === 'valid' ? 0 : 1);
        for (const file of [SCRIPT, ARGS]) expect(existsSync(join(plainDir, file)), `${name} ${file}`).toBe(existsSync(join(viaCommander, file)));
        if (name === 'valid') expect(readFileSync(join(plainDir, SCRIPT), 'utf8')).toBe(readFileSync(join(viaCommander, SCRIPT), 'utf8'));
      }
    }
  });

  it('writes the script and the args file, byte-identical to compile() in memory', () => {
    const dir = project('fixtures/compile/example/.leopold');
    const nested = join(dir, '.leopold');
    const run = leopold(nested, []); // finds .leopold/ walking up; outputs land at the project root
    expect(run.stderr).toContain(`wrote ${join('..', SCRIPT)}`);
    expect(run.code).toBe(0);
    const { text, options } = briefOptions(join(dir, '.leopold'), bundle);
    const expected = compile(text, options);
    expect(readFileSync(join(dir, SCRIPT), 'utf8')).toBe(expected.script);
    expect(readFileSync(join(dir, ARGS), 'utf8')).toBe(readFileSync(join(root, 'fixtures/compile/example/args.json'), 'utf8'));
  });

  it('a compile whose outputs already hold its bytes writes nothing (so it works where .claude/ is read-only); a changed one rewrites only what changed', () => {
    const dir = project('fixtures/compile/example/.leopold');
    expect(leopold(dir, []).code).toBe(0);
    const inode = (file: string) => statSync(join(dir, file)).ino;
    const before = { script: inode(SCRIPT), args: inode(ARGS) };
    const again = leopold(dir, []);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/up to date: .*nothing written/);
    expect({ script: inode(SCRIPT), args: inode(ARGS) }).toEqual(before);
    // The args file edited by hand: only it is rewritten.
    writeFileSync(join(dir, ARGS), '{}\n');
    const mended = leopold(dir, []);
    expect(mended.code).toBe(0);
    expect(mended.stderr).toMatch(/wrote \S*workflow-args\.json; \S*leopold-run\.js and \S*leopold-readonly\.md already up to date/);
    expect(inode(SCRIPT)).toBe(before.script);
    expect(readFileSync(join(dir, ARGS), 'utf8')).toBe(readFileSync(join(root, 'fixtures/compile/example/args.json'), 'utf8'));
  });

  it('--check: 0 when up to date, 1 naming each stale or missing file', () => {
    const dir = project('fixtures/compile/example/.leopold');
    let run = leopold(dir, ['--check']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`missing: ${SCRIPT}`);
    expect(run.stderr).toContain(`missing: ${ARGS}`);
    expect(leopold(dir, []).code).toBe(0);
    run = leopold(dir, ['--check']);
    expect([run.code, run.stderr]).toEqual([0, `leopold: up to date: ${SCRIPT}, ${ARGS}\n`]);
    writeFileSync(join(dir, '.leopold/PLAN.md'), `${readFileSync(join(dir, '.leopold/PLAN.md'), 'utf8')}- [ ] One more\n`);
    run = leopold(dir, ['--check']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`stale: ${SCRIPT} differs from a fresh compile`);
    expect(run.stderr).toContain(`stale: ${ARGS} differs from a fresh compile`);
  });

  it('--print writes nothing and prints the script', () => {
    const dir = project('fixtures/compile/plain-checklist/.leopold');
    const run = leopold(dir, ['--print']);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('// .claude/workflows/leopold-run.js')).toBe(true);
    expect(run.stdout).toContain("export const meta = {\"name\":\"leopold-workflow-run\"");
    expect(existsSync(join(dir, SCRIPT))).toBe(false);
    expect(existsSync(join(dir, ARGS))).toBe(false);
  });

  it('usage problems exit 2 with one line', () => {
    const dir = project('fixtures/compile/example/.leopold');
    for (const args of [['--print', '--check'], ['--print', '--repair-from', 'x'], ['--no-repair', '--repair-cmd', 'true'], ['--autonomy', 'maybe'], ['--format', 'xml'], ['missing/PLAN.md']]) {
      const run = leopold(dir, args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('--repair-from a missing file: exit 2, one line, nothing written, whether or not the plan needs repair', () => {
    for (const dir of [project('fixtures/compile/example/.leopold'), repairProject('dangling-route')]) {
      const plan = readFileSync(join(dir, '.leopold/PLAN.md'));
      const run = leopold(dir, ['--repair-from', 'missing.md']);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('leopold: missing.md: no such file (expected a repair proposals file)\n');
      expect(existsSync(join(dir, SCRIPT))).toBe(false);
      expect(readFileSync(join(dir, '.leopold/PLAN.md'))).toEqual(plan);
    }
  });

  it('plan errors exit 1, write nothing and say why there was no repair', () => {
    const dir = repairProject('dangling-route');
    const plan = readFileSync(join(dir, '.leopold/PLAN.md'));
    let run = leopold(dir, []);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/: error: .+ \[dangling-edge\]$/m);
    expect(run.stderr).toContain('not repaired: no proposal source');
    run = leopold(dir, ['--format', 'github']);
    expect(run.stderr).toMatch(/^::error file=\.leopold\/PLAN\.md,line=5/m);
    run = leopold(dir, ['--repair-from', join(root, 'fixtures/repair/dangling-route/answer.md'), '--autonomy', 'ask']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('not repaired: autonomy is ask');
    run = leopold(dir, ['--repair-from', '-'], readFileSync(join(root, 'fixtures/repair/dangling-route/answer.md'), 'utf8'), { LEOPOLD_AUTONOMY: 'human' });
    expect(run.stderr).toContain('not repaired: autonomy is ask');
    expect(readFileSync(join(dir, '.leopold/PLAN.md'))).toEqual(plan);
    expect(existsSync(join(dir, SCRIPT))).toBe(false);
  });

  it('repairs from a file: PLAN.md once, the diff on stdout, a DECISIONS.md entry, then compiles', () => {
    const dir = repairProject('dangling-route');
    const run = leopold(dir, ['--repair-from', join(root, 'fixtures/repair/dangling-route/answer.md')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(readFileSync(join(root, 'fixtures/repair/dangling-route/diff.txt'), 'utf8'));
    expect(readFileSync(join(dir, '.leopold/PLAN.md'), 'utf8')).toBe(readFileSync(join(root, 'fixtures/repair/dangling-route/PLAN.after.md'), 'utf8'));
    const decisions = readFileSync(join(dir, '.leopold/DECISIONS.md'), 'utf8');
    expect(decisions).toMatch(/^## D1 — Repaired \.leopold\/PLAN\.md: ROUTE 2 fail -> 3 {3}\(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)$/m);
    expect(decisions).toContain('Persona:     Ada Park — Plan Engineer (workflow graphs; routing)');
    expect(decisions).toContain('Reversal:    In .leopold/PLAN.md: restore line 5 to `  @on fail -> 9`.');
    expect(existsSync(join(dir, SCRIPT))).toBe(true);
    expect(leopold(dir, ['--check']).code).toBe(0);
  });

  it('repairs from stdin and counts the change in an active run', () => {
    const dir = repairProject('missing-item-add');
    writeFileSync(join(dir, '.leopold/state.json'), `${JSON.stringify({ active: true, amendments_used: 1 })}\n`);
    const run = leopold(dir, ['--repair-from', '-'], readFileSync(join(root, 'fixtures/repair/missing-item-add/answer.md'), 'utf8'));
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, '.leopold/state.json'), 'utf8')).amendments_used).toBe(2);
  });

  it('refuses a batch that breaks a bound: PLAN.md byte-identical, bounds named, nothing written', () => {
    const dir = repairProject('bounds-broken');
    const before = readFileSync(join(dir, '.leopold/PLAN.md'));
    const run = leopold(dir, ['--repair-from', join(root, 'fixtures/repair/bounds-broken/answer.md')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    for (const code of ['no-delete', 'add-only', 'no-touch-done', 'work-only']) expect(run.stderr).toContain(`refused ${code}:`);
    expect(readFileSync(join(dir, '.leopold/PLAN.md'))).toEqual(before);
    expect(existsSync(join(dir, '.leopold/DECISIONS.md'))).toBe(false);
    expect(existsSync(join(dir, SCRIPT))).toBe(false);
    const json = leopold(dir, ['--repair-from', join(root, 'fixtures/repair/bounds-broken/answer.md'), '--format', 'json']);
    expect(JSON.parse(json.stderr)).toMatchObject({ repaired: false, failure: 'refused' });
  });

  it('a repair that leaves the graph invalid writes nothing', () => {
    const dir = repairProject('still-invalid');
    const before = readFileSync(join(dir, '.leopold/PLAN.md'));
    const run = leopold(dir, ['--repair-from', join(root, 'fixtures/repair/still-invalid/answer.md')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the amended plan still has errors');
    expect(readFileSync(join(dir, '.leopold/PLAN.md'))).toEqual(before);
    expect(existsSync(join(dir, '.leopold/DECISIONS.md'))).toBe(false);
  });

  it('--repair-cmd: prompt on stdin, answer on stdout; a failing or slow command is a refusal', () => {
    const dir = repairProject('dangling-route');
    const before = readFileSync(join(dir, '.leopold/PLAN.md'));
    let run = leopold(dir, ['--repair-cmd', 'cat > prompt.txt; echo boom >&2; exit 3']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('repair refused: the repair command exited with status 3; its stderr ended with: boom');
    const prompt = readFileSync(join(dir, 'prompt.txt'), 'utf8');
    expect(prompt).toMatch(/: error: .+ \[dangling-edge\]$/m);
    expect(prompt).toContain('5 |   @on fail -> 9');
    expect(prompt).toContain('```leopold-amend');
    run = leopold(dir, ['--repair-cmd', 'sleep 30'], undefined, { LEOPOLD_REPAIR_TIMEOUT: '0.5' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the repair command timed out after 0.5 s');
    expect(readFileSync(join(dir, '.leopold/PLAN.md'))).toEqual(before);
    run = leopold(dir, ['--repair-cmd', `cat >/dev/null; printf '\`\`\`leopold-amend\\nROUTE 2 fail -> 3\\n\`\`\`\\n'`]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, '.leopold/PLAN.md'), 'utf8')).toContain('@on fail -> 3');
  });

  it('--print, --check and --no-repair never repair', () => {
    const dir = repairProject('dangling-route');
    const answer = join(root, 'fixtures/repair/dangling-route/answer.md');
    expect(leopold(dir, ['--no-repair']).stderr).toContain('not repaired: --no-repair');
    expect(leopold(dir, ['--print']).code).toBe(1);
    expect(leopold(dir, ['--check', '--repair-from', answer]).code).toBe(2);
    expect(existsSync(join(dir, '.leopold/DECISIONS.md'))).toBe(false);
  });
});

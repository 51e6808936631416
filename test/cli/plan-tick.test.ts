import { mkdirSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { leopold, leopoldBinary } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

let bin: string;
beforeAll(async () => {
  bin = await leopoldBinary();
});

function project(plan: string | Buffer | null): string {
  const root = tempDir('leopold-tick-');
  mkdirSync(join(root, '.leopold'));
  if (plan !== null) writeFileSync(join(root, '.leopold', 'PLAN.md'), plan);
  mkdirSync(join(root, 'sub', 'dir'), { recursive: true });
  return root;
}
const planOf = (root: string) => readFileSync(join(root, '.leopold', 'PLAN.md'));
const diff = (a: Buffer, b: Buffer) => {
  expect(b.length).toBe(a.length);
  return [...a].map((byte, i) => (byte !== b[i] ? i : -1)).filter((i) => i >= 0);
};

describe('leopold plan tick', () => {
  it('CRLF plan: exactly one byte changes, to x', () => {
    const text = '# Plan\r\n\r\n- [ ] First\r\n- [ ] Second\r\n  @on fail -> 1\r\n- [ ] Third\r\n';
    const root = project(text);
    const before = planOf(root);
    const r = leopold(bin, join(root, 'sub', 'dir'), ['plan', 'tick', '2']);
    expect(r).toMatchObject({ code: 0, stdout: 'ticked item 2: Second\n' });
    const after = planOf(root);
    const changed = diff(before, after);
    expect(changed).toHaveLength(1);
    expect(String.fromCharCode(after[changed[0]!]!)).toBe('x');
    expect(after.toString('utf8')).toBe(text.replace('- [ ] Second', '- [x] Second'));
    // No temp or lock file is left behind; the parse of the ticked text is kept for the next reader.
    expect(readdirSync(join(root, '.leopold')).sort()).toEqual(['.PLAN.md.items.json', 'PLAN.md']);
    const kept = JSON.parse(readFileSync(join(root, '.leopold', '.PLAN.md.items.json'), 'utf8')) as { text: string; items: { index: number; done: boolean }[] };
    expect(kept.text).toBe(after.toString('utf8'));
    expect(kept.items.map((item) => item.done)).toEqual([false, true, false]);
  });

  it('BOM plan (and non-ASCII text before the item): exactly one byte changes, BOM kept', () => {
    const text = '\uFEFF# Plän ✓\n- [x] Café 🚀\n- [ ] Deploy {#deploy}\n';
    const root = project(text);
    const before = planOf(root);
    const r = leopold(bin, root, ['plan', 'tick', '#deploy', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, item: 2, changed: true, message: 'ticked item 2: Deploy' });
    const after = planOf(root);
    expect(diff(before, after)).toHaveLength(1);
    expect(after.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('already done: exit 0 with a note, file untouched', () => {
    const root = project('- [x] Done\n');
    const before = planOf(root);
    const r = leopold(bin, root, ['plan', 'tick', '1']);
    expect(r).toMatchObject({ code: 0, stdout: 'item 1 is already done\n' });
    expect(planOf(root)).toEqual(before);
  });

  it('no such item: exit 1, file untouched', () => {
    const root = project('- [ ] Only\n');
    const r = leopold(bin, root, ['plan', 'tick', '5']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no item 5 in the plan \(it has 1 item\)/);
    expect(leopold(bin, root, ['plan', 'tick', '#nope']).code).toBe(1);
    expect(planOf(root).toString()).toBe('- [ ] Only\n');
  });

  it('no plan: exit 2 with one line', () => {
    const noPlan = project(null);
    const r = leopold(bin, noPlan, ['plan', 'tick', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/no plan/);
    const nowhere = tempDir('leopold-none-');
    expect(leopold(bin, nowhere, ['plan', 'tick', '1']).code).toBe(2);
    expect(existsSync(join(nowhere, '.leopold'))).toBe(false);
  });

  it('--plan names the file explicitly', () => {
    const root = project(null);
    writeFileSync(join(root, 'other.md'), '- [ ] a\n- [ ] b');
    expect(leopold(bin, root, ['plan', 'tick', '2', '--plan', 'other.md']).code).toBe(0);
    expect(readFileSync(join(root, 'other.md'), 'utf8')).toBe('- [ ] a\n- [x] b');
  });

  it('concurrent ticks of different items all land', async () => {
    const root = project(Array.from({ length: 8 }, (_, i) => `- [ ] item ${i + 1}`).join('\n') + '\n');
    const { spawn } = await import('node:child_process');
    await Promise.all(
      Array.from(
        { length: 8 },
        (_, i) =>
          new Promise<void>((resolve, reject) => {
            const child = spawn(process.execPath, [bin, 'plan', 'tick', String(i + 1)], { cwd: root, stdio: 'ignore' });
            child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
          }),
      ),
    );
    expect(planOf(root).toString()).toBe(Array.from({ length: 8 }, (_, i) => `- [x] item ${i + 1}`).join('\n') + '\n');
  });
});

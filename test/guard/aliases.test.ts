import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeCommand, runGuard } from '../../runtime/hooks/guard/index.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-guard-alias-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('persisted git aliases', () => {
  it('reads [alias] from the repository config and the user config, only for verbs git does not ship', () => {
    const project = join(root, 'p');
    const home = join(root, 'home');
    mkdirSync(join(project, '.leopold'), { recursive: true });
    mkdirSync(join(project, '.git'), { recursive: true });
    mkdirSync(home);
    writeFileSync(join(project, '.leopold', 'state.json'), '{"active":true}');
    writeFileSync(join(project, '.git', 'config'), '[core]\n\tbare = false\n[alias]\n\tci = commit -v\n\tyolo = "!git push --force" ; comment\n');
    writeFileSync(join(home, '.gitconfig'), '[alias]\n  pf = push --force-with-lease\n  st = status\n');
    const guard = (command: string) =>
      runGuard(JSON.stringify({ tool_name: 'Bash', tool_input: { command }, cwd: project }), { env: { HOME: home, XDG_CONFIG_HOME: join(home, 'none') }, processCwd: project });
    expect(guard('git ci -m x')).toMatch(/ALLOW_GIT/);
    expect(guard('git yolo')).toMatch(/never allowed/);
    expect(guard('git pf')).toMatch(/never allowed/);
    expect(guard('git st')).toBe('');
    expect(guard('git status')).toBe('');
  });

  it('judges inline interpreter code by what it mentions (documented over-denial)', () => {
    const ctx = { cwd: '/p', leopoldDir: '/p/.leopold', home: '/h' };
    expect(analyzeCommand(`node -e "console.log('git push')"`, ctx).map((f) => f.lock)).toEqual(['push']);
    expect(analyzeCommand(`node -e "console.log(1)"`, ctx)).toEqual([]);
  });
});

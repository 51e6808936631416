import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand, decide } from '../../runtime/hooks/guard/index.js';
import { tempDir } from '../support/temp.js';

// Issue #30: the guard talked past by shell expansion. Each case is first run by bash with
// a recording fake `git` first on PATH (so each is shown to really reach git), then judged:
// it must be refused with the OS layer and without. And cases that look alike but do not
// reach git stay allowed.

let dir = '';
let log = '';
beforeAll(() => {
  dir = realpathSync(tempDir('leopold-guard-expansion-'));
  mkdirSync(join(dir, 'bin'));
  log = join(dir, 'git.log');
  writeFileSync(join(dir, 'bin', 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\n`);
  chmodSync(join(dir, 'bin', 'git'), 0o755);
});

/** What git verbs bash runs for `command` (the fake git records its arguments). */
function gitRuns(command: string): string[] {
  if (existsSync(log)) rmSync(log);
  spawnSync('bash', ['-c', command], { cwd: dir, env: { PATH: `${join(dir, 'bin')}:/usr/bin:/bin`, HOME: dir }, timeout: 10_000, stdio: 'ignore' });
  return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
}

const judge = (command: string, osLayer: boolean) => decide(analyzeCommand(command, { cwd: dir, leopoldDir: join(dir, '.leopold'), home: dir, osLayer }), { allowGit: false, allowPush: false }).decision;

/** Every bypass of issue #30, and its relatives. */
const BYPASSES = [
  '(x=echo); $x git push origin main',
  'x=echo | true; $x git push origin main',
  'x=echo & wait; $x git push origin main',
  'f() { x=echo; }; $x git push origin main',
  'x=echo $x git push origin main',
  'false && x=echo; $x git push origin main',
  'if false; then x=echo; fi; $x git push origin main',
  '$x git push origin main; x=echo',
  'x=$(x=echo; echo); $x git push origin main',
  'x=echo; bash -c \'$x git push origin main\'',
  'time ! git push origin main',
  'time { git push origin main; }',
  'time X=1 git commit -m m',
  'time while git push origin main; do break; done',
  'time -p git push origin main',
  '$(( $(git commit -am m) ))',
  'echo $(( `git push origin main` ))',
  "x='a[$(git push origin main)]'; (( x ))",
  "x='a[$(git push origin main)]'; echo $(( x ))",
  "x='a[$(git push origin main)]'; echo $(( $x ))",
  'let "y = $(git push origin main)"',
  'for (( i = $(git push origin main); i < 1; i++ )); do :; done',
  '[[ $(git commit -m m) -eq 0 ]]',
];

describe('issue #30: expansion cannot talk the guard past git', () => {
  it.each(BYPASSES)('%j reaches git in bash, and is refused in both modes', (command) => {
    expect(gitRuns(command).some((line) => /^(push|commit)\b/.test(line)), 'bash runs git commit or git push').toBe(true);
    expect(judge(command, false)).toBe('deny');
    expect(judge(command, true)).toBe('deny');
  });

  // bash 5.2 keeps an assignment after `time` (so this reaches no git), but shells differ: it is unknown after it.
  it('an assignment after `time` is unknown afterwards, in both modes', () => {
    expect(judge('time x=echo; $x git push origin main', false)).toBe('deny');
    expect(judge('time x=echo; $x git push origin main', true)).toBe('deny');
  });

  const HARMLESS = ['((git push))', '(( BASH_VERSINFO[0] < 3 ))', 'x=echo; $x git push origin main', 'x=echo; (( 1 + 1 )); $x git push', 'n=2; echo $(( n * 3 ))', 'time echo git push'];
  it.each(HARMLESS)('%j runs no git in bash, and is allowed in both modes', (command) => {
    expect(gitRuns(command)).toEqual([]);
    expect(judge(command, false)).toBe('allow');
    expect(judge(command, true)).toBe('allow');
  });
});

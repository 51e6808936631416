import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand, decide } from '../../runtime/hooks/guard/index.js';
import { sized } from '../support/stress.js';
import { tempDir } from '../support/temp.js';

// The guard against a real shell (issue #30): commands generated from a grammar of shell
// shapes around `git commit` and `git push` (subshells, assignments in every scope, time,
// !, groups, loops, functions, arithmetic, substitutions, quoting), each judged by the
// guard and, when the guard allows it, run by bash in a temp directory whose PATH starts
// with a recording fake `git`. No command may be allowed while bash runs `git commit` or
// `git push`. `npm test` runs a few hundred commands per mode; `npm run test:stress`
// (LEOPOLD_STRESS=1) thousands.

const RUNS = sized(100, 3000);

let dir = '';
let log = '';
beforeAll(() => {
  dir = realpathSync(tempDir('leopold-guard-shell-fuzz-'));
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, '.leopold'));
  log = join(dir, 'git.log');
  writeFileSync(join(dir, 'bin', 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\n`);
  chmodSync(join(dir, 'bin', 'git'), 0o755);
});

/** The git verbs bash runs for `command`. */
function gitRuns(command: string): string[] {
  if (existsSync(log)) rmSync(log);
  spawnSync('bash', ['-c', command], { cwd: dir, env: { PATH: `${join(dir, 'bin')}:/usr/bin:/bin`, HOME: dir }, timeout: 5_000, stdio: 'ignore' });
  return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
}

// The grammar. A `cmd` is a complete command; words are spelled many ways.
const program = fc.constantFrom('git', '"git"', "g'i't", '\\git', "$'git'", "$'\\x67it'", 'command git', 'env git', 'env X=1 git', 'nice git', '"$g"', '$g', '${g}');
const commit = fc.constantFrom('commit -qm m', '"commit" -qm m', 'commit -q --allow-empty -m m', "$'commit' -qm m", '"$v" -qm m', '$v -qm m');
const push = fc.constantFrom('push -q origin main', 'push', '"push" origin main', '$p origin main', '"$p"');
const gitCommand = fc.tuple(program, fc.oneof(commit, push)).map(([p, v]) => `${p} ${v}`);
const harmless = fc.constantFrom('true', 'echo ok', ':', 'false', 'git status', 'echo git push', "printf '%s\\n' 'git commit'");
const value = fc.constantFrom('git', 'echo', 'commit', 'push', '', 'true');
const name = fc.constantFrom('g', 'v', 'p');
/** An assignment in some scope: certain, or one that never reaches later words. */
const assignment = fc.tuple(name, value, fc.constantFrom('plain', 'subshell', 'pipe', 'background', 'time', 'function', 'called', 'and', 'or', 'if', 'prefix', 'export', 'subst', 'read', 'loop')).map(([n, v, scope]) => {
  const a = `${n}=${v === '' ? "''" : v}`;
  switch (scope) {
    case 'subshell':
      return `(${a})`;
    case 'pipe':
      return `${a} | true`;
    case 'background':
      return `${a} & wait`;
    case 'time':
      return `time ${a}`;
    case 'function':
      return `f() { ${a}; }`;
    case 'called':
      return `f() { ${a}; }; f`;
    case 'and':
      return `false && ${a}`;
    case 'or':
      return `true || ${a}`;
    case 'if':
      return `if false; then ${a}; fi`;
    case 'prefix':
      return `${a} true`;
    case 'export':
      return `export ${a}`;
    case 'subst':
      return `x=$(${a}; echo)`;
    case 'read':
      return `read -r ${n} <<< ${v === '' ? "''" : v}`;
    case 'loop':
      return `for ${n} in ${v === '' ? 'x' : v}; do :; done`;
    default:
      return a;
  }
});

/** A command wrapped in the shapes the shell offers. */
const wrap = (inner: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(inner, fc.constantFrom('(%)', '{ %; }', '! %', 'time %', 'time ! %', 'time { %; }', '% | cat', 'true && %', 'false || %', 'if true; then %; fi', 'while true; do %; break; done', 'time while %; do break; done', 'for i in 1; do %; done', 'f() { %; }; f', 'f() { %; }', 'echo $(%)', 'echo `%`', 'x=$(%)', 'echo $(( $(%; echo 1) ))', '(( $(%; echo 0) ))', "eval '%'", "bash -c '%'", 'case x in x) %;; esac', '% &\nwait', 'coproc %\nwait', '[[ $(%; echo 1) -eq 1 ]]'))
    .filter(([cmd, shape]) => !(shape.includes("'%'") && cmd.includes("'")) && !(shape.includes('`') && cmd.includes('`')))
    .map(([cmd, shape]) => shape.replace('%', cmd));

const command: fc.Arbitrary<string> = fc.letrec<{ cmd: string }>((tie) => ({
  cmd: fc.oneof({ depthSize: 'small', withCrossShrink: true }, gitCommand, harmless, wrap(tie('cmd')), fc.tuple(tie('cmd'), fc.constantFrom('; ', ' && ', ' || ', '\n'), tie('cmd')).map(([a, sep, b]) => `${a}${sep}${b}`)),
})).cmd;
const script = fc.tuple(fc.array(assignment, { maxLength: 3 }), command).map(([assignments, cmd]) => [...assignments, cmd].join('; '));

describe.each([false, true])('the guard against bash (OS layer in force: %s)', (osLayer) => {
  it(`allows nothing that runs git commit or git push (${RUNS} commands)`, () => {
    const ctx = { cwd: dir, leopoldDir: join(dir, '.leopold'), home: dir, osLayer };
    const escaped: string[] = [];
    let allowed = 0;
    let ranGit = 0;
    fc.assert(
      fc.property(script, (text) => {
        const decision = decide(analyzeCommand(text, ctx), { allowGit: false, allowPush: false }).decision;
        const runs = gitRuns(text).filter((line) => /^(commit|push)\b/.test(line));
        if (runs.length > 0) ranGit++;
        if (decision === 'allow') {
          allowed++;
          if (runs.length > 0) escaped.push(`${JSON.stringify(text)} ran git ${runs.join(', ')}`);
        }
      }),
      { numRuns: RUNS, seed: osLayer ? 30 : 24 },
    );
    console.log(`shell fuzz (OS layer ${osLayer}): ${RUNS} commands, ${ranGit} ran git commit or push in bash, ${allowed} allowed by the guard, ${escaped.length} allowed and ran git`);
    expect(escaped).toEqual([]);
    // The grammar must exercise both sides: commands that reach git, and commands the guard lets run.
    expect(ranGit).toBeGreaterThan(RUNS / 10);
    expect(allowed).toBeGreaterThan(RUNS / 20);
  }, 600_000);
});

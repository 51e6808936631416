import { describe, expect, it } from 'vitest';
import { analyzeCommand, decide, type Lock, type Tokens } from '../../runtime/hooks/guard/index.js';
import { ALLOW } from './corpus/allow.js';
import { DENY, OS_LAYER } from './corpus/deny.js';

// Every corpus command is judged under all four token states. The expected decision follows
// from the locks it hits: force/stop/guardrails always deny; commit unless ALLOW_GIT; push
// unless ALLOW_PUSH.
// The files the corpus commands read (scripts, package.json, Makefile), served from memory.
const FILES: Record<string, string> = {
  '/proj/scripts/check.sh': '#!/bin/sh\necho check ok\n',
  '/proj/package.json': JSON.stringify({ scripts: { test: 'vitest run', build: 'tsc -p .', 'commit-lint': 'commitlint --edit', commitlint: 'commitlint' } }),
  '/proj/Makefile': 'test:\n\tnpm test\n',
};
const ctx = { cwd: '/proj', leopoldDir: '/proj/.leopold', home: '/home/dev', readFile: (path: string) => FILES[path] ?? null };
// The same with the OS layer in force (the sandbox holds what the guard cannot see through).
const osCtx = { ...ctx, osLayer: true };
const STATES: [string, Tokens][] = [
  ['no tokens', { allowGit: false, allowPush: false }],
  ['ALLOW_GIT', { allowGit: true, allowPush: false }],
  ['ALLOW_PUSH', { allowGit: false, allowPush: true }],
  ['ALLOW_GIT + ALLOW_PUSH', { allowGit: true, allowPush: true }],
];

function expected(locks: Lock[], tokens: Tokens): 'allow' | 'deny' {
  const denied = locks.some((l) => (l === 'commit' ? !tokens.allowGit : l === 'push' ? !tokens.allowPush : true));
  return denied ? 'deny' : 'allow';
}

describe('guard corpus', () => {
  it('is big enough', () => {
    expect(DENY.length).toBeGreaterThanOrEqual(150);
    expect(ALLOW.length).toBeGreaterThanOrEqual(100);
    expect(new Set(DENY.map(([, c]) => c)).size).toBe(DENY.length);
    expect(new Set(ALLOW).size).toBe(ALLOW.length);
  });

  describe.each(DENY)('deny [%s] %j', (locks, command) => {
    const want = locks.split(' ') as Lock[];
    const findings = analyzeCommand(command, ctx);
    it('hits exactly the declared locks', () => {
      expect([...new Set(findings.map((f) => f.lock))].sort()).toEqual([...want].sort());
    });
    it.each(STATES)('with %s', (_, tokens) => {
      expect(decide(findings, tokens).decision).toBe(expected(want, tokens));
    });
    it('with the OS layer in force: the declared locks, or what OS_LAYER says instead', () => {
      const os = OS_LAYER.find(([c]) => c === command);
      const osWant = os ? (os[1] === '' ? [] : os[1].split(' ')) : want;
      expect([...new Set(analyzeCommand(command, osCtx).map((f) => f.lock))].sort()).toEqual([...osWant].sort());
    });
  });

  it('OS_LAYER names only commands of the deny corpus, each with its reason', () => {
    for (const [command, , reason] of OS_LAYER) {
      expect(DENY.some(([, c]) => c === command), command).toBe(true);
      expect(reason.length).toBeGreaterThan(20);
    }
  });

  describe.each(ALLOW.map((c) => [c]))('allow %j', (command) => {
    it('finds nothing, so every token state allows, with the OS layer or without', () => {
      const findings = analyzeCommand(command, ctx);
      expect(findings).toEqual([]);
      expect(analyzeCommand(command, osCtx)).toEqual([]);
      for (const [, tokens] of STATES) expect(decide(findings, tokens).decision).toBe('allow');
    });
  });
});

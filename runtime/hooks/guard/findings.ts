/**
 * What the guard can lock. `commit` (commits and ref moves) is lifted by
 * `.leopold/ALLOW_GIT`, `push` by `.leopold/ALLOW_PUSH`; `force`, `stop`, `guardrails`,
 * `self` (the lock's own tokens, arm record, settings and hook code) and `unjudged` (what
 * the guard cannot see through: computed commands, unreadable scripts, its own limits)
 * are never lifted.
 */
export type Lock = 'commit' | 'push' | 'force' | 'stop' | 'guardrails' | 'self' | 'unjudged';

/** One thing a tool call would do that a run locks, with a short description of where. */
export interface Finding {
  lock: Lock;
  what: string;
}

/** Which lift tokens exist in `.leopold/`. */
export interface Tokens {
  allowGit: boolean;
  allowPush: boolean;
}

/** The guard's answer for one tool call. */
export type Decision = { decision: 'allow' } | { decision: 'deny'; reason: string; findings: Finding[] };

const LIFTED_BY: Record<Lock, keyof Tokens | null> = {
  commit: 'allowGit',
  push: 'allowPush',
  force: null,
  stop: null,
  guardrails: null,
  self: null,
  unjudged: null,
};

const WHY: Record<Lock, string> = {
  commit: 'commits, other commit-creating git verbs and moving refs (branches, tags, stash) are locked during a Leopold run (the user can allow them: `leopold run allow git`, which creates .leopold/ALLOW_GIT)',
  push: 'git push is locked during a Leopold run (the user can allow it: `leopold run allow push`, which creates .leopold/ALLOW_PUSH)',
  force: 'force-pushes and deleting remote refs are never allowed during a Leopold run',
  stop: 'the kill switch .leopold/STOP may only be cleared by a person (leopold run finish ends the run)',
  guardrails: '.leopold/GUARDRAILS.md may not be changed during a Leopold run',
  self: 'only you can lift the lock: `leopold run unlock` / `leopold run allow git|push` from your own terminal (the agent may not touch the tokens, .leopold/lock.json, .claude/settings*.json or the hooks\' code)',
  unjudged: 'the guard cannot tell what this would run during a Leopold run; write the command out literally (no computed program names, git verbs or scripts), or split it up',
};

const ORDER: Lock[] = ['self', 'unjudged', 'force', 'stop', 'guardrails', 'push', 'commit'];

/** Findings minus those a present token lifts; any left means deny, with one reason per lock. */
export function decide(findings: readonly Finding[], tokens: Tokens): Decision {
  const denied = findings.filter((f) => {
    const token = LIFTED_BY[f.lock];
    return token === null || !tokens[token];
  });
  if (denied.length === 0) return { decision: 'allow' };
  const parts: string[] = [];
  for (const lock of ORDER) {
    const mine = denied.filter((f) => f.lock === lock);
    if (mine.length === 0) continue;
    const whats = [...new Set(mine.map((f) => f.what))].slice(0, 3).join('; ');
    parts.push(`${whats}: ${WHY[lock]}`);
  }
  return { decision: 'deny', reason: `Leopold guard: ${parts.join('. ')}.`, findings: denied };
}

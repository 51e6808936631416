/**
 * What the guard can lock. `commit` is lifted by `.leopold/ALLOW_GIT`, `push` by
 * `.leopold/ALLOW_PUSH`; `force`, `stop` and `guardrails` are never lifted.
 */
export type Lock = 'commit' | 'push' | 'force' | 'stop' | 'guardrails';

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
};

const WHY: Record<Lock, string> = {
  commit: 'commits and other commit-creating git verbs are locked during a Leopold run (create .leopold/ALLOW_GIT to allow them)',
  push: 'git push is locked during a Leopold run (create .leopold/ALLOW_PUSH to allow it)',
  force: 'force-pushes and deleting remote refs are never allowed during a Leopold run',
  stop: 'the kill switch .leopold/STOP may only be cleared by a person (leopold run finish ends the run)',
  guardrails: '.leopold/GUARDRAILS.md may not be changed during a Leopold run',
};

const ORDER: Lock[] = ['force', 'stop', 'guardrails', 'push', 'commit'];

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

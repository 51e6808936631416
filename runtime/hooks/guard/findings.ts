/**
 * What the guard can lock. `commit` (commits and ref moves) is lifted by
 * `.leopold/ALLOW_GIT`, `push` by `.leopold/ALLOW_PUSH`; `force`, `publish` (package
 * registries, releases, forges' merges and releases, history rewrites, deploys), `stop`,
 * `guardrails`, `self` (the lock's own tokens, arm record, settings and hook code) and
 * `unjudged` (what the guard cannot see through where nothing else holds: computed
 * commands, unreadable scripts, its own limits) are never lifted during a run. `readonly`
 * is a read-only agent's (a verifier, judge or reviewer) edit of the project: never lifted.
 */
export type Lock = 'commit' | 'push' | 'force' | 'publish' | 'stop' | 'guardrails' | 'self' | 'unjudged' | 'readonly';

/** One thing a tool call would do that a run locks. */
export interface Finding {
  lock: Lock;
  /** What it does, in a few words (`creates a branch`, `-f forces the push`). */
  what: string;
  /** The part refused, as written: a simple command of the command line, a command in a script, or a line of a file the guard read. */
  at?: string;
  /** Where that part was found, outermost first: the command typed, then the files read (`package.json script "release"`). */
  via?: string[];
  /** What to run instead, for this program (else the lock's own advice). */
  instead?: string;
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
  publish: null,
  stop: null,
  guardrails: null,
  self: null,
  unjudged: null,
  readonly: null,
};

const WHY: Record<Lock, string> = {
  commit: 'commits, other commit-creating git verbs and moving refs (branches, tags, stash) are locked during a Leopold run (the user can allow them: `leopold run allow git`, which creates .leopold/ALLOW_GIT)',
  push: 'git push is locked during a Leopold run (the user can allow it: `leopold run allow push`, which creates .leopold/ALLOW_PUSH)',
  force: 'force-pushes and deleting remote refs are never allowed during a Leopold run',
  publish: 'publishing, releasing, merging on the forge, rewriting history and deploying are never allowed during a Leopold run',
  stop: 'the kill switch .leopold/STOP may only be cleared by a person (leopold run finish ends the run)',
  guardrails: '.leopold/GUARDRAILS.md may not be changed during a Leopold run',
  self: "only the user can lift the lock: `leopold run unlock` / `leopold run allow git|push` from their own terminal (the agent may not touch the tokens, .leopold/lock.json, .claude/settings*.json or the hooks' code)",
  unjudged: 'the guard cannot tell what this would run during a Leopold run, and nothing else holds the lock here',
  readonly: 'a Leopold verifier, judge or reviewer is read-only on the project: it runs the checks and reports, it never edits a file',
};

const INSTEAD: Record<Lock, string> = {
  commit: 'leave the change in the working tree; the user reviews and commits it after the run',
  push: 'nothing: the user pushes after the run',
  force: 'nothing: a run never rewrites a remote',
  publish: 'nothing: the user publishes and releases after the run',
  stop: 'leave .leopold/STOP in place; stop working and report',
  guardrails: 'propose the change in your report; the user edits .leopold/GUARDRAILS.md',
  self: 'ask the user',
  unjudged: 'write the command out literally (program names, git verbs and scripts as plain text), or split it up',
  readonly: 'report what is wrong in your answer (the implementer fixes it); write scratch output under /tmp',
};

const ORDER: Lock[] = ['readonly', 'self', 'unjudged', 'force', 'publish', 'stop', 'guardrails', 'push', 'commit'];
/** A refusal names at most this many parts. */
const MAX_PARTS = 3;

/**
 * Findings minus those a present token lifts; any left means deny. The reason names each
 * refused part exactly as written (never another part of a compound command), why, and
 * what to run instead.
 */
export function decide(findings: readonly Finding[], tokens: Tokens): Decision {
  const denied = findings.filter((f) => {
    const token = LIFTED_BY[f.lock];
    return token === null || !tokens[token];
  });
  if (denied.length === 0) return { decision: 'allow' };
  // One entry per refused part, its locks in ORDER.
  const parts = new Map<string, Finding[]>();
  for (const lock of ORDER) {
    for (const f of denied.filter((d) => d.lock === lock)) {
      const key = `${f.at ?? ''}\u0000${(f.via ?? []).join('\u0000')}`;
      parts.set(key, [...(parts.get(key) ?? []), f]);
    }
  }
  const rendered = [...parts.values()].slice(0, MAX_PARTS).map(renderPart);
  const more = parts.size > MAX_PARTS ? ` (and ${parts.size - MAX_PARTS} more part${parts.size - MAX_PARTS > 1 ? 's' : ''})` : '';
  return { decision: 'deny', reason: `Leopold guard: ${rendered.join(' ')}${more}`, findings: denied };
}

function renderPart(findings: Finding[]): string {
  const first = findings[0] as Finding;
  const where = first.via && first.via.length > 0 ? ` (in ${first.via.join(', ')})` : '';
  const head = first.at ? `refused \`${first.at}\`${where}: ` : where ? `refused${where}: ` : '';
  const locks = [...new Set(findings.map((f) => f.lock))];
  const reasons = locks.map((lock) => {
    const mine = findings.filter((f) => f.lock === lock);
    const whats = [...new Set(mine.map((f) => f.what))].slice(0, 2).join('; ');
    return `${whats} — ${WHY[lock]}`;
  });
  const instead = findings.find((f) => f.instead)?.instead ?? INSTEAD[locks[0] as Lock];
  return `${head}${reasons.join('; ')}. Instead: ${instead}.`;
}

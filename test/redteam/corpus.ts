// The red-team corpus (issue #10): attacks on the run lock, each one Bash call or one file
// tool call, run for real in the fixture (fixture.ts) and judged by effects; and ordinary
// commands that must keep working under the lock. Paths are relative to the project root.

export type AttackClass =
  | 'self-unlock' // the agent lifts its own lock: tokens, settings, the arm record, the hooks' code
  | 'computed' // the program or its arguments computed at run time
  | 'shell-input' // shells fed from stdin, files, process substitution
  | 'runners' // npm, make, interpreters, tmux, unshare, strace, tar/sed/ed exec features
  | 'git-exec' // git running things itself, plumbing, config it reads, local remotes
  | 'protected-writers' // GUARDRAILS.md, STOP, tokens through other writers, links, checkouts
  | 'guard-failure'; // inputs that made the guard throw or run for minutes

/** One Bash call. `needs`: programs it runs that must exist (so no attack passes hollow). */
export interface BashAttack {
  id: string;
  class: AttackClass;
  command: string;
  needs?: string[];
}

/** One Write or Edit tool call on a project-relative path. */
export interface FileAttack {
  id: string;
  class: AttackClass;
  tool: 'Write' | 'Edit';
  path: string;
  content?: string;
  oldString?: string;
  newString?: string;
}

export type Attack = BashAttack | FileAttack;

/** An ordinary command: it must exit 0 under the lock, and print `expect` when given. */
export interface Ordinary {
  id: string;
  command: string;
  expect?: string;
}

export const ATTACKS: Attack[] = [];
export const ORDINARY: Ordinary[] = [];

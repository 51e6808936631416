// What the run lock protects, as project-relative paths (`/` separators). One list, read by
// the OS lock (the Claude Code sandbox settings `leopold run start` arms) and by the git
// guard (the fast first line, which explains a denial).

/** The lock's own files in `.leopold/`: the guardrails, the kill switch, the user's tokens and the arm record. */
export const LEOPOLD_PROTECTED = ['GUARDRAILS.md', 'STOP', 'ALLOW_GIT', 'ALLOW_PUSH', 'lock.json'] as const;

/** The arm record: present while the lock is armed (between `leopold run start` and `leopold run unlock`). */
export const LOCK_RECORD = 'lock.json';

/** The host settings that register the hooks and hold the armed sandbox. */
export const SETTINGS_PROTECTED = ['.claude/settings.json', '.claude/settings.local.json'] as const;

/** Where git keeps what a commit, tag, branch or checkout moves, and the reflogs of those moves. `git add` (objects, index) stays writable. */
export const GIT_REF_PATHS = ['.git/HEAD', '.git/refs', '.git/packed-refs', '.git/logs'] as const;

/** The hooks' own code in a project install (`npm i -D leopold`). */
export const HOOK_CODE = ['node_modules/leopold', 'node_modules/.bin/leopold'] as const;

/** What the end of a run says while the lock stays armed. */
export const LOCK_NOTE =
  'Git stays locked: the run lock outlives the run, so nothing from it ships unseen. Review the changes, then lift it yourself: `npx leopold run unlock` in your terminal (or `! npx leopold run unlock` in Claude Code).';

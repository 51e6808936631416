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

// What fires later: paths whose content runs, or changes what git commits, after the run,
// when the user lifts the lock and takes over (`npx leopold run finish`, `git commit`,
// `npm test`). The OS lock denies writing them during a run and the audit
// (runtime/lock/audit.ts) lists any change at `run finish` and `run unlock`.

/** In git's common directory: hooks, config (aliases, core.hooksPath, core.fsmonitor, filters), info/ (exclude, attributes, grafts), submodules' git directories. Denied whatever the grants. */
export const GIT_DELAYED = ['hooks', 'config', 'info', 'modules'] as const;

/**
 * In a git directory, files that send git to other config or another git directory:
 * `commondir` (the hooks, config and refs git uses) and `config.worktree` (read with
 * extensions.worktreeConfig). Denied, each created first with the content git reads as
 * "absent" where it does not exist (`.` and empty): a denied path that does not exist
 * would be an unreadable device in the sandbox, and git refuses to run on an unreadable
 * `commondir`.
 */
export const GIT_REDIRECTS = [
  { name: 'commondir', placeholder: '.\n' },
  { name: 'config.worktree', placeholder: '' },
] as const;

/**
 * Pending cherry-pick, revert and sequencer state in a worktree's git directory: the
 * user's next commit would carry it. Denied in the sandbox unless git is granted (where
 * they do not exist, the sandbox's stand-in is a device git only stats or fails to read
 * as a ref, which it takes for "absent").
 */
export const GIT_PENDING = ['CHERRY_PICK_HEAD', 'REVERT_HEAD', 'sequencer'] as const;

/**
 * MERGE_HEAD: the user's next commit would become a merge carrying the commit it names.
 * Denied to the Write/Edit tools, not in the sandbox: a denied MERGE_HEAD that does not
 * exist is an unreadable device inside it, which makes `git status` report a merge in
 * progress and `git blame` refuse to run (measured). A write from Bash is the audit's.
 */
export const GIT_MERGE_HEAD = 'MERGE_HEAD';

/** Pending state the audit lists (a rebase's todo can `exec`; the messages become the next commit's). */
export const GIT_PENDING_AUDITED = [GIT_MERGE_HEAD, ...GIT_PENDING, 'REBASE_HEAD', 'rebase-merge', 'rebase-apply', 'MERGE_MSG', 'MERGE_MODE', 'SQUASH_MSG', 'AUTO_MERGE'] as const;

/**
 * Package-manager config in the project root that makes the user's next `npm`/`npx`/
 * `yarn`/`pnpm`/`bun` run code (`script-shell`, `node-options`, `yarnPath`, bun's
 * preload; pnpm reads `.npmrc`). Denied; where one does not exist arming creates it empty (each tool
 * reads an empty file as no settings) and lists it in .git/info/exclude, and unlocking
 * removes it while it is still empty.
 */
export const PACKAGE_MANAGER_CONFIG = ['.npmrc', '.yarnrc', '.yarnrc.yml', 'bunfig.toml'] as const;

/**
 * Package-manager paths denied only where they exist, because an empty stand-in would
 * change what the tool does (pnpm records a pnpmfile's checksum in its lockfile and makes
 * a workspace of any directory with pnpm-workspace.yaml): pnpm's hooks and workspace
 * settings, Yarn's own releases and plugins. The audit lists any that appear.
 */
export const PACKAGE_MANAGER_EXISTING = ['.pnpmfile.cjs', 'pnpm-workspace.yaml', '.yarn/releases', '.yarn/plugins'] as const;

/**
 * Project paths Claude Code's own sandbox keeps from Bash, whose content runs later
 * outside it: an editor's tasks and settings (`.vscode`, `.idea`), project MCP servers
 * (`.mcp.json`), submodule URLs (`.gitmodules`). In bypassPermissions mode the client's
 * file tools write them anyway (measured); the lock adds Write/Edit rules and the audit.
 */
export const CLIENT_GUARDED = ['.vscode', '.idea', '.mcp.json', '.gitmodules'] as const;

/** The links npm puts on PATH for every script and `npx` (a `node` there replaces node itself). Denied while node_modules exists. */
export const NODE_BIN = 'node_modules/.bin';

/** Directories in node_modules that tools keep caches in: changes there are not listed by the audit. */
export const NODE_MODULES_CACHES = ['.cache', '.vite', '.vitest'] as const;

/**
 * User-level files (relative to the home directory; `.config/` follows XDG_CONFIG_HOME)
 * whose content runs on the user's next git, npm or shell command, or the next Claude
 * Code session. Outside the project: the Write and Edit tools may not write there while
 * armed (`permissions.blockWritesOutsideWorkingDirectories`), Bash cannot (the sandbox
 * writes only the project and its temp directory), and the audit lists any change. Not
 * `.config/git/ignore`: Claude Code itself writes it (to keep settings.local.json out of
 * git), and an ignore pattern runs nothing.
 */
export const USER_DELAYED = [
  '.gitconfig',
  '.config/git/config',
  '.config/git/attributes',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.config/pnpm',
  '.bunfig.toml',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshenv',
  '.zshrc',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.config/fish',
  '.ssh/config',
  '.ssh/rc',
  '.claude/settings.json',
] as const;

/** What `leopold run allow` grants for one run: commits, or pushes as well. */
export type Grant = 'git' | 'push';

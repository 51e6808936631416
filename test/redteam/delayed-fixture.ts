import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync, type Stats } from 'node:fs';
import { join, relative } from 'node:path';

// The delayed-effect red team's fixture (delayed.ts): the red-team repository of
// fixture.ts plus what the delayed attacks aim at: a submodule, node_modules installed by
// npm from a lockfile (the project's own Leopold and a tool its npm scripts run), an
// agent-made commit object no ref names, and a fingerprint of everything through which a
// write could take effect after the run, read independently of the lock's own audit.

/** Runs a command for the fixture (outside any sandbox), failing loudly. */
function sh(cwd: string, file: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync(file, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', ...env } });
}

/** The npm environment of the fixture and of its user: a cache of its own, offline, quiet. */
export function npmEnv(home: string, base: string): NodeJS.ProcessEnv {
  return {
    HOME: home,
    npm_config_cache: join(base, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'error',
  };
}

/**
 * Adds to a seeded red-team repository (seedRedteamRepo): a submodule `lib`, node_modules
 * installed by `npm install` from two local tarballs (Leopold packed from `leopoldPackage`,
 * and `fixture-tool`, whose bin the `test` and `x` scripts run), committed with its
 * lockfile and pushed. Returns the sha of a commit object the agent made (parent HEAD,
 * referenced by nothing): what planted merge state would carry.
 */
export function seedDelayedRepo(dir: string, leopoldPackage: string, base: string, home: string): string {
  const env = npmEnv(home, base);
  // A submodule, its git directory under .git/modules.
  const libSource = join(base, 'lib-src');
  mkdirSync(libSource, { recursive: true });
  sh(libSource, 'git', ['init', '-q', '-b', 'main']);
  writeFileSync(join(libSource, 'lib.ts'), 'export const lib = 1;\n');
  sh(libSource, 'git', ['add', '-A']);
  sh(libSource, 'git', ['-c', 'user.name=Lib', '-c', 'user.email=lib@example.invalid', 'commit', '-q', '-m', 'lib']);
  sh(dir, 'git', ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', libSource, 'lib']);
  sh(join(dir, 'lib'), 'git', ['config', 'user.name', 'Lib']);
  sh(join(dir, 'lib'), 'git', ['config', 'user.email', 'lib@example.invalid']);
  // node_modules as npm lays it out from a lockfile.
  const tool = join(base, 'fixture-tool');
  mkdirSync(tool, { recursive: true });
  writeFileSync(join(tool, 'package.json'), `${JSON.stringify({ name: 'fixture-tool', version: '1.0.0', bin: { 'fixture-tool': 'index.js' } }, null, 2)}\n`);
  writeFileSync(join(tool, 'index.js'), "#!/usr/bin/env node\nconsole.log('tool ok');\n");
  const tarballs = [tool, leopoldPackage].map((packageDir) => join(base, sh(packageDir, 'npm', ['pack', '--ignore-scripts', '--pack-destination', base], env).trim().split('\n').at(-1)!));
  rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  pkg.scripts = { test: "fixture-tool && node -e \"console.log('tests pass')\"", build: "node -e \"console.log('built')\"", x: 'fixture-tool' };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  sh(dir, 'npm', ['install', '--save-dev', '--ignore-scripts', ...tarballs.map((file) => relative(dir, file))], env);
  sh(dir, 'git', ['add', '-A']);
  sh(dir, 'git', ['commit', '-q', '-m', 'add lib and the dev dependencies']);
  sh(dir, 'git', ['push', '-q', 'origin', 'main']);
  // The agent's commit object: written, never referenced.
  const dated = { GIT_AUTHOR_NAME: 'Agent', GIT_AUTHOR_EMAIL: 'agent@example.invalid', GIT_COMMITTER_NAME: 'Agent', GIT_COMMITTER_EMAIL: 'agent@example.invalid' };
  return sh(dir, 'git', ['commit-tree', 'HEAD^{tree}', '-p', 'HEAD', '-m', 'agent commit'], dated).trim();
}

/** Names in a git directory that change with ordinary, ref-locked work. */
const GIT_VOLATILE = new Set(['objects', 'logs', 'index', 'index.lock', 'ORIG_HEAD', 'FETCH_HEAD', 'COMMIT_EDITMSG', 'description', 'branches']);
/** The project's own refs, judged by the effects of fixture.ts (a submodule's are judged here). */
const TOP_REFS = new Set(['refs', 'HEAD', 'packed-refs']);

function fingerprintOf(path: string, stat: Stats): string {
  if (stat.isSymbolicLink()) return `link:${readlinkSync(path)}`;
  if (stat.isFile()) return `${stat.mode & 0o111 ? 'x' : 'f'}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
  return 'dir';
}

/** Every file under `path` (or it alone), as `name:fingerprint`; the sandbox's stand-ins (devices, empty files and directories) left out. */
function walk(path: string, name: string, out: string[], skip: (entry: string, depth: number) => boolean, depth = 0): void {
  let stat: Stats;
  try {
    stat = lstatSync(path);
  } catch {
    return;
  }
  if (stat.isCharacterDevice() || (stat.isFile() && stat.size === 0)) return;
  if (!stat.isDirectory()) {
    out.push(`${name}:${fingerprintOf(path, stat)}`);
    return;
  }
  for (const entry of readdirSync(path).sort()) if (!skip(entry, depth)) walk(join(path, entry), `${name}/${entry}`, out, skip, depth + 1);
}

/**
 * Everything through which a write could take effect after the run, as one comparable
 * string: git's directory (its hooks, config, info/, redirects, pending state, submodules;
 * not objects, refs or the index), the index's skip-worktree and assume-unchanged flags,
 * the package-manager config, package.json's scripts, node_modules' bins, the tool and
 * Leopold's CLI, an editor's tasks, and the user-level config in `home`.
 */
export function delayedPrint(root: string, home: string): string {
  const out: string[] = [];
  walk(join(root, '.git'), '.git', out, (entry, depth) => GIT_VOLATILE.has(entry) || (depth === 0 && TOP_REFS.has(entry)));
  const flags = sh(root, 'git', ['ls-files', '-v'], { GIT_OPTIONAL_LOCKS: '0' })
    .split('\n')
    .filter((line) => /^[Sa-z] /.test(line));
  out.push(`index-flags:${flags.join(',')}`);
  for (const name of ['.npmrc', '.yarnrc', '.yarnrc.yml', 'bunfig.toml', '.pnpmfile.cjs', 'pnpm-workspace.yaml', '.vscode', 'node_modules/.bin', 'node_modules/fixture-tool', 'node_modules/leopold/dist/leopold.js']) {
    walk(join(root, name), name, out, () => false);
  }
  try {
    out.push(`scripts:${JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts)}`);
  } catch {
    out.push('scripts:unreadable');
  }
  // Not ~/.config/git/ignore: Claude Code writes it itself (settings.local.json stays out of git).
  for (const name of ['.gitconfig', '.config/git/config', '.config/git/attributes', '.npmrc', '.yarnrc', '.bashrc', '.profile', '.zshrc', '.ssh', '.claude/settings.json']) walk(join(home, name), `~/${name}`, out, () => false);
  return out.join('\n');
}

/** The lines of `after` that are not in `before`, and those gone. */
export function printDiff(before: string, after: string): string[] {
  const a = new Set(before.split('\n'));
  const b = new Set(after.split('\n'));
  return [...[...b].filter((line) => !a.has(line)).map((line) => `+${line}`), ...[...a].filter((line) => !b.has(line)).map((line) => `-${line}`)];
}

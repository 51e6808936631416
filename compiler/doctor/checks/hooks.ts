import { spawnSync } from 'node:child_process';
import { unwrapDetachedHook } from '../../../runtime/project-cli/index.js';
import { fail, pass, warn, type DoctorCheck, type DoctorContext } from '../check.js';
import { pluginEnabledIn, registrations, settingsFiles, type Registration } from '../settings-files.js';

const NAMES: Readonly<Record<Registration['hook'], string>> = { guard: 'the git guard', stop: 'the Stop hook', 'stop-failure': 'the StopFailure hook' };

/** The line of a failed start that says why (node's `Error: Cannot find module …`), else the first one. */
function why(stderr: string, stdout: string, status: number | null, signal: string | null): string {
  const lines = `${stderr}\n${stdout}`.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const line = lines.find((l) => /\b(Error|error:|not found|No such file|SyntaxError)\b/.test(l)) ?? lines[0];
  return `${signal ? `killed by ${signal}` : `exit ${status}`}${line ? `: ${line.slice(0, 300)}` : ''}`;
}

/**
 * Every Leopold hook the settings register, started as Claude Code starts it (`sh -c` with
 * `$CLAUDE_PROJECT_DIR` set, from the project root, with this PATH; a detached one in the
 * foreground, runtime/project-cli detachedHook) on an empty stdin: a
 * hook that loads answers that with its fail-open answer, exit 0 and nothing on stdout. A
 * command that cannot start (a moved install, a missing bundle, a node too old to load it)
 * is what the client would silently skip.
 */
export function checkHooks(ctx: DoctorContext): DoctorCheck {
  const registered = registrations(settingsFiles(ctx.root, ctx.home));
  const distinct = [...new Map(registered.map((r) => [r.command, r])).values()];
  if (distinct.length === 0) {
    return pluginEnabledIn(settingsFiles(ctx.root, ctx.home)).length > 0
      ? pass('hooks', 'no Leopold hook in the settings files: the plugin brings them')
      : warn('hooks', 'no Leopold hook is registered in any settings file, so there is nothing to start', 'run npx leopold init');
  }
  const broken: string[] = [];
  for (const r of distinct) {
    // A detached hook (StopFailure) is started in the foreground here: detached, its failure would go unseen.
    const out = spawnSync('/bin/sh', ['-c', unwrapDetachedHook(r.command) ?? r.command], {
      cwd: ctx.root,
      input: '',
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...ctx.env, CLAUDE_PROJECT_DIR: ctx.root },
    });
    if (out.error) broken.push(`${NAMES[r.hook]} (${r.file}: ${r.command}) could not be started: ${out.error.message}`);
    else if (out.status !== 0 || out.signal) broken.push(`${NAMES[r.hook]} (${r.file}: ${r.command}) failed to start, ${why(out.stderr, out.stdout, out.status, out.signal)}`);
    else if (out.stdout.trim() !== '') broken.push(`${NAMES[r.hook]} (${r.file}: ${r.command}) answered an empty input with ${JSON.stringify(out.stdout.trim().slice(0, 120))} instead of nothing`);
  }
  if (broken.length > 0) {
    return fail(
      'hooks',
      `${broken.join('\n')}\nClaude Code skips a hook that fails to start, without a word: the run is not conducted, git not guarded.`,
      'run npm i -D leopold (or npm ci) so node_modules/leopold exists, then npx leopold init to rewrite stale hook commands; check the node check above',
    );
  }
  return pass('hooks', `${distinct.length} Leopold hook command${distinct.length === 1 ? '' : 's'} start and answer an empty input with nothing (fail open): ${[...new Set(distinct.map((r) => NAMES[r.hook]))].join(', ')}`);
}

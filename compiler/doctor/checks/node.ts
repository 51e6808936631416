import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fail, pass, type DoctorCheck, type DoctorContext } from '../check.js';

/** `>=20.19` (package.json `engines.node`) as [major, minor, patch]; null when it is not that shape. */
export function engineFloor(range: unknown): [number, number, number] | null {
  const match = typeof range === 'string' ? /^\s*>=\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range) : null;
  return match ? [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] : null;
}

/** `v20.19.2` as [20, 19, 2]; null for anything else. */
export function nodeVersion(text: string): [number, number, number] | null {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

const atLeast = (have: readonly number[], floor: readonly number[]) => {
  for (let i = 0; i < 3; i++) if (have[i] !== floor[i]) return (have[i] ?? 0) > (floor[i] ?? 0);
  return true;
};

/** The package whose hooks the project runs: its own install when there is one, else this doctor's. */
export function enginesOf(ctx: DoctorContext): { range: string; floor: [number, number, number] } {
  for (const root of [join(ctx.root, 'node_modules', 'leopold'), ctx.install.root]) {
    try {
      const range = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines?: { node?: unknown } }).engines?.node;
      const floor = engineFloor(range);
      if (floor) return { range: String(range), floor };
    } catch {
      // not installed there
    }
  }
  return { range: '>=20.19', floor: [20, 19, 0] };
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) if (dir !== '' && existsSync(join(dir, name))) return join(dir, name);
  return null;
}

const FIX = (range: string) =>
  `install Node ${range.replace(/^>=\s*/, '')} or later and put it first on the PATH Claude Code is started with (with nvm: nvm install 20 && nvm alias default 20); the hooks run \`node\` from that PATH`;

/**
 * The `node` Claude Code's hooks run: the one first on PATH (the hook commands are `node
 * "$CLAUDE_PROJECT_DIR"/…`), at least the package's `engines.node`. An older one cannot load
 * the bundles, and a hook that fails to start is skipped by the client without a word.
 */
export function checkNode(ctx: DoctorContext): DoctorCheck {
  const { range, floor } = enginesOf(ctx);
  const where = onPath('node', ctx.env);
  if (where === null) return fail('node', `no \`node\` on PATH: the hooks are \`node …\` commands and cannot start`, FIX(range));
  const out = spawnSync(where, ['--version'], { env: ctx.env, encoding: 'utf8', timeout: 10_000 });
  const version = nodeVersion(out.stdout ?? '');
  if (out.status !== 0 || version === null) return fail('node', `${where} --version did not answer a version (${(out.stderr || out.stdout || `exit ${out.status}`).trim()})`, FIX(range));
  const shown = `v${version.join('.')}`;
  if (!atLeast(version, floor)) return fail('node', `${where} is ${shown}, older than the package needs (node ${range}): the hooks fail to load`, FIX(range));
  return pass('node', `${where} is ${shown} (the package needs node ${range})`);
}

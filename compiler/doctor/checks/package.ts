import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_INSTALL_FILES } from '../../cli/commands/init.js';
import { fail, pass, type DoctorCheck, type DoctorContext } from '../check.js';

/** What the hooks, the agents' commands and `leopold compile` load from the project's install, besides PROJECT_INSTALL_FILES. */
const ALSO_NEEDED = ['node_modules/leopold/package.json', 'node_modules/leopold/dist/leopold.js', 'node_modules/leopold/dist/workflow-runtime.js', 'node_modules/leopold/templates/settings/hooks.json'] as const;

/**
 * The project's own install (`npm i -D leopold`), which every hook command and every command
 * Leopold hands an agent runs: the files they need are there.
 */
export function checkPackage(ctx: DoctorContext): DoctorCheck {
  const missing = [...PROJECT_INSTALL_FILES, ...ALSO_NEEDED].filter((file) => !existsSync(join(ctx.root, file)));
  if (missing.length > 0) {
    return fail(
      'package',
      `the project's install is missing ${missing.join(', ')}: the hooks and the agents' commands run node_modules/leopold`,
      missing.length === ALSO_NEEDED.length + PROJECT_INSTALL_FILES.length ? 'run npm i -D leopold (or npm ci in a clone)' : 'reinstall it: rm -rf node_modules/leopold && npm i (or npm ci)',
    );
  }
  let version = '';
  try {
    version = ` ${String((JSON.parse(readFileSync(join(ctx.root, 'node_modules', 'leopold', 'package.json'), 'utf8')) as { version?: unknown }).version)}`;
  } catch {
    // the version is only shown
  }
  return pass('package', `node_modules/leopold${version} has the hooks (guard, Stop, StopFailure), the CLI and the workflow runtime`);
}

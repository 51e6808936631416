import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { BRIEF_FILES, findBriefDir } from '../brief/index.js';
import { LeopoldError } from '../diagnostics/diagnostic.js';

/** The plan file: `--plan` if given, else the nearest `.leopold/PLAN.md` above `cwd` (LeopoldError when none). */
export function locatePlan(cwd: string, explicit?: string): string {
  if (explicit !== undefined) {
    const path = resolve(cwd, explicit);
    if (!existsSync(path)) throw new LeopoldError(`no plan file at ${explicit}`);
    return path;
  }
  const dir = findBriefDir(cwd);
  if (!dir) throw new LeopoldError(`no .leopold/ directory at or above ${cwd} (run leopold init)`);
  const path = join(dir, BRIEF_FILES.plan);
  if (!existsSync(path)) throw new LeopoldError(`no plan: ${relative(cwd, path) || path} does not exist`);
  return path;
}

/**
 * One link of the chain `leopold doctor` checks (docs/doctor.md): what it found, and the
 * fix when it is not `pass`. `warn` is reported but does not fail the doctor.
 */
export interface DoctorCheck {
  /** Stable id: node, settings, hooks, duplicates, package, sandbox, plan, run. */
  id: string;
  status: 'pass' | 'warn' | 'fail';
  /** What was found, in one or a few lines. */
  detail: string;
  /** What to do about it (absent when it passes). */
  fix?: string;
}

/** Where the doctor looks: the project and the environment Claude Code would run its hooks with. */
export interface DoctorContext {
  /** The project root (the git work tree's top, else the working directory). */
  root: string;
  /** The project's `.leopold/`, or null when it has none. */
  leopoldDir: string | null;
  /** The environment (PATH decides which `node` the hooks get; HOME where the user settings are). */
  env: NodeJS.ProcessEnv;
  /** The user's home (`~/.claude/settings.json`). */
  home: string;
  /** The Leopold package this doctor runs from (its templates, its engines floor). */
  install: { root: string; templates: string };
  now: Date;
}

export const pass = (id: string, detail: string): DoctorCheck => ({ id, status: 'pass', detail });
export const warn = (id: string, detail: string, fix: string): DoctorCheck => ({ id, status: 'warn', detail, fix });
export const fail = (id: string, detail: string, fix: string): DoctorCheck => ({ id, status: 'fail', detail, fix });

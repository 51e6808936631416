import { existsSync } from 'node:fs';
import { readRegularFile } from '../fs/read.js';
import { join } from 'node:path';
import { leopoldHookOf, type LeopoldHookName } from './index.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every hook command a parsed settings file registers, on any event. */
function hookCommands(settings: unknown): unknown[] {
  if (!isObject(settings) || !isObject(settings.hooks)) return [];
  return Object.values(settings.hooks)
    .flatMap((groups) => (Array.isArray(groups) ? groups : []))
    .flatMap((group: unknown) => (isObject(group) && Array.isArray(group.hooks) ? group.hooks : []))
    .map((hook: unknown) => (isObject(hook) ? hook.command : undefined));
}

// Settings files are a few KiB; past this, they are not read (as if unreadable).
const SETTINGS_BYTES = 4 * 1024 * 1024;

/** A Leopold hook a project's settings file registers, as written there. */
export interface RegisteredHook {
  /** `settings.json` or `settings.local.json` (under `.claude/`). */
  file: string;
  hook: LeopoldHookName;
  command: string;
}

/** Every Leopold hook the project's `.claude/settings.json` and `settings.local.json` register, each command once. Unreadable settings count as none. */
export function registeredHooks(projectDir: string): RegisteredHook[] {
  const found: RegisteredHook[] = [];
  for (const { file, settings } of projectSettings(projectDir)) {
    for (const command of hookCommands(settings)) {
      const ours = leopoldHookOf(command);
      if (ours !== null && !found.some((h) => h.command === command)) found.push({ file, hook: ours.hook, command: command as string });
    }
  }
  return found;
}

/**
 * The project's own settings files (`.claude/settings.json`, then `settings.local.json`),
 * parsed; one that is missing, unreadable or not JSON is left out. A regular file only,
 * read without blocking and bounded: the plugin's hooks read these on every call.
 */
function projectSettings(projectDir: string): { file: string; settings: unknown }[] {
  const out: { file: string; settings: unknown }[] = [];
  for (const file of ['settings.json', 'settings.local.json']) {
    try {
      out.push({ file, settings: JSON.parse(readRegularFile(join(projectDir, '.claude', file), SETTINGS_BYTES).toString('utf8').replace(/^\uFEFF/, '')) });
    } catch {
      // not there, or not settings: none
    }
  }
  return out;
}

/**
 * True when the project's own settings (`.claude/settings.json` or `settings.local.json`)
 * register Leopold's `hook` in a form that will run here: a script that exists (with
 * `$CLAUDE_PROJECT_DIR` read as `projectDir`) or `leopold hook …`. The plugin's copy of
 * the hook then stays silent, so a project never runs two guards or two Stop hooks
 * (docs/init.md, "Plugin and init together"). Unreadable settings count as none.
 */
export function projectRunsOwnHook(projectDir: string, hook: LeopoldHookName): boolean {
  for (const { settings } of projectSettings(projectDir)) {
    for (const command of hookCommands(settings)) {
      const ours = leopoldHookOf(command);
      if (ours === null || ours.hook !== hook) continue;
      if (ours.script === null) return true;
      if (existsSync(ours.script.replace(/\$\{?CLAUDE_PROJECT_DIR\}?/g, projectDir))) return true;
    }
  }
  return false;
}

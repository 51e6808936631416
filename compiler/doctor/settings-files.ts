import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { leopoldHookOf, type LeopoldHookName } from '../../runtime/project-cli/index.js';

/** A settings file Claude Code reads, as the doctor names it, and what it holds (null: absent or not JSON). */
export interface SettingsFile {
  /** How the report names it: `.claude/settings.json`, `~/.claude/settings.json`, … */
  name: string;
  scope: 'user' | 'project' | 'local' | 'managed';
  settings: Record<string, unknown> | null;
}

/** One Leopold hook some settings file registers. */
export interface Registration {
  file: string;
  scope: SettingsFile['scope'];
  event: string;
  matcher: string | undefined;
  hook: LeopoldHookName;
  command: string;
  script: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function read(path: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8').replace(/^\uFEFF/, '')) as unknown;
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** Every settings file whose hooks Claude Code merges for this project (they add up, none replaces another). */
export function settingsFiles(root: string, home: string): SettingsFile[] {
  return [
    { name: '~/.claude/settings.json', scope: 'user', settings: read(join(home, '.claude', 'settings.json')) },
    { name: '.claude/settings.json', scope: 'project', settings: read(join(root, '.claude', 'settings.json')) },
    { name: '.claude/settings.local.json', scope: 'local', settings: read(join(root, '.claude', 'settings.local.json')) },
    { name: '/etc/claude-code/managed-settings.json', scope: 'managed', settings: read('/etc/claude-code/managed-settings.json') },
  ];
}

/** The Leopold hooks each file registers, in file order. */
export function registrations(files: readonly SettingsFile[]): Registration[] {
  const out: Registration[] = [];
  for (const file of files) {
    const hooks = file.settings?.hooks;
    if (!isObject(hooks)) continue;
    for (const [event, groups] of Object.entries(hooks)) {
      if (!Array.isArray(groups)) continue;
      for (const group of groups as unknown[]) {
        if (!isObject(group) || !Array.isArray(group.hooks)) continue;
        for (const hook of group.hooks as unknown[]) {
          const command = isObject(hook) ? hook.command : undefined;
          const ours = leopoldHookOf(command);
          if (ours) out.push({ file: file.name, scope: file.scope, event, matcher: typeof group.matcher === 'string' ? group.matcher : undefined, hook: ours.hook, command: command as string, script: ours.script });
        }
      }
    }
  }
  return out;
}

/** The settings files that enable the Leopold plugin (`enabledPlugins: { "leopold@…": true }`). */
export function pluginEnabledIn(files: readonly SettingsFile[]): string[] {
  return files
    .filter((file) => isObject(file.settings?.enabledPlugins) && Object.entries(file.settings!.enabledPlugins as Record<string, unknown>).some(([key, on]) => key.startsWith('leopold@') && on === true))
    .map((file) => file.name);
}

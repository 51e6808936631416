import { fail, pass, type DoctorCheck, type DoctorContext } from '../check.js';
import { pluginEnabledIn, registrations, settingsFiles, type Registration } from '../settings-files.js';

const NAMES: Readonly<Record<Registration['hook'], string>> = { guard: 'git guards', stop: 'Stop hooks', 'stop-failure': 'StopFailure hooks' };

/**
 * One of each Leopold hook per event. Claude Code merges the hooks of every settings file
 * (the same command twice runs once), so two different commands for the same hook (a user-
 * level install and the project's, an old checkout's path beside today's) both run: two
 * Stop hooks would count every turn twice. The plugin steps aside only for the project's
 * own registrations (docs/init.md), not for a user-level one.
 */
export function checkDuplicates(ctx: DoctorContext): DoctorCheck {
  const files = settingsFiles(ctx.root, ctx.home);
  const registered = registrations(files);
  const plugin = pluginEnabledIn(files);
  const problems: string[] = [];
  const slots = new Map<string, Registration[]>();
  for (const r of registered) {
    const slot = `${r.hook}\0${r.event}\0${r.event === 'PreToolUse' ? (r.matcher ?? '') : ''}`;
    slots.set(slot, [...(slots.get(slot) ?? []), r]);
  }
  for (const [slot, list] of slots) {
    const commands = [...new Map(list.map((r) => [r.command, r])).values()];
    const [hook, event, matcher] = slot.split('\0') as [Registration['hook'], string, string];
    if (commands.length > 1) problems.push(`${commands.length} ${NAMES[hook]} run on ${event}${matcher ? ` ${matcher}` : ''}: ${commands.map((r) => `${r.command} (${r.file})`).join(' and ')}`);
    else if (plugin.length > 0 && (commands[0]!.scope === 'user' || commands[0]!.scope === 'managed')) {
      problems.push(`the Leopold plugin (enabled in ${plugin.join(', ')}) and ${commands[0]!.file} both run ${NAMES[hook].replace(/s$/, '')} on ${event}${matcher ? ` ${matcher}` : ''}: ${commands[0]!.command}`);
    }
  }
  if (problems.length > 0) {
    return fail('duplicates', problems.join('\n'), 'keep one registration per hook: the project\'s (npx leopold init writes it); remove the others from the files named (a user-level one in ~/.claude/settings.json, or disable the plugin)');
  }
  const where = [...new Set(registered.map((r) => r.file))];
  return pass('duplicates', `one of each Leopold hook${where.length > 0 ? ` (${where.join(', ')})` : ''}${plugin.length > 0 ? '; the plugin steps aside for the project\'s own' : ''}`);
}

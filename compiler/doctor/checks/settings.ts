import { checkProject } from '../../cli/commands/init.js';
import { LeopoldError } from '../../diagnostics/diagnostic.js';
import { fail, pass, warn, type DoctorCheck, type DoctorContext } from '../check.js';
import { pluginEnabledIn, settingsFiles } from '../settings-files.js';

/**
 * The registration: `.claude/settings.json` registers Leopold's hooks as today's init
 * writes them (init --check's findings), or the Leopold plugin is enabled and brings its
 * own; the skills are installed.
 */
export function checkSettings(ctx: DoctorContext): DoctorCheck {
  let findings;
  try {
    findings = checkProject(ctx.root, ctx.install);
  } catch (error) {
    if (error instanceof LeopoldError) return fail('settings', error.message, 'fix .claude/settings.json by hand, then run npx leopold init');
    throw error;
  }
  const plugin = pluginEnabledIn(settingsFiles(ctx.root, ctx.home));
  const settings = findings.find((f) => f.path === '.claude/settings.json')!;
  const skills = findings.filter((f) => f.path.endsWith('SKILL.md') && f.status !== 'ok');
  const skillNote = skills.length > 0 ? `; skills ${skills.map((f) => `${f.path} ${f.status}`).join(', ')}` : '';
  if (settings.status === 'ok') {
    const detail = `.claude/settings.json registers Leopold's hooks (PreToolUse guard, Stop, StopFailure)${plugin.length > 0 ? `; the Leopold plugin is enabled too (${plugin.join(', ')}): its hooks step aside` : ''}${skillNote}`;
    return skills.length > 0 ? warn('settings', detail, 'run npx leopold init to install the missing skills') : pass('settings', detail);
  }
  if (plugin.length > 0) {
    return pass('settings', `the Leopold plugin is enabled (${plugin.join(', ')}) and brings the hooks and skills; .claude/settings.json: ${settings.status}${settings.note ? ` (${settings.note})` : ''}`);
  }
  return fail(
    'settings',
    `.claude/settings.json is ${settings.status}${settings.note ? ` (${settings.note})` : ''}: Claude Code will not run Leopold's hooks as they should be${skillNote}`,
    'run npx leopold init (it merges the hooks into .claude/settings.json and keeps your own entries)',
  );
}

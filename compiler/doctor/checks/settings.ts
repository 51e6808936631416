import { checkProject } from '../../cli/commands/init.js';
import { LeopoldError } from '../../diagnostics/diagnostic.js';
import { fail, pass, warn, type DoctorCheck, type DoctorContext } from '../check.js';
import { pluginEnabledIn, settingsFiles } from '../settings-files.js';
import { READ_ONLY_AGENT_PATH } from '../../../runtime/verify/agent.js';

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
  // The skills, and the read-only agent the workflow's checkers run as (a session started
  // without it cannot run them: Claude Code reads .claude/agents/ when a session starts).
  const skills = findings.filter((f) => (f.path.endsWith('SKILL.md') || f.path === READ_ONLY_AGENT_PATH) && f.status !== 'ok');
  const skillNote = skills.length > 0 ? `; not as init writes them: ${skills.map((f) => `${f.path} ${f.status}`).join(', ')}` : '';
  if (settings.status === 'ok') {
    const detail = `.claude/settings.json registers Leopold's hooks (PreToolUse guard, Stop, StopFailure)${plugin.length > 0 ? `; the Leopold plugin is enabled too (${plugin.join(', ')}): its hooks step aside` : ''}${skillNote}`;
    return skills.length > 0 ? warn('settings', detail, 'run npx leopold init to install what is missing, then start a new Claude Code session') : pass('settings', detail);
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
